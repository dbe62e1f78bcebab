@lite-agent
Feature: Progress events and tool hooks for MCP tools (LA-EVT)
  「tool_progress 事件包含 id、name、progress、可选 total / message，通过 run() 或 subscribe() 实时接收。
  现有 tool:start / tool:end Hook 同样覆盖 MCP 工具。」

  # 「tool_progress 事件包含 id、name、progress、可选 total / message」 (interpretation A-32: id is the tool call's)
  @LA-EVT-01
  Scenario: MCP progress becomes tool_progress events with the call's id and the full tool name
    Given a stdio MCP server "docs" with tools "search"
    And the tool "search" of "docs" reports progress 1 of 3 "step", then 2
    And the mcpServers option declares "docs"
    And the model calls "mcp__docs__search" with {"q":"x"}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And "docs" received a progress token with its call of the tool "search"
    And the agent emitted a tool_progress event for the call of "mcp__docs__search" with progress 1, total 3 and message "step"
    And the agent emitted a tool_progress event for the call of "mcp__docs__search" with progress 2 and no total or message

  @LA-EVT-01
  Scenario: progress over Streamable HTTP becomes tool_progress events too
    Given an HTTP MCP server "docs" with tools "search"
    And the tool "search" of "docs" reports progress 5 of 10 "half"
    And the mcpServers option declares "docs"
    And the model calls "mcp__docs__search" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the agent emitted a tool_progress event for the call of "mcp__docs__search" with progress 5, total 10 and message "half"

  # 「通过 run() 或 subscribe() 实时接收」
  @LA-EVT-02
  Scenario Outline: progress reaches <via> while the call is still running
    Given a stdio MCP server "docs" with tools "search"
    And the tool "search" of "docs" reports progress 1 of 2 "half", then waits for the latch "finish"
    And the mcpServers option declares "docs"
    And the model calls "mcp__docs__search" with {}
    When the host creates the agent
    And the host <how> "go" in the background
    Then a tool_progress event for "mcp__docs__search" arrives through <via> while the call is still running
    When the latch "finish" is released
    Then the background operation ends

    Examples:
      | via         | how   |
      | run()       | runs  |
      | subscribe() | runs  |
      | subscribe() | sends |

  # The seed does not say; each notification becomes one event in each
  # sink, none repeated, merged or lost (interpretation A-40).
  @LA-EVT-01 @LA-EVT-02 @ambiguous:A-40
  Scenario Outline: each progress notification becomes exactly one tool_progress event per sink (<a transport> server, <how>)
    Given <a transport> MCP server "docs" with tools "search"
    And the tool "search" of "docs" reports progress 1 of 4 "one", then 2 of 4 "two", then 3, then 4 of 4 "four"
    And the mcpServers option declares "docs"
    And the model calls "mcp__docs__search" with {}
    When the host creates the agent
    And the host <how> "go" in the background
    Then the background operation ends
    And each progress notification "docs" sent became exactly one tool_progress event for "mcp__docs__search" <sinks>, in the order sent

    Examples:
      | a transport | how   | sinks                                 |
      | a stdio     | runs  | through run() and through subscribe() |
      | an HTTP     | runs  | through run() and through subscribe() |
      | a stdio     | sends | through subscribe()                   |

  # 「现有 tool:start……Hook 同样覆盖 MCP 工具」
  @LA-EVT-03
  Scenario: tool:start fires for an MCP tool, with its input, before the server is called
    Given a stdio MCP server "docs" with tools "search"
    And the mcpServers option declares "docs"
    And the model calls "mcp__docs__search" with {"q":"x"}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the "tool:start" hook was called for "mcp__docs__search" with {"q":"x"}
    And these happened in this order:
      | the "tool:start" hook was called for "mcp__docs__search" |
      | "docs" received its last "tools/call"                    |
      | the "tool:end" hook was called for "mcp__docs__search"   |

  # 「现有……tool:end Hook 同样覆盖 MCP 工具」, whatever the outcome
  @LA-EVT-04
  Scenario Outline: tool:end fires for an MCP call that ends in <outcome>
    Given a stdio MCP server "docs" with tools "search"
    And the tool "search" of "docs" <behaviour>
    And the mcpServers option contains:
      """
      { "docs": { "command": {{command}}, "args": {{args "docs"}}, "timeoutMs": 2000 } }
      """
    And <setup>
    And the model calls "mcp__docs__search" with <args>
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the "tool:end" hook was called for "mcp__docs__search"
    And the model received <result>

    Examples:
      | outcome    | behaviour                                              | setup                                                  | args     | result                          |
      | success    | answers with the text "found"                          | the approval handler allows everything                 | {}       | a tool result containing "found" |
      | isError    | answers with the error "boom"                          | the approval handler allows everything                 | {}       | a tool error containing "boom"  |
      | invalid    | has the input schema {"type":"object","required":["q"]} | the approval handler allows everything                 | {}       | a tool error                    |
      | a denial   | answers with the text "found"                          | the approval handler denies "mcp__docs__search"        | {}       | a tool error                    |

    @adapter-lacks:clock
    Examples: in real time
      | outcome    | behaviour                                              | setup                                                  | args     | result                          |
      | a timeout  | never answers                                          | the approval handler allows everything                 | {}       | a tool error                    |

  @LA-EVT-04 @adapter:clock
  Scenario: tool:end fires for an MCP call that ends in a timeout on the agent's clock
    Given a stdio MCP server "docs" with tools "search"
    And the tool "search" of "docs" never answers
    And the mcpServers option contains:
      """
      { "docs": { "command": {{command}}, "args": {{args "docs"}}, "timeoutMs": 2000 } }
      """
    And the approval handler allows everything
    And the model calls "mcp__docs__search" with {}
    And the agent's clock is under the host's control
    When the host creates the agent
    And the host sends "go" in the background
    And "docs" receives a call of the tool "search"
    And the clock advances 2000 milliseconds
    Then the background operation ends
    And it succeeds
    And the "tool:end" hook was called for "mcp__docs__search"
    And the model received a tool error
