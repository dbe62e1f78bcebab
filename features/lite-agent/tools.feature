@lite-agent
Feature: MCP tools and the core Tool interface share one mechanism (LA-TOOL)
  「MCP 与内置工具共用权限、Hook、并发、取消和上下文归档机制。」
  「Tool.schema 现在使用 Standard Schema 校验及 Standard JSON Schema 的输入导出接口；Zod 4 工具继续可用。
  ……Tool.execute() 可返回字符串或 { content: string, isError?: boolean }。」

  # 「共用……并发……机制」: the calls of one turn are scheduled alike, as the adapter states
  @LA-TOOL-01 @adapter:concurrency-policy
  Scenario: MCP calls and host tool calls of one turn are scheduled alike
    Given a stdio MCP server "p" with tools "a, b"
    And the tool "a" of "p" waits for the latch "a"
    And the host defines the tool "h1" with a native schema {"type":"object"}
    And the host defines the tool "h2" with a native schema {"type":"object"}
    And the host tool "h1" waits for the latch "h1"
    And the mcpServers option declares "p"
    And the permission policy allows "mcp_connect, mcp__*, h1, h2"
    And the model calls "mcp__p__a", "mcp__p__b", "h1" and "h2" in one turn
    When the host creates the agent
    And the host sends "go" in the background
    Then while "mcp__p__a" is held at the latch "a", "mcp__p__b" starts as the adapter's concurrency policy says
    And while "h1" is held at the latch "h1", "h2" starts as the adapter's concurrency policy says
    And the background operation ends

  # 「Tool.schema 现在使用 Standard Schema 校验」: validate(), never a library's parse()
  @LA-TOOL-02
  Scenario: a Standard Schema's validate() rejects bad input before execute() and passes good input
    Given the host defines the tool "lookup" with a standard schema {"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}
    And the permission policy allows "lookup"
    And the model calls "lookup" with {"id":"seven"}
    And the model calls "lookup" with {"id":7}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the host validated the input of "lookup" 2 times
    And the host executed "lookup" exactly once, with {"id":7}
    And the model received a tool error
    And the model received a tool result containing "ok"

  # 「Standard JSON Schema 的输入导出接口」
  @LA-TOOL-03
  Scenario: the model is offered the schema's JSON Schema input export
    Given the host defines the tool "lookup" with a standard schema {"type":"object","properties":{"la_canary_field":{"type":"string","description":"canary 4e1d"}},"required":["la_canary_field"]}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And every model request offered "lookup" with the input schema {"type":"object","properties":{"la_canary_field":{"type":"string","description":"canary 4e1d"}},"required":["la_canary_field"]}

  # 「Zod 4 工具继续可用」: the implementation's own schema library (Zod in TypeScript, jsonschema-go in Go)
  @LA-TOOL-04
  Scenario: a tool with the implementation's own schema library validates and exports its schema
    Given the host defines the tool "lookup" with a native schema {"type":"object","properties":{"id":{"type":"integer","minimum":1}},"required":["id"]}
    And the permission policy allows "lookup"
    And the model calls "lookup" with {"id":0}
    And the model calls "lookup" with {"id":3}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the host executed "lookup" exactly once, with {"id":3}
    And the model received a tool error
    And every model request offered "lookup" with the input schema {"type":"object","properties":{"id":{"type":"integer","minimum":1}},"required":["id"]}

  # 「Tool.execute() 可返回字符串」
  @LA-TOOL-06
  Scenario: execute() returning a string is a successful result
    Given the host defines the tool "lookup" with a native schema {"type":"object"}
    And the host tool "lookup" returns "la-ok-5c"
    And the permission policy allows "lookup"
    And the model calls "lookup" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received a tool result containing "la-ok-5c"

  # 「或 { content: string, isError?: boolean }」
  @LA-TOOL-07
  Scenario Outline: execute() returning <returned> gives the model <result>
    Given the host defines the tool "lookup" with a native schema {"type":"object"}
    And the host tool "lookup" returns <returned>
    And the permission policy allows "lookup"
    And the model calls "lookup" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received <result>

    Examples:
      | returned                              | result                              |
      | {"content":"la-bad-1","isError":true} | a tool error containing "la-bad-1"  |
      | {"content":"la-x-2"}                  | a tool result containing "la-x-2"   |
      | {"content":"la-x-3","isError":false}  | a tool result containing "la-x-3"   |
