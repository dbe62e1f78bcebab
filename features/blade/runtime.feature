@blade
Feature: Blade runtime management API (BL-RT)
  「Session 提供了完整的 MCP 运行时管理 API」 — mcpServerStatus, mcpConnect,
  mcpDisconnect, mcpReconnect and mcpListTools, called while the session is
  idle (interpretation X-13).

  # 「查看服务器状态」 (interpretation B-08: a failing server does not fail the session)
  @BL-RT-01
  Scenario: mcpServerStatus() has one entry per configured server
    Given a stdio MCP server "ok" with tools "search"
    And a stdio MCP server "off" with tools "fetch"
    And the mcpServers option declares "ok"
    And the mcpServers option declares "off" with {"disabled": true}
    And the mcpServers option declares a stdio server "broken" running "mcpconform-no-such-command"
    When the host creates the session
    Then it succeeds
    And mcpServerStatus() shows exactly the servers "ok, off, broken"

  # 「status: 'connected' | 'disconnected' | 'connecting' | 'error'」
  @BL-RT-02
  Scenario: every status entry has Blade's shape in every state
    Given a stdio MCP server "ok" with tools "a, b"
    And a stdio MCP server "off" with tools "c"
    And a stdio MCP server "slow" with tools "d" that waits for the latch "discover" before answering "server/discover"
    And the mcpServers option declares "ok"
    And the mcpServers option declares "off" with {"disabled": true}
    And the mcpServers option declares "slow" with {"disabled": true}
    And the mcpServers option declares a stdio server "broken" running "mcpconform-no-such-command"
    When the host creates the session
    And the host calls mcpConnect("slow") in the background
    Then mcpServerStatus() shows "slow" as "connecting" while the background operation runs
    When the latch "discover" is released
    Then the background operation ends
    And mcpServerStatus() shows "ok" as "connected" with 2 tools
    And mcpServerStatus() shows "off" as "disconnected" with 0 tools
    And mcpServerStatus() shows "broken" as "error"
    And every mcpServerStatus() entry seen had Blade's shape

  # 「toolCount」「tools?」「connectedAt?」
  @BL-RT-03
  Scenario: a connected server reports its tool count, its tools and when it connected
    Given a stdio MCP server "p" with tools "a, b, c"
    And the mcpServers option declares "p"
    When the host creates the session
    Then mcpServerStatus() shows "p" as "connected" with 3 tools
    And every mcpServerStatus() entry seen had Blade's shape

  # 「error?: string」
  @BL-RT-04
  Scenario Outline: a server that fails reports status error with a message (<how>)
    Given a stdio MCP server "crash" that exits on "server/discover"
    And <declaration>
    When the host creates the session
    Then it succeeds
    And mcpServerStatus() shows "<name>" as "error"

    Examples:
      | how                           | name   | declaration                                                                            |
      | its command does not exist    | broken | the mcpServers option declares a stdio server "broken" running "mcpconform-no-such-command" |
      | it exits at start-up          | crash  | the mcpServers option declares "crash"                                                 |

  # 'connecting' while a connection is in progress (inferred)
  @BL-RT-05
  Scenario: a server reports connecting while mcpConnect is in progress
    Given a stdio MCP server "slow" with tools "search" that waits for the latch "discover" before answering "server/discover"
    And the mcpServers option declares "slow" with {"disabled": true}
    When the host creates the session
    And the host calls mcpConnect("slow") in the background
    Then mcpServerStatus() shows "slow" as "connecting" while the background operation runs
    When the latch "discover" is released
    Then the background operation ends
    And mcpServerStatus() shows "slow" as "connected" with 1 tool

  # 「await session.mcpConnect('github');」
  @BL-RT-06
  Scenario: mcpConnect connects a disconnected server
    Given a stdio MCP server "github" with tools "create_issue"
    And the mcpServers option declares "github" with {"disabled": true}
    When the host creates the session
    And the host calls mcpConnect("github")
    Then it succeeds
    And "github" received its handshake 1 time
    And mcpServerStatus() shows "github" as "connected" with 1 tool

  # 「await session.mcpDisconnect('github');」「用完断开」
  @BL-RT-07
  Scenario: mcpDisconnect disconnects the server, ends its process and withdraws its tools
    Given a stdio MCP server "github" with tools "create_issue"
    And a stdio MCP server "fs" with tools "read_file"
    And the mcpServers option declares "github"
    And the mcpServers option declares "fs"
    When the host creates the session
    And the host calls mcpDisconnect("github")
    Then it succeeds
    And every process of "github" has exited
    And mcpServerStatus() shows "github" as "disconnected" with 0 tools
    And mcpListTools() lists exactly the tools of "fs"

  @BL-RT-07
  Scenario: after mcpDisconnect the model is no longer offered the server's tools
    Given a stdio MCP server "github" with tools "create_issue"
    And a stdio MCP server "fs" with tools "read_file"
    And the mcpServers option declares "github"
    And the mcpServers option declares "fs"
    When the host creates the session
    And the host calls mcpDisconnect("github")
    And the host sends "go"
    Then it succeeds
    And the model was offered exactly the MCP tools "mcp__fs__read_file"

  # 「await session.mcpReconnect('github');」
  @BL-RT-08
  Scenario: mcpReconnect replaces a connected server's connection
    Given a stdio MCP server "github" with tools "create_issue"
    And the mcpServers option declares "github"
    When the host creates the session
    And mcpServerStatus() shows "github" as "connected" with 1 tool
    And the host calls mcpReconnect("github")
    Then it succeeds
    And "github" was started 2 times
    And the first process of "github" had exited when that returned
    And mcpServerStatus() shows "github" as "connected" with 1 tool
    And the connectedAt of "github" is later than before

  # 「interface McpToolInfo { name; description; serverName }」 (interpretation B-12: raw or exposed name)
  @BL-RT-09
  Scenario: mcpListTools() entries carry the name, description and server of each tool
    Given a stdio MCP server "p" with the tool "search" described as "finds things"
    And the mcpServers option declares "p"
    When the host creates the session
    Then mcpListTools() lists "search" of "p" described as "finds things"

  # 「列出所有可用 MCP 工具」: the tools of connected servers, and only those
  @BL-RT-10
  Scenario: mcpListTools() lists the tools of every connected server and only those
    Given a stdio MCP server "a" with tools "one, two"
    And a stdio MCP server "b" with tools "three"
    And a stdio MCP server "c" with tools "four"
    And the mcpServers option declares "a"
    And the mcpServers option declares "b"
    And the mcpServers option declares "c"
    When the host creates the session
    And the host calls mcpDisconnect("c")
    Then mcpListTools() lists exactly the tools of "a, b"
