@lite-agent
Feature: The tool catalog of a run, and stale servers (LA-CAT)
  「每次运行固定工具目录。服务器通知工具变化或连接失效后，目录标记 stale；空闲时重新注销/注册，
  重新授权。运行中不会悄悄替换 schema。」

  # 「每次运行固定工具目录」
  @LA-CAT-01
  Scenario: a tools/list_changed in the middle of a run leaves the run's tools as they were
    Given an HTTP MCP server "docs" with tools "search, fetch"
    And after answering "search", "docs" changes its tools to "search, summarize"
    And the mcpServers option declares "docs"
    And the model calls "mcp__docs__search" with {}
    And the model, once "docs" sent "notifications/tools/list_changed", calls "mcp__docs__fetch" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model was asked 3 times
    And the model was offered exactly the MCP tools "mcp__docs__fetch, mcp__docs__search"
    And "docs" received a call of the tool "fetch"

  # 「服务器通知工具变化……目录标记 stale」 (interpretation A-22)
  @LA-CAT-02 @adapter:list-normalize
  Scenario: a tools/list_changed notification marks the server stale
    Given an HTTP MCP server "docs" with tools "search"
    And after answering "search", "docs" changes its tools to "search, summarize"
    And the mcpServers option declares "docs"
    And the model calls "mcp__docs__search" with {}
    When the host creates the agent
    And the host sends "go"
    And "docs" sent "notifications/tools/list_changed"
    Then list() soon shows "docs" with status "stale"

  # 「连接失效后，目录标记 stale」 (interpretations A-22, A-37)
  @LA-CAT-03 @adapter:list-normalize
  Scenario: a stdio server that dies is marked stale
    Given a stdio MCP server "p" with tools "a"
    And the mcpServers option declares "p"
    When the host creates the agent
    And the host sends "hello"
    And the process of "p" is killed
    Then list() soon shows "p" with status "stale"

  @LA-CAT-03 @adapter:list-normalize
  Scenario: an HTTP server that forgets the session is marked stale
    Given an HTTP MCP server "h" with tools "a, b"
    And after answering "a", "h" forgets every session
    And the mcpServers option declares "h"
    And the model calls "mcp__h__a" with {}
    And the model calls "mcp__h__b" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received a tool error
    And list() soon shows "h" with status "stale"

  # 「运行中不会悄悄替换 schema」
  @LA-CAT-04
  Scenario: a schema changed in the middle of a run is not used before the run ends
    Given an HTTP MCP server "docs" with tools "search"
    And the tool "search" of "docs" has the input schema {"type": "object", "properties": {"q": {"type": "string"}}}
    And after answering "search", "docs" changes its tools to:
      """
      [{ "name": "search", "inputSchema": { "type": "object", "properties": { "q": { "type": "string" } }, "required": ["q"] } }]
      """
    And the mcpServers option declares "docs"
    And the model calls "mcp__docs__search" with {}
    And the model, once "docs" sent "notifications/tools/list_changed", calls "mcp__docs__search" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And "docs" received 2 calls of the tool "search"
    And every model request offered "mcp__docs__search" with the input schema {"type": "object", "properties": {"q": {"type": "string"}}}

  # 「空闲时重新注销/注册」 (interpretation A-02: the SDK refreshes at the start of the next run;
  # list() tells when the implementation has taken the notification in)
  @LA-CAT-05 @adapter:list-normalize
  Scenario: once idle, a stale server is connected again and its new tools are offered
    Given an HTTP MCP server "docs" with tools "search"
    And after answering "search", "docs" changes its tools to "search, summarize"
    And the mcpServers option declares "docs"
    And the model calls "mcp__docs__search" with {}
    And the model, once "docs" sent "notifications/tools/list_changed", answers "done"
    When the host creates the agent
    And the host sends "go"
    And list() soon shows "docs" with status "stale"
    And the host waits until the agent is idle
    And the host sends "again"
    Then it succeeds
    And "docs" received "tools/list" 2 times
    And the model's last request offered exactly the MCP tools "mcp__docs__search, mcp__docs__summarize"

  @LA-CAT-05 @adapter:list-normalize
  Scenario: once idle, a server whose process died is started again
    Given a stdio MCP server "p" with tools "a"
    And the mcpServers option declares "p"
    When the host creates the agent
    And the host sends "hello"
    And the process of "p" is killed
    And list() soon shows "p" with status "stale"
    And the host sends "again"
    Then it succeeds
    And "p" was connected 2 times
    And the model's last request offered exactly the MCP tools "mcp__p__a"

  # 「重新授权」 (interpretation A-02)
  @LA-CAT-06 @adapter:list-normalize
  Scenario: refreshing a stale server asks for mcp_connect again
    Given an HTTP MCP server "docs" with tools "search"
    And after answering "search", "docs" changes its tools to "search, summarize"
    And the mcpServers option declares "docs"
    And the model calls "mcp__docs__search" with {}
    And the model, once "docs" sent "notifications/tools/list_changed", answers "done"
    When the host creates the agent
    And the host sends "go"
    And list() soon shows "docs" with status "stale"
    And the host waits until the agent is idle
    And the host sends "again"
    Then it succeeds
    And the approval handler was asked for "mcp_connect" 2 times

  @LA-CAT-06 @adapter:list-normalize
  Scenario: when the new mcp_connect is denied, the stale server is not registered again
    Given a stdio MCP server "p" with tools "a"
    And an HTTP MCP server "h" with tools "b"
    And the mcpServers option declares "p"
    And the mcpServers option declares "h"
    When the host creates the agent
    And the host sends "hello"
    And the process of "p" is killed
    And list() soon shows "p" with status "stale"
    And the approval handler denies "mcp_connect"
    And the host sends "again"
    Then "p" was connected 1 time
    And the model requests of the last send offered no tool of "p"
