@blade
Feature: Blade OAuth (BL-OAU)
  「远程 MCP 服务器可以使用 OAuth 进行认证」「OAuth 授权码流程只接受 http://localhost:7777/oauth/callback、
  http://127.0.0.1:7777/oauth/callback 或等价的 IPv6 loopback URI。 state 具有 5 分钟 TTL 且只能消费一次；
  不支持把授权码重定向到远程主机。」
  The runner plays the user's browser: the session's browser step (host/authorize) gets the
  authorization URL, the runner consents at the fake authorization server and brings the callback
  to the session's own listener on port 7777 (interpretation B-06). Port 7777 is one per machine:
  every scenario here holds it, and only these wait for each other (spec/blade-oauth.md).

  Background:
    Given the scenario holds the machine's port 7777
    And an authorization server "as"
    And an HTTP MCP server "docs" with tools "search" protected by "as"
    And the adapter maps the OAuth provider "github" to "as"

  # 「oauth: { provider: 'github', clientId: 'your-client-id', enabled: true }」
  @BL-OAU-01 @adapter:oauth-endpoints
  Scenario: an http server with oauth {provider, clientId, enabled: true} logs in and sends its Bearer token
    Given the authorization server "as" has the public client "blade-cli" for Blade's redirect URIs
    And the mcpServers option declares "docs" with {"oauth": {"provider": "github", "clientId": "blade-cli", "enabled": true}}
    And the model calls "mcp__docs__search" with {}
    When the host creates the session
    And the host sends "go"
    Then it succeeds
    And the authorization URL named the client "blade-cli"
    And "as" received 1 "authorization_code" grant with a code_verifier
    And "docs" received a call of the tool "search"
    And every MCP request "docs" received after the login carried a Bearer token

  @BL-OAU-01 @adapter:oauth-endpoints
  Scenario: without a clientId the session registers its client, then logs in
    Given the mcpServers option declares "docs" with {"oauth": {"provider": "github", "enabled": true}}
    When the host creates the session
    Then it succeeds
    And "as" received 1 "register" request
    And "as" received 1 "authorization_code" grant with a code_verifier
    And mcpServerStatus() shows "docs" as "connected" with 1 tool
    And every MCP request "docs" received after the login carried a Bearer token

  # 「enabled?: boolean」 (inferred; B-05)
  @BL-OAU-02 @adapter:oauth-endpoints
  Scenario: oauth with enabled false sends nothing to the authorization server and no Authorization header
    Given the mcpServers option declares "docs" with {"oauth": {"provider": "github", "clientId": "blade-cli", "enabled": false}}
    When the host creates the session
    Then it succeeds
    And mcpServerStatus() shows "docs" as "error"
    And "as" received nothing
    And "docs" never received an Authorization header

  # 「只接受 http://localhost:7777/oauth/callback、http://127.0.0.1:7777/oauth/callback 或等价的 IPv6 loopback URI」 (B-06)
  @BL-OAU-03 @adapter:oauth-endpoints
  Scenario: the login redirects to one of Blade's URIs, whose listener on 7777 takes the callback and is gone afterwards
    Given the mcpServers option declares "docs" with {"oauth": {"provider": "github", "enabled": true}}
    When the host creates the session
    Then it succeeds
    And the authorization URL carried one of Blade's redirect URIs
    And the browser's first callback was accepted
    And mcpServerStatus() shows "docs" as "connected" with 1 tool
    And nothing listens on port 7777 any more

  @BL-OAU-03 @adapter:oauth-endpoints @adapter:oauth-redirect
  Scenario Outline: the redirect URI <uri> completes the login
    Given the session's OAuth redirect URI is "<uri>"
    And the mcpServers option declares "docs" with {"oauth": {"provider": "github", "enabled": true}}
    When the host creates the session
    Then it succeeds
    And the authorization URL carried the redirect_uri "<uri>"
    And the browser's first callback was accepted
    And mcpServerStatus() shows "docs" as "connected" with 1 tool
    And nothing listens on port 7777 any more

    Examples:
      | uri                                   |
      | http://localhost:7777/oauth/callback  |
      | http://127.0.0.1:7777/oauth/callback  |
      | http://[::1]:7777/oauth/callback      |

  # Any other port, path, scheme or host (the override is undocumented: @adapter:oauth-redirect)
  @BL-OAU-04 @adapter:oauth-endpoints @adapter:oauth-redirect
  Scenario Outline: the redirect URI <uri> is refused before the flow starts
    Given the session's OAuth redirect URI is "<uri>"
    And the mcpServers option declares "docs" with {"oauth": {"provider": "github", "enabled": true}}
    When the host creates the session
    Then it fails with a "security" error
    And "as" received nothing
    And "as" never saw the redirect URI "<uri>"

    Examples:
      | uri                                      |
      | http://localhost:7778/oauth/callback     |
      | http://localhost:7777/callback           |
      | https://localhost:7777/oauth/callback    |
      | http://localhost:7777/oauth/callback/x   |

  # 「不支持把授权码重定向到远程主机」
  @BL-OAU-05 @adapter:oauth-endpoints @adapter:oauth-redirect
  Scenario Outline: the remote redirect URI <uri> is refused and never reaches the authorization server
    Given the session's OAuth redirect URI is "<uri>"
    And the mcpServers option declares "docs" with {"oauth": {"provider": "github", "enabled": true}}
    When the host creates the session
    Then it fails with a "security" error
    And "as" received nothing
    And "as" never saw the redirect URI "<uri>"

    Examples:
      | uri                                      |
      | https://app.example.com/oauth/callback   |
      | http://192.168.1.5:7777/oauth/callback   |

  # 「state 具有 5 分钟 TTL」 (B-07: 299 s and 301 s, on the session's clock)
  @BL-OAU-06 @adapter:oauth-endpoints @adapter:clock
  Scenario: a callback 299 seconds after the login began is accepted and exchanged
    Given the agent's clock is under the host's control
    And the mcpServers option declares "docs" with {"oauth": {"provider": "github", "enabled": true}, "disabled": true}
    And the browser holds the callback
    When the host creates the session
    And the host calls mcpConnect("docs") in the background
    And the browser holds the callback of the login
    And the clock advances 299 seconds
    And the browser delivers the held callback
    Then the browser's first callback was accepted
    And the background operation ends
    And it succeeds
    And "as" received 1 "authorization_code" grant
    And mcpServerStatus() shows "docs" as "connected" with 1 tool

  @BL-OAU-06 @adapter:oauth-endpoints @adapter:clock
  Scenario: a callback 301 seconds after the login began is refused and never exchanged
    Given the agent's clock is under the host's control
    And the mcpServers option declares "docs" with {"oauth": {"provider": "github", "enabled": true}, "disabled": true}
    And the browser holds the callback
    When the host creates the session
    And the host calls mcpConnect("docs") in the background
    And the browser holds the callback of the login
    And the clock advances 301 seconds
    And the browser delivers the held callback
    Then the browser's first callback was refused
    And the background operation ends with a "security" error
    And "as" received no "authorization_code" grant
    And mcpServerStatus() shows "docs" as "error"

  # 「只能消费一次」
  @BL-OAU-07 @adapter:oauth-endpoints
  Scenario: the same callback delivered twice is exchanged once, and refused the second time
    Given the mcpServers option declares "docs" with {"oauth": {"provider": "github", "enabled": true}}
    And the browser delivers the callback twice
    When the host creates the session
    Then it succeeds
    And the browser's first callback was accepted
    And the browser's second callback was refused
    And "as" received 1 "authorization_code" grant
    And mcpServerStatus() shows "docs" as "connected" with 1 tool

  # (inferred) An unknown state is refused.
  @BL-OAU-07 @adapter:oauth-endpoints
  Scenario: a callback with an unknown state is refused, and the login's own still completes
    Given the mcpServers option declares "docs" with {"oauth": {"provider": "github", "enabled": true}}
    And the browser first delivers the callback with an unknown state
    When the host creates the session
    Then it succeeds
    And the browser's first callback was refused
    And the browser's second callback was accepted
    And "as" received 1 "authorization_code" grant
    And mcpServerStatus() shows "docs" as "connected" with 1 tool
