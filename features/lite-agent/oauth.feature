@lite-agent
Feature: OAuth login and token refresh (LA-OAU)
  「通过宿主侧 mcpOAuth 按服务器名绑定认证配置……授权发现、动态客户端注册、PKCE、issuer 校验、兑换与刷新使用官方 auth()，
  不自建 OAuth 协议。lite-agent 生成一次性随机 state，校验完整回调地址和重复参数；拒绝错误 issuer、取消授权和不可信认证目标。」

  Background:
    Given an authorization server "as"
    And an HTTP MCP server "docs" with tools "search, fetch" protected by "as"

  # 「相同名字可来自 mcps.json、mcpServers 或 agent.mcp.register()，不增加另一套注册 API」 (A-33)
  @LA-OAU-01
  Scenario Outline: mcpOAuth binds the login to "docs" declared through <source>
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    When "docs" is declared as "docs" through <source>
    Then it succeeds
    And the host's authorize() was called 1 time
    And every MCP request "docs" received after the login carried a Bearer token

    Examples:
      | source                    |
      | the project configuration |
      | the mcpServers option     |
      | register()                |

  # 「JSON 文件仍只声明服务器，不存放 provider、回调函数或令牌」
  @LA-OAU-02
  Scenario Outline: a "<key>" key in mcps.json is refused and never used
    Given the project configuration file contains:
      """
      { "mcpServers": { "docs": { "type": "http", "url": "{{url "docs"}}", "<key>": <value> } } }
      """
    When the host creates the agent and sends "hello"
    Then it fails with a "config" error
    And "docs" never received an Authorization header
    And "as" received nothing

    Examples:
      | key      | value                                    |
      | token    | "la-file-token-5e"                       |
      | oauth    | {"provider": "file"}                     |
      | mcpOAuth | {"serverUrl": "{{url "docs"}}"}          |

  # 「SDK 不创建页面、监听回调端口或自动打开浏览器」 (X-05)
  @LA-OAU-03
  Scenario: the SDK calls authorize() with the URL and opens no page, listener or browser
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the host's authorize() checks that nothing listens on the redirect URL's port
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And the host's authorize() was called 1 time
    And nothing listened on the redirect URL's port during the login
    And no browser or link opener was started

  # 「返回完整 URL（包括 code、state、iss）」 (A-30)
  @LA-OAU-04
  Scenario: authorize() gets the authorization URL and returns the full callback URL
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And the authorization URL went to the authorization endpoint of "as" with response_type "code", an S256 code_challenge, a state and the provider's redirect URI

  @LA-OAU-04 @LA-OAU-32
  Scenario: authorize()'s signal is aborted at the login deadline (timeoutMs 500)
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the binding of "docs" has timeoutMs 500
    And the host's authorize() waits until it is cancelled
    When the host creates the agent
    And the host registers "docs"
    Then it fails with a "timeout" error
    And that took less than 5 seconds
    And the signal of authorize() was aborted
    And "as" received no "token" request

  @LA-OAU-04
  Scenario: authorize()'s signal is aborted when the agent closes
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the host's authorize() waits until it is cancelled
    When the host creates the agent
    And the host registers "docs" in the background
    And the host's authorize() is called
    And the host closes the agent
    Then the background operation ends within 5 seconds
    And the signal of authorize() was aborted

  # 「SDK 即使遇到不响应取消的回调，也不会继续兑换迟到的授权码」
  @LA-OAU-05
  Scenario Outline: a code that arrives after <end> is never redeemed
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the binding of "docs" has timeoutMs 1500
    And the host's authorize() ignores its signal and returns the callback after it was aborted
    When the host creates the agent
    And the host registers "docs" in the background
    And the host's authorize() is called
    And <action>
    Then the background operation ends within 5 seconds
    And the host's authorize() returned its callback
    And "as" received no "authorization_code" grant
    And the provider "p" was never asked to "saveTokens"

    Examples:
      | end          | action                                        |
      | close()      | the host closes the agent                     |

    @adapter-lacks:clock
    Examples: in real time
      | end          | action                                        |
      | the deadline | the signal of authorize() is aborted          |

  @LA-OAU-05 @adapter:clock
  Scenario: a code that arrives after the deadline on the agent's clock is never redeemed
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the binding of "docs" has timeoutMs 1500
    And the host's authorize() ignores its signal and returns the callback after it was aborted
    And the agent's clock is under the host's control
    When the host creates the agent
    And the host registers "docs" in the background
    And the host's authorize() is called
    And the clock advances 1500 milliseconds
    And the signal of authorize() is aborted
    Then the background operation ends within 5 seconds
    And the host's authorize() returned its callback
    And "as" received no "authorization_code" grant
    And the provider "p" was never asked to "saveTokens"

  # 「去掉了由 lite-agent 管理的 state、redirectToAuthorization 和暂未支持的 DPoP」
  @LA-OAU-07
  Scenario: a provider without state() and redirectToAuthorization() completes the login
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And every MCP request "docs" received after the login carried a Bearer token
    And the provider "p" was never asked to "state"

  @LA-OAU-07
  Scenario: the members of an official provider class that lite-agent manages itself are never called
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the provider "p" is an official provider class with state() "la-provider-state-7c"
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And the provider "p" was never asked to "state"
    And the provider "p" was never asked to "redirectToAuthorization"
    And the authorization URL's state was not "la-provider-state-7c"
    And every MCP request "docs" received after the login carried a Bearer token

  # 「已有官方 provider 类可直接传入，类方法的 this 和私有字段会保留」
  @LA-OAU-08
  Scenario: tokens are saved in, and read back from, the provider instance the host passed
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs"
    And the host unregisters "docs"
    And the host registers "docs"
    Then it succeeds
    And the provider "p" was asked to "saveTokens" 1 time
    And the provider "p" was asked to "tokens" 2 times
    And the host's authorize() was called 1 time

  # 「一个 provider 对象不能同时绑定多个活动连接」 (A-23)
  @LA-OAU-10
  Scenario: one provider is never bound to two active connections
    Given an HTTP MCP server "wiki" with tools "page" protected by "as"
    And the host binds "docs" to OAuth with the provider "p" of "as"
    And the host binds "wiki" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs"
    And the host registers "wiki"
    Then it fails with a "conflict" error
    And "wiki" never received an Authorization header
    When the host unregisters "docs"
    And the host registers "wiki"
    Then it succeeds

  # 「close() / unregister() 释放连接，不删除宿主令牌」
  @LA-OAU-11 @LA-OAU-12
  Scenario Outline: <call> keeps the host's tokens and logs nobody out
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs"
    And <action>
    Then it succeeds
    And the provider "p" was never asked to "invalidateCredentials"
    And the provider "p" was asked to "saveTokens" 1 time
    And the provider "p" still holds its tokens
    And "as" received no "revoke" request
    And "as" received no "end-session" request

    Examples:
      | call         | action                     |
      | unregister() | the host unregisters "docs" |
      | close()      | the host closes the agent  |

  # 「再次注册可以使用已保存的有效令牌」
  @LA-OAU-13
  Scenario: a saved, valid token is used without a login
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the provider "p" holds valid tokens of "as" for "docs"
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And the host's authorize() was never called
    And every MCP request "docs" received carried the provider's access token

  # 「当前流程要求回调在同一次活动注册/连接操作内完成；不支持重启后恢复尚未完成的登录」
  @LA-OAU-14
  Scenario: a login left unfinished is never resumed by a new agent
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the host's authorize() completes the login but keeps the callback until it is cancelled
    When the host creates the agent
    And the host registers "docs" in the background
    And the host's authorize() holds the callback of the first login
    And the host closes the agent
    And the background operation ends within 5 seconds
    And the host's authorize() returns the first login's callback from now on
    And the host creates the agent again
    And the host registers "docs"
    Then it fails with a "security" error
    And the two authorization URLs had different states and code challenges
    And "as" received no "authorization_code" grant

  # 「授权发现、动态客户端注册、PKCE、issuer 校验、兑换与刷新使用官方 auth()」
  @LA-OAU-15
  Scenario: the login is standard OAuth: metadata, registration, PKCE S256, resource, and refresh
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the model calls "mcp__docs__search" with {}
    And the protected server "docs" answers 401 to the next 1 request with a valid token
    When the host creates the agent
    And the host registers "docs"
    And the host sends "go"
    Then it succeeds
    And "docs" received a request for its protected resource metadata
    And "as" received at least 1 "metadata" request
    And "as" received 1 "register" request
    And the authorization request and the code exchange named the resource "docs"
    And "as" received 1 "authorization_code" grant with a code_verifier
    And "as" received 1 "refresh_token" grant
    And every authorization and token request for "docs" named the resource "{{url "docs"}}"
    And the model received a tool result containing "ok"

  # The official auth() of @modelcontextprotocol/client 2.1.0, shape by shape: how it finds the
  # protected resource metadata (RFC 9728) and the authorization server metadata (RFC 8414, OpenID
  # Connect discovery), what it registers, how it authenticates at the token endpoint, which scope it
  # asks for, client ID metadata documents, authorization servers that change, the resource indicator
  # (RFC 8707), and the kind of a refusal that stays (A-39, spec/oauth-official-client.md).
  # Lists of URLs are in the order each was first asked for: a client that discovers again for the
  # code exchange asks for them again, in the same order.

  # RFC 9728 §5.1 and §3.1: the 401's resource_metadata, else the path-inserted, then the root well-known URL.
  @LA-OAU-15
  Scenario Outline: the resource metadata is looked for as the official client does: <case>
    Given the protected server "docs" <challenge>
    And the protected server "docs" serves its metadata <where>
    And the host binds "docs" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And the resource metadata of "docs" was looked for at "<urls>", in this order
    And every MCP request "docs" received after the login carried a Bearer token

    Examples:
      | case                                     | challenge                             | where                     | urls                                                                             |
      | the 401 names it, at the root            | challenges with resource_metadata     | at the root               | /.well-known/oauth-protected-resource                                            |
      | the 401 does not name it                 | challenges without resource_metadata  | at the path-inserted URL  | /.well-known/oauth-protected-resource/mcp/docs                                   |
      | the 401 does not name it, at the root    | challenges without resource_metadata  | at the root               | /.well-known/oauth-protected-resource/mcp/docs, /.well-known/oauth-protected-resource |

  # With no resource metadata at all the MCP server's origin is the authorization server; lite-agent
  # still names the resource, where the official client names none (A-39).
  @LA-OAU-15
  Scenario: with no resource metadata, the authorization server is the MCP server's origin
    Given an authorization server "co" co-hosted with the MCP servers
    And an HTTP MCP server "home" with tools "search" protected by "co"
    And the protected server "home" challenges without resource_metadata
    And the protected server "home" serves its metadata nowhere
    And the host binds "home" to OAuth with the provider "p" of "co"
    And the binding of "home" allows no other origin
    When the host creates the agent
    And the host registers "home"
    Then it succeeds
    And the resource metadata of "home" was looked for at "/.well-known/oauth-protected-resource/mcp/home, /.well-known/oauth-protected-resource", in this order
    And the metadata of "co" was looked for at "/.well-known/oauth-authorization-server", in this order
    And every authorization and token request for "home" named the resource "{{url "home"}}"
    And every MCP request "home" received after the login carried a Bearer token

  # RFC 8414 §3.1 and §5, and the MCP specification: with a path, RFC 8414 path-inserted, OpenID Connect
  # path-inserted, OpenID Connect path-appended; without, RFC 8414 and OpenID Connect at the root.
  @LA-OAU-15
  Scenario Outline: the authorization server metadata is looked for as the official client does: <case>
    Given the authorization server "as" <issuer>
    And the authorization server "as" serves its metadata by <how>
    And the host binds "docs" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And the metadata of "as" was looked for at "<urls>", in this order
    And every MCP request "docs" received after the login carried a Bearer token

    Examples:
      | case                                  | issuer                          | how                                                        | urls |
      | RFC 8414 at the root                  | has no issuer path              | RFC 8414                                                   | /.well-known/oauth-authorization-server |
      | OpenID Connect at the root            | has no issuer path              | OpenID Connect discovery                                   | /.well-known/oauth-authorization-server, /.well-known/openid-configuration |
      | RFC 8414 with the path inserted       | has the issuer path "/tenant"   | RFC 8414                                                   | /.well-known/oauth-authorization-server/tenant |
      | OpenID Connect with the path inserted | has the issuer path "/tenant"   | OpenID Connect discovery                                   | /.well-known/oauth-authorization-server/tenant, /.well-known/openid-configuration/tenant |
      | OpenID Connect appended to the path   | has the issuer path "/tenant"   | OpenID Connect discovery appended to its issuer path       | /.well-known/oauth-authorization-server/tenant, /.well-known/openid-configuration/tenant, /tenant/.well-known/openid-configuration |

  # SEP-837 and SEP-2207: the host's client metadata as it is, with application_type from the redirect
  # URIs and grant_types when the host set none; nothing else is added.
  @LA-OAU-15
  Scenario Outline: the registration carries the host's client metadata and the official client's defaults: <case>
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the provider "p" redirects to "<redirect>"
    And the provider "p" describes its client as <metadata>
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And the registration "as" received was the client metadata of the provider "p" with <added>

    Examples:
      | case                          | redirect                                   | metadata                                                                                           | added |
      | a loopback redirect is native | http://127.0.0.1:1/oauth/callback          | {"redirect_uris": ["{{redirect}}"], "client_name": "la host", "grant_types": ["authorization_code", "refresh_token"], "token_endpoint_auth_method": "none"} | {"application_type": "native"} |
      | a web redirect, no defaults   | https://app.la-test.invalid/oauth/callback | {"redirect_uris": ["{{redirect}}"], "client_name": "la web host"}                                   | {"application_type": "web", "grant_types": ["authorization_code", "refresh_token"]} |
      | the host's application_type   | http://127.0.0.1:1/oauth/callback          | {"redirect_uris": ["{{redirect}}"], "application_type": "web", "token_endpoint_auth_method": "none", "contacts": ["ops@la-test.invalid"]} | {"grant_types": ["authorization_code", "refresh_token"]} |

  # selectClientAuthMethod: the registered method if the server supports it; else Basic, the form, none.
  @LA-OAU-15
  Scenario Outline: the token endpoint authentication follows the registration and the server: <case>
    Given the authorization server "as" supports only the client authentication "<methods>"
    And the host binds "docs" to OAuth with the provider "p" of "as"
    And the provider "p" describes its client as <metadata>
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And "as" received the "authorization_code" grant authenticated with "<used>"

    Examples:
      | case                            | methods                                              | metadata                                                                                | used                |
      | a public client                 | none, client_secret_basic, client_secret_post        | {"redirect_uris": ["{{redirect}}"], "token_endpoint_auth_method": "none"}                | none                |
      | client_secret_basic, registered | none, client_secret_basic, client_secret_post        | {"redirect_uris": ["{{redirect}}"], "token_endpoint_auth_method": "client_secret_basic"} | client_secret_basic |
      | client_secret_post, registered  | none, client_secret_basic, client_secret_post        | {"redirect_uris": ["{{redirect}}"], "token_endpoint_auth_method": "client_secret_post"}  | client_secret_post  |
      | the server's only method        | client_secret_post                                   | {"redirect_uris": ["{{redirect}}"]}                                                      | client_secret_post  |

  @LA-OAU-15
  Scenario: a pre-registered client without a method uses the one the server supports
    Given the authorization server "as" supports only the client authentication "client_secret_post"
    And the host binds "docs" to OAuth with the provider "p" of "as"
    And the provider "p" holds the client "la-host-client" with the secret "la-host-secret-5b" of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And "as" received no "register" request
    And "as" received the "authorization_code" grant authenticated with "client_secret_post"

  # SEP-835: the challenge's scope, else the resource metadata's scopes_supported, else the client
  # metadata's scope; offline_access added when the server lists it, with prompt=consent.
  @LA-OAU-15
  Scenario Outline: the scope asked for is the official client's: <case>
    Given the authorization server "as" lists the scopes "<server scopes>"
    And the protected server "docs" challenges for the scope "<challenge>"
    And the protected server "docs" lists the scopes "<resource scopes>"
    And the host binds "docs" to OAuth with the provider "p" of "as"
    And the provider "p" asks for the scope "<client scope>"
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And the authorization URL's "scope" was "<scope>"
    And the authorization URL's "prompt" was "<prompt>"
    And the registration "as" received was the client metadata of the provider "p" with {"application_type": "native", "scope": "<scope>"}

    Examples:
      | case                        | server scopes           | challenge          | resource scopes | client scope | scope                    | prompt  |
      | the challenge's             |                         | mcp:read mcp:write | mcp:all         | la:own       | mcp:read mcp:write       |         |
      | the resource metadata's     |                         |                    | mcp:a mcp:b     | la:own       | mcp:a mcp:b              |         |
      | the client metadata's       |                         |                    |                 | la:own       | la:own                   |         |
      | none                        |                         |                    |                 |              |                          |         |
      | with offline_access         | mcp:read offline_access | mcp:read           |                 |              | mcp:read offline_access  | consent |

  # SEP-991: a client ID metadata document's URL is the client_id when the server supports them.
  @LA-OAU-15
  Scenario: with client ID metadata documents, the document's URL is the client and nothing is registered
    Given the authorization server "as" supports client ID metadata documents
    And the host binds "docs" to OAuth with the provider "p" of "as"
    And the provider "p" has the client metadata URL "https://client.la-test.invalid/oauth/la-host.json"
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And "as" received no "register" request
    And the authorization URL's "client_id" was "https://client.la-test.invalid/oauth/la-host.json"
    And every "authorization_code" grant "as" received carried the "client_id" "https://client.la-test.invalid/oauth/la-host.json"

  @LA-OAU-15
  Scenario: without support for them, a client metadata URL is not the client: it registers
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the provider "p" has the client metadata URL "https://client.la-test.invalid/oauth/la-host.json"
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And "as" received 1 "register" request
    And the authorization URL's "client_id" was not "https://client.la-test.invalid/oauth/la-host.json"

  @LA-OAU-15
  Scenario: a client metadata URL that is not https is refused before any registration
    Given the authorization server "as" supports client ID metadata documents
    And the host binds "docs" to OAuth with the provider "p" of "as"
    And the provider "p" has the client metadata URL "http://client.la-test.invalid/oauth/la-host.json"
    When the host creates the agent
    And the host registers "docs"
    Then it fails with a "config" error
    And "as" received no "register" request
    And the host's authorize() was never called

  # SEP-2352: a client and tokens belong to the authorization server that issued them; when the resource
  # names another one, it registers again and the old client_id and refresh token are never shown to it.
  @LA-OAU-15
  Scenario: saved credentials of another authorization server are never shown to the new one
    Given an authorization server "as2"
    And an HTTP MCP server "moved" with tools "search" protected by "as2"
    And the host binds "moved" to OAuth with the provider "p" of "as2"
    And the provider "p" holds valid tokens of "as" for "moved"
    When the host creates the agent
    And the host registers "moved"
    Then it succeeds
    And the host's authorize() was called 1 time
    And "as2" received 1 "register" request
    And no request "as2" received carried the client or the refresh token the provider "p" held
    And the provider "p" holds a client of "as2"
    And every MCP request "moved" received after the login carried a Bearer token

  @LA-OAU-15
  Scenario: tokens of another authorization server are never refreshed at the new one
    Given an authorization server "as2"
    And an HTTP MCP server "moved" with tools "search" protected by "as2"
    And the host binds "moved" to OAuth with the provider "p" of "as2"
    And the provider "p" holds valid tokens of "as" for "moved"
    And the provider "p" holds the client "la-host-client" with the secret "la-host-secret-5b" of "as2"
    When the host creates the agent
    And the host registers "moved"
    Then it succeeds
    And "as2" received no "refresh_token" grant
    And "as2" received no "register" request
    And the host's authorize() was called 1 time

  # During a run only a refresh may happen (LA-OAU-34): at a new server there is nothing to refresh with,
  # so the call fails and nothing reaches it; the host's re-registration logs in there (LA-OAU-37).
  @LA-OAU-15 @LA-OAU-37
  Scenario: when the server moves to another authorization server during a run, the run sends it nothing
    Given an authorization server "as2"
    And the host binds "docs" to OAuth with the provider "p" of "as"
    And the binding of "docs" also allows the authorization server "as2"
    And the model calls "mcp__docs__search" with {}
    When the host creates the agent
    And the host registers "docs"
    And the protected server "docs" moves to the authorization server "as2"
    And the host sends "go"
    Then the model received a tool error
    And the host's authorize() was called 1 time
    And "as2" received no "register" request
    And "as2" received no "token" request
    And no request "as2" received carried the client or the refresh token the provider "p" holds
    When the host waits until the agent is idle
    And the host unregisters "docs"
    And the host registers "docs"
    Then it succeeds
    And the host's authorize() was called 2 times
    And "as2" received 1 "register" request
    And the provider "p" holds a client of "as2"

  # RFC 8707 and checkResourceAllowed: the metadata's resource, verbatim, when it is the server's URL or
  # a parent of it; any other is refused before a client, a code or a token is asked for. Resources
  # are references resolved against the server's URL.
  @LA-OAU-15
  Scenario Outline: the resource indicator is the resource metadata's: <case>
    Given the protected server "docs" names the resource "<resource>"
    And the host binds "docs" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And every authorization and token request for "docs" named the resource "<resource>"

    Examples:
      | case                  | resource  |
      | the server's URL      | /mcp/docs |
      | the origin, a parent  | /         |

  @LA-OAU-15
  Scenario Outline: resource metadata for <case> is refused before any client, code or token is asked for
    Given the protected server "docs" names the resource "<resource>"
    And the host binds "docs" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it fails with a "security" error
    And "as" received no "register" request
    And "as" received no "token" request
    And the host's authorize() was never called

    Examples:
      | case                         | resource                             |
      | another path of the origin   | /mcp/other                           |
      | a longer path                | /mcp/docs/admin                      |
      | another origin               | https://mcp.la-test.invalid/mcp/docs |

  # A refusal that stays on server/discover or tools/list is an authentication failure, never "the server
  # does not speak 2026-07-28": 401 after a refresh and a login, 403 at once (no step-up, LA-OAU-36).
  @LA-OAU-15
  Scenario Outline: a 401 on <method> that no refresh or login cures fails the registration as "auth"
    Given the authorization server "as" refuses refresh tokens
    And the host binds "docs" to OAuth with the provider "p" of "as"
    And the provider "p" holds valid tokens of "as" for "docs"
    When the host creates the agent
    And the protected server "docs" answers 401 to the next 5 "<method>" requests
    And the host registers "docs"
    Then it fails with an "auth" error
    And the host's authorize() was called 1 time

    Examples:
      | method          |
      | server/discover |
      | tools/list      |

  @LA-OAU-15 @LA-OAU-36
  Scenario Outline: a 403 on <method> fails the registration as "auth", with no refresh or login
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the provider "p" holds valid tokens of "as" for "docs"
    When the host creates the agent
    And the protected server "docs" answers 403 insufficient_scope to the next 1 "<method>" request
    And the host registers "docs"
    Then it fails with an "auth" error
    And "as" received no "refresh_token" grant
    And the host's authorize() was never called

    Examples:
      | method          |
      | server/discover |
      | tools/list      |

  # 「生成一次性随机 state」 (X-06)
  @LA-OAU-16
  Scenario: every login has its own random state, and a finished login's callback is refused
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs"
    And the host unregisters "docs"
    And the provider "p" forgets its tokens
    And the host's authorize() returns the first login's callback from now on
    And the host registers "docs"
    Then it fails with a "security" error
    And the two authorization URLs had different states of at least 22 base64url characters
    And "as" received 1 "authorization_code" grant

  # 「校验完整回调地址」 (X-07, A-35)
  @LA-OAU-17
  Scenario Outline: a callback whose <part> differs is refused without an exchange
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the host's authorize() returns the callback with its <part> changed
    When the host creates the agent
    And the host registers "docs"
    Then it fails with a "security" error
    And "as" received no "token" request
    And "docs" never received an Authorization header

    Examples:
      | part   |
      | scheme |
      | host   |
      | port   |
      | path   |
      | state  |

  # 「重复参数」
  @LA-OAU-18
  Scenario Outline: a callback repeating "<param>" is refused without an exchange
    Given the authorization server "as" repeats "<param>" in its callback
    And the host binds "docs" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it fails with a "security" error
    And "as" received no "token" request

    Examples:
      | param |
      | code  |
      | state |
      | iss   |

  # 「拒绝错误 issuer」
  @LA-OAU-19
  Scenario Outline: <case> is refused without an exchange
    Given the authorization server "as" <fault>
    And the host binds "docs" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it fails with a "security" error
    And "as" received no "token" request

    Examples:
      | case                                   | fault                                 |
      | a callback with another issuer         | sends a wrong iss                     |
      | metadata naming another issuer         | names another issuer in its metadata  |
      | a missing iss the server promised      | sends no iss                          |

  # 「取消授权」
  @LA-OAU-20
  Scenario Outline: <case> fails the registration without an exchange or a connection
    Given <setup>
    And the host binds "docs" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it fails
    And the host's authorize() was called 1 time
    And "as" received no "token" request
    And "docs" never received an Authorization header

    Examples:
      | case                         | setup                                       |
      | an authorize() that fails    | the host's authorize() fails                |
      | an access_denied callback    | the authorization server "as" denies access |

  # 「allowedOrigins 明确允许 OAuth 元数据、注册、授权和 token 来源」
  @LA-OAU-21
  Scenario Outline: a <endpoint> endpoint on an origin missing from allowedOrigins fails the flow before it is contacted
    Given the authorization server "as" serves its <endpoint> endpoint on its other origin
    And the host binds "docs" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it fails with a "security" error
    And no request reached the other origin of "as"
    And the host's authorize() was never called

    Examples:
      | endpoint      |
      | authorization |
      | token         |
      | registration  |

  @LA-OAU-21
  Scenario: listing the other origin in allowedOrigins lets the flow pass
    Given the authorization server "as" serves its token endpoint on its other origin
    And the host binds "docs" to OAuth with the provider "p" of "as"
    And the binding of "docs" also allows the other origin of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And every MCP request "docs" received after the login carried a Bearer token

  # 「MCP 自身 origin 自动包含」
  @LA-OAU-22
  Scenario: an authorization server on the MCP server's own origin needs no allowedOrigins
    Given an authorization server "co" co-hosted with the MCP servers
    And an HTTP MCP server "home" with tools "search" protected by "co"
    And the host binds "home" to OAuth with the provider "p" of "co"
    And the binding of "home" allows no other origin
    When the host creates the agent
    And the host registers "home"
    Then it succeeds
    And every MCP request "home" received after the login carried a Bearer token

  # 「serverUrl 必须与实际 MCP URL 完全一致」 (A-34)
  @LA-OAU-23
  Scenario Outline: a serverUrl that differs by <difference> is an error, and no token is sent
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the provider "p" holds valid tokens of "as" for "docs"
    And the binding of "docs" has serverUrl "<url>"
    When "docs" is declared as "docs" through register()
    Then it fails with a "config" error
    And "docs" never received an Authorization header
    And the provider "p" was never asked to "tokens"

    Examples:
      | difference      | url                          |
      | a trailing slash | {{url "docs"}}/             |
      | its path        | {{url "docs"}}-v2            |
      | its query       | {{url "docs"}}?v=1           |
      | its scheme      | {{url "docs" "https"}}       |
      | its port        | {{url "docs" "port+1"}}      |

  # 「项目配置改为另一地址时不会携带旧凭证连接」 (A-34)
  @LA-OAU-24
  Scenario: when the project file points "docs" elsewhere, the saved token is not sent there
    Given an HTTP MCP server "evil" with tools "search"
    And the host binds "docs" to OAuth with the provider "p" of "as"
    And the provider "p" holds valid tokens of "as" for "docs"
    And the project configuration file contains:
      """
      { "mcpServers": { "docs": { "type": "http", "url": "{{url "evil"}}" } } }
      """
    When the host creates the agent and sends "hello"
    Then it fails with a "config" error
    And the provider "p" was never asked to "tokens"
    And "evil" never received an Authorization header

  # 「所有目标遵守 HTTPS/回环 HTTP 规则」: even an origin the host lists
  @LA-OAU-25
  Scenario Outline: a <endpoint> endpoint on non-loopback plain HTTP fails the flow, even when its origin is listed
    Given the authorization server "as" lists its <endpoint> endpoint on plain HTTP to a remote host
    And the host binds "docs" to OAuth with the provider "p" of "as"
    And the binding of "docs" also allows the origin "http://la-oauth.invalid"
    When the host creates the agent and registers "docs"
    Then it fails
    And the host's authorize() was never called

    Examples:
      | endpoint      |
      | token         |
      | authorization |

  # 「并拒绝重定向」
  @LA-OAU-26
  Scenario Outline: a redirect from the <endpoint> endpoint fails the flow, and its Location is never requested
    Given the authorization server "as" redirects its <endpoint> endpoint to its other origin
    And the host binds "docs" to OAuth with the provider "p" of "as"
    And the binding of "docs" also allows the other origin of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it fails with a "security" error
    And no request reached the other origin of "as"

    Examples:
      | endpoint     |
      | metadata     |
      | registration |
      | token        |

  # 「OAuth 与静态 headers 不能混用」
  @LA-OAU-27
  Scenario: static headers and an mcpOAuth binding on one server are a configuration error
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    When the entry {"type": "http", "url": "{{url "docs"}}", "headers": {"X-Api-Key": "la-key-88"}} is declared as "docs" through register()
    Then it fails with a "config" error
    And no request "as" received carried the header "X-Api-Key"
    And "docs" received nothing

  # 「当前只支持 Bearer OAuth，不支持 DPoP」
  @LA-OAU-28
  Scenario: requests carry Bearer tokens and never DPoP
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And every MCP request "docs" received after the login carried a Bearer token
    And no request "docs" received carried the header "DPoP"

  @LA-OAU-28
  Scenario: a DPoP token is refused
    Given the authorization server "as" issues "DPoP" tokens
    And the host binds "docs" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it fails with a "security" error
    And "docs" never received an Authorization header

  # 「凭证、验证码和授权 URL 不进入 list()、会话或审批事件」 (X-19, A-20, A-31)
  @LA-OAU-29
  Scenario: tokens, the code, the verifier and the authorization URL stay out of list(), approvals and events
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the model calls "mcp__docs__search" with {}
    When the host creates the agent
    And the host registers "docs"
    And the host sends "go"
    Then it succeeds
    And every MCP request "docs" received after the login carried a Bearer token
    And no secret of the login appears in list(), an approval request or an event

  # 「远端认证错误描述在进入官方日志前脱敏」 (X-19, A-19)
  @LA-OAU-30 @adapter:log-sinks
  Scenario: an authorization server's error description never reaches the logs
    Given the authorization server "as" answers token requests with the error "invalid_grant" described as "LA-OAU-30 canary 3d2f"
    And the host binds "docs" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it fails
    And "as" received 1 "token" request
    And "3d2f" appears in no log, event, list() entry, model request or adapter output

  # 「首次连接/登录默认总期限 180 秒」 (A-27)
  @LA-OAU-31 @adapter:clock
  Scenario: the first connection and login give up after 180 seconds by default
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the host's authorize() waits until it is cancelled
    And the agent's clock is under the host's control
    When the host creates the agent
    And the host registers "docs" in the background
    And the host's authorize() is called
    And the clock advances 179 seconds
    Then the background operation is still running
    When the clock advances 1 second
    Then the background operation ends with a "timeout" error
    And the signal of authorize() was aborted

  # 「可配置 1–600000 毫秒」 (X-06): the bounds are accepted, and they are
  # the deadline the login then keeps, to the millisecond.
  @LA-OAU-32 @adapter:clock
  Scenario Outline: the login deadline timeoutMs <value> is accepted and is the login's deadline
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the binding of "docs" has timeoutMs <value>
    And the host's authorize() waits until it is cancelled
    And the agent's clock is under the host's control
    When the host creates the agent
    Then it succeeds
    When the host registers "docs" in the background
    And the host's authorize() is called
    And the clock advances <before> milliseconds
    Then the background operation is still running
    When the clock advances 1 millisecond
    Then the background operation ends with a "timeout" error
    And the signal of authorize() was aborted

    Examples:
      | value  | before |
      | 1      | 0      |
      | 600000 | 599999 |

  # 「可配置 1–600000 毫秒」 (X-06)
  @LA-OAU-32
  Scenario: the longest login deadline timeoutMs 600000 lets a login complete
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the binding of "docs" has timeoutMs 600000
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And every MCP request "docs" received after the login carried a Bearer token

  # 「可配置 1–600000 毫秒」 (X-06)
  @LA-OAU-32
  Scenario Outline: the login deadline timeoutMs <value> is refused
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the binding of "docs" has timeoutMs <value>
    When the host creates the agent
    Then it <outcome>

    Examples:
      | value  | outcome                   |
      | 0      | fails with a "config" error |
      | 600001 | fails with a "config" error |
      | -1     | fails with a "config" error |
      | "NaN"  | fails with a "config" error |
      | 1.5    | fails with a "config" error |

  # 「认证 HTTP 请求仍受服务器 timeoutMs 限制」
  @LA-OAU-33
  Scenario: a slow token endpoint fails the login at the server's timeoutMs, not the login deadline
    Given the authorization server "as" delays its token endpoint by 5000 ms
    And the host binds "docs" to OAuth with the provider "p" of "as"
    When the host creates the agent
    And the host registers "docs" with timeoutMs 1000
    Then it fails with a "timeout" error
    And "as" received 1 "token" request
    And that took less than 4 seconds

  # 「运行中的 401 可以刷新……但不会弹出登录」
  @LA-OAU-34
  Scenario: a 401 during a run refreshes the token and retries, without a login
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the model calls "mcp__docs__search" with {}
    When the host creates the agent
    And the host registers "docs"
    And the protected server "docs" answers 401 to the next 1 request with a valid token
    And the host sends "go"
    Then it succeeds
    And "as" received 1 "refresh_token" grant
    And the host's authorize() was called 1 time
    And the model received a tool result containing "ok"

  @LA-OAU-34
  Scenario: when the refresh fails, the call fails, still without a login
    Given the authorization server "as" refuses refresh tokens
    And the host binds "docs" to OAuth with the provider "p" of "as"
    And the model calls "mcp__docs__search" with {}
    When the host creates the agent
    And the host registers "docs"
    And the protected server "docs" answers 401 to the next 5 requests with a valid token
    And the host sends "go"
    Then the model received a tool error
    And the host's authorize() was called 1 time

  # 「合并并发刷新」
  @LA-OAU-35 @adapter:subagent
  Scenario: two concurrent calls refused with 401 cause exactly one refresh
    Given the authorization server "as" holds its token endpoint at the latch "refresh"
    And the host binds "docs" to OAuth with the provider "p" of "as"
    And the provider "p" holds valid tokens of "as" for "docs"
    When the host creates the agent
    And the host registers "docs"
    And the host creates a sub-agent
    And the protected server "docs" answers 401 to the next 2 requests with a valid token
    And the model calls "mcp__docs__search" with {"n": 1}
    And the model calls "mcp__docs__search" with {"n": 2}
    And the host sends "one" in the background
    And the sub-agent sends "two" in the background too
    And "docs" refused 2 calls with 401
    And the latch "refresh" is released
    Then both background operations end successfully
    And "as" received 1 "refresh_token" grant
    And "docs" answered 2 calls of the tool "search"

  # 「403 扩大 scope 直接失败」
  @LA-OAU-36
  Scenario: a 403 insufficient_scope becomes a tool error with no refresh, login or retry
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the model calls "mcp__docs__search" with {}
    When the host creates the agent
    And the host registers "docs"
    And the protected server "docs" answers 403 insufficient_scope to the next 1 request
    And the host sends "go"
    Then the model received a tool error
    And "as" received no "refresh_token" grant
    And the host's authorize() was called 1 time
    And "docs" received 1 call of the tool "search"

  # 「需要重新登录时，宿主在空闲后注销并重新注册」 (A-02)
  @LA-OAU-37
  Scenario: with a dead refresh token no run logs in; the host's unregister and register do
    Given the authorization server "as" refuses refresh tokens
    And the host binds "docs" to OAuth with the provider "p" of "as"
    And the provider "p" holds valid tokens of "as" for "docs"
    And the model calls "mcp__docs__search" with {}
    When the host creates the agent
    And the host registers "docs"
    And the protected server "docs" answers 401 to the next 5 requests with a valid token
    And the host sends "go"
    And the host sends "again"
    Then the host's authorize() was never called
    When the host waits until the agent is idle
    And the host unregisters "docs"
    And the protected server "docs" stops refusing valid tokens
    And the access token the provider "p" holds expires
    And the host registers "docs"
    Then it succeeds
    And the host's authorize() was called 1 time

  # 「认证成功后，仅由官方传输重试被 401 拒绝的请求，不重放结果未知的工具调用」 (A-24)
  @LA-OAU-38
  Scenario: after a 401 and a refresh the refused request is sent exactly once more
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the model calls "mcp__docs__search" with {}
    When the host creates the agent
    And the host registers "docs"
    And the protected server "docs" answers 401 to the next 1 request with a valid token
    And the host sends "go"
    Then it succeeds
    And "docs" received the refused call of the tool "search" exactly once more

  # The refusal is for the next tools/call: the timed-out call's
  # notifications/cancelled may reach the server after it is armed, and a
  # 401 to that notification would leave the call it is about unrefused.
  @LA-OAU-38 @adapter-lacks:clock
  Scenario: a call that timed out is not sent again after a refresh
    Given the tool "search" of "docs" never answers
    And the host binds "docs" to OAuth with the provider "p" of "as"
    And the model calls "mcp__docs__search" with {}
    When the host creates the agent
    And the host registers "docs" with timeoutMs 2000
    And the host sends "go"
    And the protected server "docs" answers 401 to the next 1 "tools/call" request
    And the model calls "mcp__docs__fetch" with {}
    And the host sends "again"
    Then it succeeds
    And "as" received 1 "refresh_token" grant
    And "docs" received 1 call of the tool "search"
    And the model received a tool result containing "ok"

  # The same on the agent's clock, for an adapter that has it.
  @LA-OAU-38 @adapter:clock
  Scenario: a call that timed out on the agent's clock is not sent again after a refresh
    Given the tool "search" of "docs" never answers
    And the host binds "docs" to OAuth with the provider "p" of "as"
    And the model calls "mcp__docs__search" with {}
    And the agent's clock is under the host's control
    When the host creates the agent
    And the host registers "docs" with timeoutMs 2000
    And the host sends "go" in the background
    And "docs" receives a call of the tool "search"
    And the clock advances 2000 milliseconds
    Then the background operation ends
    When the protected server "docs" answers 401 to the next 1 "tools/call" request
    And the model calls "mcp__docs__fetch" with {}
    And the host sends "again"
    Then it succeeds
    And "as" received 1 "refresh_token" grant
    And "docs" received 1 call of the tool "search"
    And the model received a tool result containing "ok"
