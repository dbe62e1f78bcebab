@blade
Feature: Blade health checks (BL-HC)
  「启用健康检查后，SDK 会定期检测 MCP 服务器状态，自动发现连接中断」
  Driven on the session's manual clock; the failure threshold is left open
  by the document (interpretation B-04), so scenarios give a silent server
  as many intervals as it takes, up to three.

  # 「定期检测 MCP 服务器状态」「intervalMs: 30000」
  @BL-HC-01 @adapter:clock
  Scenario: an enabled health check pings the server every intervalMs
    Given the agent's clock is under the host's control
    And a stdio MCP server "p" with tools "search"
    And the mcpServers option declares "p" with {"healthCheck": {"enabled": true, "intervalMs": 30000}}
    When the host creates the session
    Then "p" received no "ping" within 300 milliseconds
    When the clock advances 30 seconds
    Then "p" soon received "ping" 1 time
    When the clock advances 30 seconds
    Then "p" soon received "ping" 2 times
    And mcpServerStatus() shows "p" as "connected" with 1 tool

  # 「自动发现连接中断」
  @BL-HC-02 @adapter:clock
  Scenario: a server that stops answering its health checks is no longer connected
    Given the agent's clock is under the host's control
    And a stdio MCP server "p" that never answers "ping"
    And the mcpServers option declares "p" with {"healthCheck": {"enabled": true, "intervalMs": 200}}
    When the host creates the session
    And the clock advances 200 milliseconds
    Then "p" soon received "ping" 1 time
    When the clock advances 200 milliseconds
    Then "p" soon received "ping" 2 times
    When the clock advances 200 milliseconds
    Then "p" soon received "ping" 3 times
    When the clock advances 200 milliseconds
    Then mcpServerStatus() soon shows "p" no longer connected

  # 「disabled 未启用健康检查」
  @BL-HC-03 @adapter:clock
  Scenario Outline: without an enabled health check nothing is pinged (<config>)
    Given the agent's clock is under the host's control
    And a stdio MCP server "p" with tools "search"
    And the mcpServers option declares "p" with <fields>
    When the host creates the session
    And the clock advances 60 seconds
    Then mcpServerStatus() shows "p" as "connected" with 1 tool
    And "p" received no "ping" within 300 milliseconds

    Examples:
      | config        | fields                                                     |
      | no healthCheck | {}                                                        |
      | enabled false  | {"healthCheck": {"enabled": false, "intervalMs": 200}}   |

  # 「healthy 服务器响应正常」「checking 正在执行健康检查」「degraded 服务器响应变慢或部分功能异常」
  # The thresholds are interpretation B-04: a check is bounded by 10 s; one failed check is degraded.
  @BL-HC-04 @adapter:clock @adapter:health
  Scenario: a check in progress reads checking, a failed one degraded, and a timely answer healthy again
    Given the agent's clock is under the host's control
    And a stdio MCP server "p" with tools "search" that waits for the latch "pong" before answering "ping"
    And the mcpServers option declares "p" with {"healthCheck": {"enabled": true, "intervalMs": 30000}}
    When the host creates the session
    And the clock advances 30 seconds
    Then "p" soon received "ping" 1 time
    And the health of "p" soon reads "checking"
    When the clock advances 10 seconds
    Then the health of "p" soon reads "degraded"
    When the latch "pong" is released
    And the clock advances 20 seconds
    Then "p" soon received "ping" 2 times
    And the health of "p" soon reads "healthy"

  # 「degraded 服务器响应变慢」: an answer later than half the check's 10 s bound (interpretation B-04)
  @BL-HC-04 @adapter:clock @adapter:health
  Scenario: a check answered late reads degraded
    Given the agent's clock is under the host's control
    And a stdio MCP server "p" with tools "search" that waits for the latch "pong" before answering "ping"
    And the mcpServers option declares "p" with {"healthCheck": {"enabled": true, "intervalMs": 30000}}
    When the host creates the session
    And the clock advances 30 seconds
    Then "p" soon received "ping" 1 time
    When the clock advances 6 seconds
    And the latch "pong" is released
    Then the health of "p" soon reads "degraded"

  # 「unhealthy 服务器无响应或连续失败」 (three failed checks in a row, interpretation B-04)
  @BL-HC-04 @adapter:clock @adapter:health
  Scenario: consecutive failed checks read unhealthy
    Given the agent's clock is under the host's control
    And a stdio MCP server "p" that never answers "ping"
    And the mcpServers option declares "p" with {"healthCheck": {"enabled": true, "intervalMs": 30000}}
    When the host creates the session
    And the clock advances 30 seconds
    Then "p" soon received "ping" 1 time
    When the clock advances 10 seconds
    Then the health of "p" soon reads "degraded"
    When the clock advances 20 seconds
    Then "p" soon received "ping" 2 times
    When the clock advances 10 seconds
    And the clock advances 20 seconds
    Then "p" soon received "ping" 3 times
    When the clock advances 10 seconds
    Then the health of "p" soon reads "unhealthy"

  # 「disabled 未启用健康检查」
  @BL-HC-04 @adapter:health
  Scenario: a server without an enabled health check reads disabled
    Given a stdio MCP server "p" with tools "search"
    And the mcpServers option declares "p"
    When the host creates the session
    Then mcpServerStatus() shows "p" as "connected" with 1 tool
    And the health of "p" soon reads "disabled"
