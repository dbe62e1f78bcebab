@lite-agent
Feature: Remote URLs, headers and redirects (LA-NET)
  「远程 URL 必须 HTTPS，回环 localhost / 127.0.0.1 / [::1] 可用 HTTP；拒绝 URL 用户凭证、片段、
  保留协议请求头和重定向。」

  # 「远程 URL 必须 HTTPS」
  @LA-NET-01
  Scenario: an HTTPS server is used, trusted through the scenario's CA
    Given an HTTPS MCP server "s" with tools "search"
    And the model calls "mcp__s__search" with {}
    When "s" is declared as "s" through register()
    Then it succeeds
    When the host sends "go"
    Then "s" received a call of the tool "search"

  @LA-NET-01
  Scenario Outline: a URL that is neither https nor loopback http is refused (<url>)
    When the entry {"type": "http", "url": "<url>"} is declared as "web" through register()
    Then it fails with a "security" error
    And list() is unchanged

    Examples:
      | url                      |
      | http://mcp.test/mcp      |
      | ws://mcp.test/mcp        |
      | wss://mcp.test/mcp       |
      | file:///srv/mcp          |
      | ftp://mcp.test/mcp       |
      | https:///mcp             |

  # 「回环 localhost / 127.0.0.1 / [::1] 可用 HTTP」; a host name in any letter
  # case (interpretation A-13)
  @LA-NET-02
  Scenario Outline: plain http to a loopback host is allowed (<host>)
    Given an HTTP MCP server "h" with tools "search"
    When "h" is declared as "h" through register() at the host "<host>"
    Then it succeeds
    And "h" was connected

    Examples:
      | host      |
      | localhost |
      | 127.0.0.1 |
      | [::1]     |
      | LOCALHOST |
      | LocalHost |

  @LA-NET-03
  Scenario Outline: plain http to any other host is refused, look-alikes included (<url>)
    When the entry {"type": "http", "url": "<url>"} is declared as "web" through register()
    Then it fails with a "security" error

    Examples:
      | url                              |
      | http://localhost.evil.test/mcp   |
      | http://LOCALHOST.evil.test/mcp   |
      | http://Iocalhost/mcp             |
      | http://127.0.0.1.nip.io/mcp      |
      | http://10.0.0.1/mcp              |
      | http://0.0.0.0/mcp               |

  # Other loopback spellings are refused too (interpretation A-13).
  @LA-NET-03 @ambiguous:A-13
  Scenario Outline: other spellings of loopback are refused (<url>)
    When the entry {"type": "http", "url": "<url>"} is declared as "web" through register()
    Then it fails with a "security" error

    Examples:
      | url                              |
      | http://127.0.0.2/mcp             |
      | http://[::ffff:127.0.0.1]/mcp    |
      | http://localhost./mcp            |

  # 「拒绝 URL 用户凭证」
  @LA-NET-04
  Scenario Outline: a URL with user credentials is refused before any request (<userinfo>)
    Given an HTTP MCP server "h" with tools "search"
    When the entry {"type": "http", "url": "http://<userinfo>@{{hostport "h"}}/mcp/h"} is declared as "h" through <source>
    Then it fails with a "security" error
    And "h" was never contacted

    Examples:
      | userinfo | source                    |
      | u:p      | register()                |
      | u        | register()                |
      | u:p      | the project configuration |

  # 「片段」
  @LA-NET-05
  Scenario Outline: a URL with a fragment is refused before any request (<fragment>)
    Given an HTTP MCP server "h" with tools "search"
    When the entry {"type": "http", "url": "{{url "h"}}<fragment>"} is declared as "h" through register()
    Then it fails with a "security" error
    And "h" was never contacted

    Examples:
      | fragment |
      | #x       |
      | #        |

  # 「保留协议请求头」, in any letter case (interpretation A-12)
  @LA-NET-06
  Scenario Outline: a header of the MCP transport cannot be configured (<header>)
    Given an HTTP MCP server "h" with tools "search"
    When the entry {"type": "http", "url": "{{url "h"}}", "headers": {"<header>": "x"}} is declared as "h" through register()
    Then it fails with a "security" error
    And "h" was never contacted

    Examples:
      | header               |
      | Mcp-Session-Id       |
      | mcp-session-id       |
      | MCP-SESSION-ID       |
      | mCP-sESSION-iD       |
      | MCP-Protocol-Version |
      | mcp-protocol-version |
      | Mcp-Protocol-Version |
      | MCP-PROTOCOL-VERSION |
      | mcP-pROTOCOl-vERSIOn |

  # 「拒绝……重定向」
  @LA-NET-07
  Scenario Outline: a redirect on connecting is refused, never followed (<status>)
    Given an HTTP MCP server "elsewhere" with tools "search"
    And an HTTP MCP server "h" with tools "search" that redirects "server/discover" with <status> to "elsewhere"
    When "h" is declared as "h" through register()
    Then it fails with a "security" error
    And "elsewhere" was never contacted
    And list() is unchanged

    Examples:
      | status |
      | 301    |
      | 302    |
      | 303    |
      | 307    |
      | 308    |

  @LA-NET-07
  Scenario Outline: a redirect on a tool call is refused, never followed (<status>)
    Given an HTTP MCP server "elsewhere" with tools "search"
    And an HTTP MCP server "h" with tools "search" that redirects "tools/call" with <status> to "elsewhere"
    And the mcpServers option declares "h"
    And the model calls "mcp__h__search" with {}
    When the host creates the agent
    And the host sends "go"
    Then the model received a tool error
    And "elsewhere" was never contacted

    Examples:
      | status |
      | 302    |
      | 307    |
