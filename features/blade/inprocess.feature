@blade
Feature: Blade in-process MCP servers (BL-INP)
  「当你需要用 TypeScript 编写自定义工具时，可以用 tool() 和 createSdkMcpServer() 创建进程内 MCP Server，无需启动额外进程」
  The adapter builds createSdkMcpServer({name, version, tools}) over
  tool(name, description, schema, handler) values from data, and every run
  of a handler is a host/inProcessTool callback that the runner answers,
  with the pid of the process it ran in (spec/adapter-protocol.md).
  Validating arguments against the schema is a SHOULD; filling in
  defaults is not asserted (interpretation B-10).

  # 「tool() 函数签名」: every tool() value is a tool createSdkMcpServer accepts
  @BL-INP-01
  Scenario: every tool() value given to createSdkMcpServer is a tool of the server
    Given an in-process server "myTools" named "my-tools" with the tools:
      | name           | description        | schema |
      | get-weather    | 查询指定城市的当前天气 | {"type":"object","properties":{"city":{"type":"string","description":"城市名称"}},"required":["city"]} |
      | query-database | 执行 SQL 查询        | {"type":"object","properties":{"sql":{"type":"string","description":"SQL 语句"},"database":{"type":"string","default":"main","description":"数据库名"}},"required":["sql"]} |
    And the mcpServers option declares "myTools"
    And the model calls "mcp__myTools__query-database" with {"sql": "select 1", "database": "main"}
    When the host creates the session
    And the host sends "query"
    Then it succeeds
    And the model was offered exactly the MCP tools "mcp__myTools__get-weather, mcp__myTools__query-database"
    And the in-process tool "query-database" of "myTools" ran 1 time, with {"sql": "select 1", "database": "main"}

  # 「createSdkMcpServer()」「SdkMcpServerHandle」
  @BL-INP-02
  Scenario: createSdkMcpServer gives a server that the session connects
    Given an in-process server "myTools" named "my-tools" with the tools:
      | name        | description        | schema |
      | get-weather | 查询指定城市的当前天气 | {"type":"object","properties":{"city":{"type":"string","description":"城市名称"}},"required":["city"]} |
    And the mcpServers option declares "myTools"
    When the host creates the session
    Then mcpServerStatus() shows "myTools" as "connected" with 1 tool
    And mcpListTools() lists "get-weather" of "myTools" described as "查询指定城市的当前天气"

  # 「其 handle 通过 type: 'in-process' 与外部 MCP 配置形成可判别联合」
  @BL-INP-03
  Scenario: the type 'in-process' sets a handle apart from the external configurations
    Given an in-process server "myTools" named "my-tools" with the tools:
      | name        | description        | schema |
      | get-weather | 查询指定城市的当前天气 | {"type":"object","properties":{"city":{"type":"string","description":"城市名称"}},"required":["city"]} |
    And the mcpServers option declares "myTools"
    And the model calls "mcp__myTools__get-weather" with {"city": "Paris"}
    When the host creates the session
    And the host sends "weather"
    Then it succeeds
    And mcpServerStatus() shows "myTools" as "connected" with 1 tool
    And the in-process tool "get-weather" of "myTools" ran 1 time, with {"city": "Paris"}

  # 「多服务器组合」: a handle beside an external server
  @BL-INP-04
  Scenario: an in-process server works beside an external stdio server
    Given an in-process server "myTools" named "my-tools" with the tools:
      | name        | description        | schema |
      | get-weather | 查询指定城市的当前天气 | {"type":"object","properties":{"city":{"type":"string","description":"城市名称"}},"required":["city"]} |
    And a stdio MCP server "filesystem" with tools "read_file"
    And the mcpServers option declares "myTools"
    And the mcpServers option declares "filesystem"
    And the model calls "mcp__myTools__get-weather" with {"city": "Paris"}
    And the model calls "mcp__filesystem__read_file" with {}
    When the host creates the session
    And the host sends "both"
    Then it succeeds
    And mcpServerStatus() shows "myTools" as "connected" with 1 tool
    And mcpServerStatus() shows "filesystem" as "connected" with 1 tool
    And the in-process tool "get-weather" of "myTools" ran 1 time, with {"city": "Paris"}
    And "filesystem" received a call of the tool "read_file"

  # 「进程内 MCP Server 不会启动子进程」
  @BL-INP-05
  Scenario: an in-process server starts no child process
    Given the processes the implementation starts are watched
    And an in-process server "myTools" named "my-tools" with the tools:
      | name        | description        | schema |
      | get-weather | 查询指定城市的当前天气 | {"type":"object","properties":{"city":{"type":"string","description":"城市名称"}},"required":["city"]} |
    And the mcpServers option declares "myTools"
    And the model calls "mcp__myTools__get-weather" with {"city": "Paris"}
    When the host creates the session
    And the host sends "weather"
    Then it succeeds
    And the in-process tool "get-weather" of "myTools" ran 1 time, with {"city": "Paris"}
    And the implementation started no process, before or while its in-process tools ran

  # 「直接在当前进程中执行」: the handler runs in the host's process, within the call
  @BL-INP-06
  Scenario: an in-process tool runs in the host's own process, within the call
    Given an in-process server "myTools" named "my-tools" with the tools:
      | name  | description    | schema |
      | tally | counts its runs | {"type":"object","properties":{}} |
    And the in-process tool "tally" of "myTools" answers with its run count
    And the mcpServers option declares "myTools"
    And the model calls "mcp__myTools__tally" with {}
    And the model calls "mcp__myTools__tally" with {}
    When the host creates the session
    And the host sends "count"
    Then it succeeds
    And every run of an in-process tool reported the implementation's own process
    And the model received a tool result containing "tally run 2"

  # 「handler: (params: Type.Static<TSchema>) => Promise<McpToolCallResponse>」
  @BL-INP-07
  Scenario: the handler receives the model's arguments
    Given an in-process server "myTools" named "my-tools" with the tools:
      | name        | description        | schema |
      | get-weather | 查询指定城市的当前天气 | {"type":"object","properties":{"city":{"type":"string","description":"城市名称"}},"required":["city"]} |
    And the mcpServers option declares "myTools"
    And the model calls "mcp__myTools__get-weather" with {"city": "Paris"}
    When the host creates the session
    And the host sends "weather"
    Then it succeeds
    And the in-process tool "get-weather" of "myTools" ran 1 time, with {"city": "Paris"}

  # Runtime validation is a SHOULD (interpretation B-10)
  @BL-INP-07
  Scenario: arguments that do not match the schema never reach the handler
    Given an in-process server "myTools" named "my-tools" with the tools:
      | name        | description        | schema |
      | get-weather | 查询指定城市的当前天气 | {"type":"object","properties":{"city":{"type":"string","description":"城市名称"}},"required":["city"]} |
    And the mcpServers option declares "myTools"
    And the model calls "mcp__myTools__get-weather" with {"city": 123}
    When the host creates the session
    And the host sends "weather"
    Then it succeeds
    And the model received a tool error
    And the in-process tool "get-weather" of "myTools" never ran

  # 「content: [{ type: 'text', text: `${city}: 晴 25°C` }]」
  @BL-INP-08
  Scenario: the text of the handler's response is the tool result the model gets
    Given an in-process server "myTools" named "my-tools" with the tools:
      | name        | description        | schema |
      | get-weather | 查询指定城市的当前天气 | {"type":"object","properties":{"city":{"type":"string","description":"城市名称"}},"required":["city"]} |
    And the in-process tool "get-weather" of "myTools" answers {"content": [{"type": "text", "text": "Paris: 晴 25°C"}]}
    And the mcpServers option declares "myTools"
    And the model calls "mcp__myTools__get-weather" with {"city": "Paris"}
    When the host creates the session
    And the host sends "weather"
    Then it succeeds
    And the model received a tool result containing "Paris: 晴 25°C"

  # 「isError?: boolean」
  @BL-INP-09
  Scenario: isError in the handler's response makes a tool error
    Given an in-process server "myTools" named "my-tools" with the tools:
      | name        | description        | schema |
      | get-weather | 查询指定城市的当前天气 | {"type":"object","properties":{"city":{"type":"string","description":"城市名称"}},"required":["city"]} |
    And the in-process tool "get-weather" of "myTools" answers {"content": [{"type": "text", "text": "no such city"}], "isError": true}
    And the mcpServers option declares "myTools"
    And the model calls "mcp__myTools__get-weather" with {"city": "Atlantis"}
    When the host creates the session
    And the host sends "weather"
    Then it succeeds
    And the model received a tool error containing "no such city"

  # 「type: 'text' | 'image' | 'resource'」 (their representation is open, interpretation B-18)
  @BL-INP-10
  Scenario: image and resource items of the handler's response are accepted
    Given an in-process server "myTools" named "my-tools" with the tools:
      | name        | description        | schema |
      | get-weather | 查询指定城市的当前天气 | {"type":"object","properties":{"city":{"type":"string","description":"城市名称"}},"required":["city"]} |
    And the in-process tool "get-weather" of "myTools" answers {"content": [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}, {"type": "resource", "text": "气温 25°C", "mimeType": "text/plain"}, {"type": "text", "text": "after the media"}]}
    And the mcpServers option declares "myTools"
    And the model calls "mcp__myTools__get-weather" with {"city": "Paris"}
    When the host creates the session
    And the host sends "weather"
    Then it succeeds
    And the model received a tool result containing "after the media"

  # 「Type.String({ description: '城市名称' })」 (defaults: @ambiguous:B-10, not asserted)
  @BL-INP-11
  Scenario: the model is shown the tool's description and its schema with the properties' descriptions
    Given an in-process server "myTools" named "my-tools" with the tools:
      | name        | description        | schema |
      | get-weather | 查询指定城市的当前天气 | {"type":"object","properties":{"city":{"type":"string","description":"城市名称"}},"required":["city"]} |
    And the mcpServers option declares "myTools"
    When the host creates the session
    And the host sends "weather"
    Then it succeeds
    And every model request offered "mcp__myTools__get-weather" described as "查询指定城市的当前天气"
    And every model request offered "mcp__myTools__get-weather" with the input schema {"type":"object","properties":{"city":{"type":"string","description":"城市名称"}},"required":["city"]}
