@lite-agent
Feature: Hard limits (LA-LIM)
  「上限：32 台服务器、每台 128 个工具、16 页发现结果、512 KiB 工具目录、256 KiB 配置文件……
  超限明确失败。」 Every limit fails explicitly: no truncation, no partial acceptance.

  # 「32 台服务器」 (interpretation A-11: every registry entry counts)
  @LA-LIM-01
  Scenario: 32 servers fit; a 33rd registration is refused
    Given HTTP MCP servers "s1" to "s33" with tools "t"
    And the mcpServers option declares "s1" to "s16"
    And the project configuration declares "s17" to "s32"
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And list() shows 32 servers
    When the host registers "s33"
    Then it fails with a "limit" error
    And list() is unchanged
    And "s33" was never contacted

  @LA-LIM-01 @LA-LIM-09
  Scenario: 33 servers in the configuration fail construction
    Given HTTP MCP servers "s1" to "s33" with tools "t"
    And the mcpServers option declares "s1" to "s20"
    And the project configuration declares "s21" to "s33"
    When the host creates the agent
    Then it fails with a "limit" error
    And "s1" was never contacted

  # 「每台 128 个工具」
  @LA-LIM-02 @LA-LIM-09
  Scenario Outline: a server may offer 128 tools, not 129 (<count>)
    Given a stdio MCP server "p" with <count> tools
    When "p" is declared as "many" through register()
    Then it <outcome>
    And list() shows <listed> servers

    Examples:
      | count | outcome                    | listed |
      | 128   | succeeds                   | 1      |
      | 129   | fails with a "limit" error | 0      |

  @LA-LIM-02
  Scenario: all 128 tools are offered to the model
    Given a stdio MCP server "p" with 128 tools
    And the mcpServers option declares "p"
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And the model was offered 128 MCP tools

  @LA-LIM-02 @LA-LIM-09
  Scenario: a configured server with 129 tools offers none of them
    Given a stdio MCP server "p" with 129 tools
    And a stdio MCP server "q" with tools "fine"
    And the mcpServers option declares "p"
    And the mcpServers option declares "q"
    When the host creates the agent
    And the host sends "hello"
    Then "p" is reported failed
    And the model was never offered any "mcp__p__*" tool
    And "q" was connected

  # 「16 页发现结果」
  @LA-LIM-03
  Scenario: 16 pages of tools are read
    Given a stdio MCP server "p" with 16 tools served 1 per page
    When "p" is declared as "paged" through register()
    Then it succeeds
    And "p" received "tools/list" 16 times
    And list() shows "paged" with 16 tools

  @LA-LIM-03 @LA-LIM-09
  Scenario Outline: a 17th page is never asked for and the server fails (<case>)
    Given a stdio MCP server "p" <tools>
    When "p" is declared as "paged" through register()
    Then it fails with a "limit" error
    And "p" received "tools/list" at most 16 times
    And list() is unchanged
    And every process of "p" has exited

    Examples:
      | case                      | tools                                            |
      | 17 pages                  | with 17 tools served 1 per page                  |
      | a cursor that never ends  | with 1 tool served 1 per page and a cursor that never ends |

  # 「512 KiB 工具目录」 (interpretation A-10: margins, not the exact byte)
  @LA-LIM-04 @LA-LIM-09
  Scenario Outline: the tool catalog is at most 512 KiB (<count> tools of <bytes> bytes)
    Given a stdio MCP server "p" with <count> tools described in <bytes> bytes each
    When "p" is declared as "big" through register()
    Then it <outcome>
    And <evidence>

    Examples:
      | count | bytes | outcome                    | evidence                            |
      | 100   | 4096  | succeeds                   | list() shows "big" with 100 tools   |
      | 120   | 5120  | fails with a "limit" error | list() shows exactly the servers "" |

  # 「256 KiB 配置文件」
  @LA-LIM-05 @LA-LIM-09
  Scenario Outline: a configuration file of 256 KiB is read (<file>, 262144 bytes)
    Given a stdio MCP server "p" with tools "a"
    And the <file> declares "p" padded to 262144 bytes
    When the host creates the agent
    Then it succeeds
    And "p" was never contacted
    When the host sends "hi"
    Then "p" was connected
    And the model was offered exactly the MCP tools "mcp__p__a"

    Examples:
      | file                  |
      | project configuration |
      | global configuration  |

  # 「256 KiB 配置文件」
  @LA-LIM-05 @LA-LIM-09
  Scenario Outline: a configuration file is at most 256 KiB (<file>, 262145 bytes)
    Given a stdio MCP server "p" with tools "a"
    And the <file> declares "p" padded to 262145 bytes
    When the host creates the agent
    Then it fails with a "limit" error
    And "p" was never contacted

    Examples:
      | file                  |
      | project configuration |
      | global configuration  |

  # 「4 MiB stdio 消息」 (interpretation A-10: the newline is not counted)
  @LA-LIM-06 @LA-LIM-09
  Scenario: a stdio message just under 4 MiB is taken whole
    Given a stdio MCP server "p" with tools "big"
    And the tool "big" of "p" answers with a message of 4194240 bytes
    And the mcpServers option declares "p"
    And the model calls "mcp__p__big" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received a tool result of at least 4090 KiB

  @LA-LIM-06 @LA-LIM-09
  Scenario: a stdio message over 4 MiB fails the call at once, not by timeout
    Given a stdio MCP server "p" with tools "big"
    And the tool "big" of "p" answers with a message of 4194368 bytes
    And the mcpServers option declares "p"
    And the model calls "mcp__p__big" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received a tool error
    And that took less than 10 seconds

  @LA-LIM-06 @boundary-exact
  Scenario Outline: the stdio limit is exactly 4,194,304 bytes (<bytes> bytes)
    Given a stdio MCP server "p" with tools "big"
    And the tool "big" of "p" answers with a message of <bytes> bytes
    And the mcpServers option declares "p"
    And the model calls "mcp__p__big" with {}
    When the host creates the agent
    And the host sends "go"
    Then the model received <result>

    Examples:
      | bytes   | result                         |
      | 4194304 | a tool result of at least 4090 KiB |
      | 4194305 | a tool error                   |

  # 「4 MiB……HTTP 响应」
  @LA-LIM-07 @LA-LIM-09
  Scenario Outline: an HTTP response is at most 4 MiB (<how>, <bytes> bytes)
    Given an HTTP MCP server "h" with tools "big"
    And the tool "big" of "h" answers with <how> of <bytes> bytes
    And the mcpServers option declares "h"
    And the model calls "mcp__h__big" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received <result>

    Examples:
      | how                | bytes   | result                          |
      | a JSON body        | 4194304 | a tool result of at least 4090 KiB |
      | a JSON body        | 4194305 | a tool error                    |
      | one event          | 4194400 | a tool error                    |

  # 「HTTP 字节在协议解析前受限」
  @LA-LIM-10
  Scenario Outline: HTTP bytes are cut off at 4 MiB before parsing (<how>)
    Given an HTTP MCP server "h" with tools "big"
    And the tool "big" of "h" answers with <how>
    And the mcpServers option declares "h"
    And the model calls "mcp__h__big" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received a tool error
    And that took less than 10 seconds
    And "h" wrote at most 5 MiB of its answer to "tools/call" before the client stopped reading

    Examples:
      | how                                         |
      | a body that never ends                      |
      | a body that never ends under Content-Length 10 |

  # 「4 MiB……工具投影」, measured with the adapter's projection (interpretation A-10)
  @LA-LIM-08 @adapter:projection
  Scenario Outline: a tool result's projection is at most 4 MiB (<bytes> bytes)
    When the host creates the agent
    And the host projects a text result whose projection has exactly <bytes> bytes
    Then <outcome>

    Examples:
      | bytes   | outcome                                  |
      | 4194304 | the projection is archived               |
      | 4194305 | the projection is a tool error and is not archived |
