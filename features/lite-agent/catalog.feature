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

  # 「连接失效后，目录标记 stale；空闲时重新注销/注册，重新授权」: a call that a fatal error
  # ends loses the connection at once and for good: when the run returns the
  # server is stale, its process is reaped, and the next run connects it again,
  # asking for mcp_connect again (interpretations A-22, A-37).
  @LA-CAT-03 @LA-CAT-05 @LA-CAT-06 @adapter:list-normalize
  Scenario Outline: a connection a fatal error ends is lost at once, and the next run connects again (<cause>)
    Given <a server> MCP server "p" with tools "bad, good"
    And <breakage>
    And the mcpServers option declares "p"
    And the model calls "mcp__p__bad" with {}
    And the model then answers "done"
    And the model calls "mcp__p__good" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received a tool error
    And list() shows "p" from the "option" source with status "stale"
    And <reaped>
    When the host sends "again"
    Then it succeeds
    And the approval handler was asked for "mcp_connect" 2 times
    And "p" was connected 2 times
    And "p" received 1 call of the tool "bad"
    And "p" received a call of the tool "good"
    And the model received a tool result containing "ok"

    Examples:
      | cause                        | a server | breakage                                                                           | reaped                                               |
      | a stdio message over 4 MiB   | a stdio  | the tool "bad" of "p" answers with a message of 4194305 bytes                      | the first process of "p" had exited when that returned |
      | the stdio server exits       | a stdio  | the tool "bad" of "p" exits instead of answering                                   | the first process of "p" had exited when that returned |
      | the stdio server crashes     | a stdio  | the tool "bad" of "p" crashes instead of answering                                 | the first process of "p" had exited when that returned |
      | an HTTP response over 4 MiB  | an HTTP  | the tool "bad" of "p" answers with a JSON body of 4194305 bytes                    | "p" received 1 call of the tool "bad"                |
      | HTTP 413                     | an HTTP  | "p" answers its next "tools/call" request with HTTP 413 and the body "too large"   | "p" received 1 call of the tool "bad"                |
      | HTTP 400                     | an HTTP  | "p" answers its next "tools/call" request with HTTP 400 and the body "bad request" | "p" received 1 call of the tool "bad"                |
