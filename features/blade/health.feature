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
