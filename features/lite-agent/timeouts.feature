@lite-agent
Feature: Timeouts, cancellation and no replay (LA-TMO)
  「连接和调用默认超时 30 秒，可设置 timeoutMs（1–300000 毫秒）。取消使用现有 AbortSignal。
  断线、超时和取消可能意味着执行结果未知，SDK 不自动重放有副作用的调用。」

  # 「连接……默认超时 30 秒」, on the implementation's manual clock. Still
  # connecting at 29 s is shown by an answer released then, not by a wait
  # for an end that must not come: one that gave up earlier fails at once.
  @LA-TMO-01 @adapter:clock
  Scenario: connecting does not give up before 30 seconds by default
    Given a stdio MCP server "p" with tools "a" that waits for the latch "discover" before answering "server/discover"
    And the agent's clock is under the host's control
    When the host creates the agent
    And the host registers "p" in the background
    And "p" receives its handshake
    And the clock advances 29 seconds
    And the latch "discover" is released
    Then the background operation ends
    And it succeeds
    And "p" was connected
    And list() shows "p" with exactly the tools "mcp__p__a"

  @LA-TMO-01 @adapter:clock
  Scenario: connecting gives up at 30 seconds by default
    Given a stdio MCP server "p" that never answers "server/discover"
    And the agent's clock is under the host's control
    When the host creates the agent
    And the host registers "p" in the background
    And "p" receives its handshake
    And the clock advances 30 seconds
    Then the background operation ends with a "timeout" error
    And every process of "p" has exited

  # 「调用默认超时 30 秒」
  @LA-TMO-02 @adapter:clock
  Scenario: a call does not give up before 30 seconds by default
    Given a stdio MCP server "p" with tools "slow"
    And the tool "slow" of "p" answers with the text "late, not lost"
    And the tool "slow" of "p" waits for the latch "answer"
    And the mcpServers option declares "p"
    And the model calls "mcp__p__slow" with {}
    And the agent's clock is under the host's control
    When the host creates the agent
    And the host sends "go" in the background
    And "p" receives a call of the tool "slow"
    And the clock advances 29 seconds
    And the latch "answer" is released
    Then the background operation ends
    And the model received a tool result containing "late, not lost"

  @LA-TMO-02 @adapter:clock
  Scenario: a call gives up at 30 seconds by default
    Given a stdio MCP server "p" with tools "slow"
    And the tool "slow" of "p" never answers
    And the mcpServers option declares "p"
    And the model calls "mcp__p__slow" with {}
    And the agent's clock is under the host's control
    When the host creates the agent
    And the host sends "go" in the background
    And "p" receives a call of the tool "slow"
    And the clock advances 30 seconds
    Then the background operation ends
    And the model received a tool error

  # 「可设置 timeoutMs（1–300000 毫秒）」 (interpretation A-14: integers only)
  @LA-TMO-03
  Scenario: timeoutMs 300000, the largest, is accepted
    Given a stdio MCP server "p" with tools "a"
    And the mcpServers option contains:
      """
      { "p": { "command": {{command}}, "args": {{args "p"}}, "timeoutMs": 300000 } }
      """
    When the host creates the agent
    Then it succeeds
    When the host sends "hi"
    Then "p" was connected
    And the model was offered exactly the MCP tools "mcp__p__a"

  # The clock stands still, so that a 1 ms deadline cannot pass while the
  # connection is made: what is shown is that the value is accepted.
  @LA-TMO-03 @adapter:clock
  Scenario: timeoutMs 1, the smallest, is accepted
    Given a stdio MCP server "p" with tools "a"
    And the mcpServers option contains:
      """
      { "p": { "command": {{command}}, "args": {{args "p"}}, "timeoutMs": 1 } }
      """
    And the agent's clock is under the host's control
    When the host creates the agent
    Then it succeeds
    When the host sends "hi"
    Then "p" was connected
    And the model was offered exactly the MCP tools "mcp__p__a"

  @LA-TMO-03
  Scenario Outline: timeoutMs takes whole milliseconds from 1 to 300000 (<value>)
    Given a stdio MCP server "p" with tools "a"
    And the mcpServers option contains:
      """
      { "p": { "command": {{command}}, "args": {{args "p"}}, "timeoutMs": <value> } }
      """
    When the host creates the agent
    Then it <outcome>
    And "p" was never contacted

    Examples:
      | value    | outcome                     |
      | 0        | fails with a "config" error |
      | -1       | fails with a "config" error |
      | 300001   | fails with a "config" error |
      | "1000"   | fails with a "config" error |
      | 1.5      | fails with a "config" error |
      | null     | fails with a "config" error |

  @LA-TMO-03
  Scenario Outline: register() checks timeoutMs the same way (<value>)
    Given a stdio MCP server "p" with tools "a"
    When the entry {"command": {{command}}, "args": {{args "p"}}, "timeoutMs": <value>} is declared as "p" through register()
    Then it <outcome>
    And <evidence>

    Examples:
      | value  | outcome                     | evidence                 |
      | 300000 | succeeds                    | "p" was connected        |
      | 0      | fails with a "config" error | "p" was never contacted  |
      | 300001 | fails with a "config" error | "p" was never contacted  |
      | "1000" | fails with a "config" error | "p" was never contacted  |

  # timeoutMs applies to connecting and to calls, in real time: the
  # real-time counterparts of the clock-driven 30 s scenarios above.
  @LA-TMO-04 @LA-TMO-01
  Scenario: timeoutMs bounds connecting
    Given a stdio MCP server "p" with tools "a" that answers "server/discover" after 3000 ms
    When the host creates the agent
    And the host registers "p" with timeoutMs 300
    Then it fails with a "timeout" error
    And that took less than 2 seconds
    And list() is unchanged

  @LA-TMO-04 @LA-TMO-02
  Scenario Outline: timeoutMs bounds each call (answer after <delay> ms)
    Given a stdio MCP server "p" with tools "slow"
    And the tool "slow" of "p" answers after <delay> ms
    And the model calls "mcp__search__slow" with {}
    When the host creates the agent
    And the host registers "p" as "search" with timeoutMs 2000
    And the host sends "go"
    Then it succeeds
    And the model received <result>

    Examples:
      | delay | result                     |
      | 50    | a tool result containing "ok" |

    # In real time only for an adapter without the clock; the reference's
    # runs take the clock-driven scenario below.
    @adapter-lacks:clock
    Examples: in real time
      | delay | result                     |
      | 6000  | a tool error               |

  # The call's timeoutMs on the agent's clock: still running 1 ms before
  # it, a tool error at it.
  @LA-TMO-04 @LA-TMO-02 @adapter:clock
  Scenario: timeoutMs bounds each call, on the agent's clock
    Given a stdio MCP server "p" with tools "slow"
    And the tool "slow" of "p" never answers
    And the model calls "mcp__search__slow" with {}
    And the agent's clock is under the host's control
    When the host creates the agent
    And the host registers "p" as "search" with timeoutMs 2000
    And the host sends "go" in the background
    And "p" receives a call of the tool "slow"
    And the clock advances 1999 milliseconds
    Then the background operation is still running
    When the clock advances 1 millisecond
    Then the background operation ends
    And it succeeds
    And the model received a tool error

  # 「取消使用现有 AbortSignal」
  @LA-TMO-05
  Scenario: aborting a run cancels the call in flight
    Given a stdio MCP server "p" with tools "slow"
    And the tool "slow" of "p" never answers
    And the mcpServers option declares "p"
    And the model calls "mcp__p__slow" with {}
    When the host creates the agent
    And the host sends "go" in the background
    And "p" receives a call of the tool "slow"
    And the host aborts the background operation
    Then the background operation ends within 2 seconds with a "cancelled" error
    And "p" received "notifications/cancelled"

  @LA-TMO-05
  Scenario: aborting a run aborts the approval in progress
    Given a stdio MCP server "p" with tools "slow"
    And the mcpServers option declares "p"
    And the model calls "mcp__p__slow" with {}
    And the approval handler waits for "mcp__p__slow" until it is cancelled
    When the host creates the agent
    And the host sends "go" in the background
    And the approval handler is asked for "mcp__p__slow"
    And the host aborts the background operation
    Then the background operation ends within 2 seconds with a "cancelled" error
    And the approval for "mcp__p__slow" was cancelled
    And "p" received no call

  # 「断线、超时和取消可能意味着执行结果未知，SDK 不自动重放有副作用的调用」 (A-24: not even read-only tools)
  @LA-TMO-06
  Scenario Outline: a call whose outcome is unknown is never sent again (<how>)
    Given a stdio MCP server "p" with tools "act"
    And the tool "act" of "p" is annotated {"readOnlyHint": true, "idempotentHint": true}
    And the tool "act" of "p" <misbehaves>
    And the model calls "mcp__search__act" with {}
    When the host creates the agent
    And the host registers "p" as "search" with timeoutMs 2000
    And the host sends "go"
    Then the model received a tool error
    When the host waits until the agent is idle
    And the host sends "again"
    And the host waits until the agent is idle
    Then "p" received 1 call of the tool "act"

    Examples:
      | how                | misbehaves                 |
      | the server exits   | exits instead of answering |

    @adapter-lacks:clock
    Examples: in real time
      | how                | misbehaves                 |
      | the call times out | never answers              |

  @LA-TMO-06 @adapter:clock
  Scenario: a call that timed out on the agent's clock is never sent again
    Given a stdio MCP server "p" with tools "act"
    And the tool "act" of "p" is annotated {"readOnlyHint": true, "idempotentHint": true}
    And the tool "act" of "p" never answers
    And the model calls "mcp__search__act" with {}
    And the agent's clock is under the host's control
    When the host creates the agent
    And the host registers "p" as "search" with timeoutMs 2000
    And the host sends "go" in the background
    And "p" receives a call of the tool "act"
    And the clock advances 2000 milliseconds
    Then the background operation ends
    And the model received a tool error
    When the host waits until the agent is idle
    And the host sends "again"
    And the host waits until the agent is idle
    Then "p" received 1 call of the tool "act"

  @LA-TMO-06
  Scenario: an aborted call is never sent again
    Given a stdio MCP server "p" with tools "act"
    And the tool "act" of "p" never answers
    And the model calls "mcp__search__act" with {}
    When the host creates the agent
    And the host registers "p" as "search"
    And the host sends "go" in the background
    And "p" receives a call of the tool "act"
    And the host aborts the background operation
    Then the background operation ends within 2 seconds with a "cancelled" error
    When the host sends "again"
    And the host waits until the agent is idle
    Then "p" received 1 call of the tool "act"
