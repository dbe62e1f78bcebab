@lite-agent
Feature: Machine credentials (LA-CC)
  「无用户登录的服务可直接使用官方 provider……在上面的 mcpOAuth.docs 中使用该 provider，省略 authorize。
  expectedIssuer 绑定客户端凭证的签发方。」

  Background:
    Given an authorization server "as" with the client "la-machine" and the secret "la-secret-c0ffee"
    And an HTTP MCP server "docs" with tools "search" protected by "as"

  # 「无用户登录的服务可直接使用官方 provider」
  @LA-CC-01
  Scenario: the client-credentials provider gets a token with no authorize()
    Given the host binds "docs" to the client credentials "la-machine" and "la-secret-c0ffee" of "as"
    And the mcpServers option declares "docs"
    And the model calls "mcp__docs__search" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And "as" received 1 "client_credentials" grant
    And every MCP request "docs" received after the login carried a Bearer token
    And every authorization and token request for "docs" named the resource "/mcp/docs"
    And the model received a tool result containing "ok"

  # The official ClientCredentialsProvider's client authenticates as selectClientAuthMethod says:
  # HTTP Basic when the server supports it, else the secret in the form (A-39).
  @LA-CC-01
  Scenario Outline: the client credentials authenticate as the server supports: <used>
    Given the authorization server "as" supports only the client authentication "<methods>"
    And the host binds "docs" to the client credentials "la-machine" and "la-secret-c0ffee" of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And "as" received the "client_credentials" grant authenticated with "<used>"

    Examples:
      | methods                                       | used                |
      | none, client_secret_basic, client_secret_post | client_secret_basic |
      | client_secret_post                            | client_secret_post  |

  # 「省略 authorize」 (A-28)
  @LA-CC-02
  Scenario: the client-credentials flow has no interactive step
    Given the host binds "docs" to the client credentials "la-machine" and "la-secret-c0ffee" of "as"
    When the host creates the agent
    And the host registers "docs"
    Then it succeeds
    And "as" received 1 "token" request
    And every MCP request "docs" received after the login carried a Bearer token
    And "as" received no "authorize" request
    And the host's authorize() was never called

  @LA-CC-02
  Scenario: an interactive provider without authorize() fails fast
    Given the host binds "docs" to OAuth with the provider "p" of "as"
    And the binding of "docs" has no authorize()
    When the host creates the agent
    Then it fails with a "config" error
    And "as" received nothing

  # 「expectedIssuer 绑定客户端凭证的签发方」
  @LA-CC-03
  Scenario: an issuer other than expectedIssuer never receives the secret
    Given the host binds "docs" to the client credentials "la-machine" and "la-secret-c0ffee" of "as"
    And the binding of "docs" expects the issuer "https://login.la-test.invalid"
    When the host creates the agent
    And the host registers "docs"
    Then it fails with a "security" error
    And "as" received no "token" request
    And no request "as" received carried "la-secret-c0ffee"

  # 「allowedOrigins 明确允许……token 来源；所有目标遵守 HTTPS/回环 HTTP 规则并拒绝重定向」 (inferred)
  @LA-CC-04
  Scenario Outline: a token endpoint <how> fails the flow before the secret reaches it
    Given the authorization server "as" <fault>
    And the host binds "docs" to the client credentials "la-machine" and "la-secret-c0ffee" of "as"
    And the binding of "docs" <origins>
    When the host creates the agent
    And the host registers "docs"
    Then it fails with a "security" error
    And no request reached the other origin of "as"
    And <check>

    Examples:
      | how                        | fault                                                   | origins                              | check                                                                           |
      | on an unlisted origin      | serves its token endpoint on its other origin           | allows no other origin               | no request "as" received carried "la-secret-c0ffee"                             |
      | on non-loopback plain HTTP | lists its token endpoint on plain HTTP to a remote host | allows no other origin               | no request "as" received carried "la-secret-c0ffee"                             |
      | answering a redirect       | redirects its token endpoint to its other origin        | also allows the other origin of "as" | no request "as" received carried "la-secret-c0ffee" but at its token endpoint   |
