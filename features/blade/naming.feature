@blade
Feature: Blade tool naming and collisions (BL-NAME)
  「所有远程工具都以保留命名空间 mcp__<server>__<tool> 暴露……规范化后的名称冲突会在注册阶段直接失败。」
  Names are namespaced and collisions fail (interpretation X-01); the
  normalization tested is '-' against '_' (interpretation B-02).

  # 「所有远程工具都以保留命名空间 mcp__<server>__<tool> 暴露」
  @BL-NAME-01
  Scenario: a remote tool is exposed as mcp__<server>__<tool> and called by its own name
    Given a stdio MCP server "github" with tools "create_issue"
    And the mcpServers option declares "github"
    And the model calls "mcp__github__create_issue" with {}
    When the host creates the session
    And the host sends "file it"
    Then it succeeds
    And the model was offered exactly the MCP tools "mcp__github__create_issue"
    And "github" received a call of the tool "create_issue"

  # 「MCP Server 不能用 Read、Write、Bash 等名称覆盖内置或应用工具」 (B-19: tested in every profile)
  @BL-NAME-02
  Scenario: an MCP tool named like an application tool never replaces it
    Given a stdio MCP server "fs" with tools "Read, Write, Bash"
    And the mcpServers option declares "fs"
    And the host defines the tool "Read" with a native schema {"type":"object","properties":{"path":{"type":"string"}}}
    And the model calls "Read" with {"path": "notes.txt"}
    When the host creates the session
    And the host sends "read the notes"
    Then it succeeds
    And every model request offered "Read" exactly once
    And every model request offered "Read" with the input schema {"type":"object","properties":{"path":{"type":"string"}}}
    And the host executed "Read" exactly once, with {"path": "notes.txt"}
    And "fs" received no call

  # 「规范化后的名称冲突会在注册阶段直接失败」 (@ambiguous:B-02)
  @BL-NAME-03
  Scenario: server names that are equal after normalization collide
    Given a stdio MCP server "my-srv" with tools "search"
    And a stdio MCP server "my_srv" with tools "fetch"
    And the mcpServers option declares "my-srv"
    And the mcpServers option declares "my_srv"
    When the host creates the session
    Then of "my-srv" and "my_srv" only "my_srv" failed, for a name collision

  @BL-NAME-03
  Scenario: tool names of one server that are equal after normalization fail that server
    Given a stdio MCP server "data" with tools "get-data, get_data"
    And a stdio MCP server "other" with tools "search"
    And the mcpServers option declares "other"
    And the mcpServers option declares "data"
    When the host creates the session
    Then of "other" and "data" only "data" failed, for a name collision

  # 「SDK 可能将名称改写为 serverName__toolName」 (MAY; the namespaced profile, X-01)
  @BL-NAME-04
  Scenario: the same tool name on two servers gives two distinct exposed tools
    Given a stdio MCP server "a" with tools "search"
    And a stdio MCP server "b" with tools "search"
    And the mcpServers option declares "a"
    And the mcpServers option declares "b"
    When the host creates the session
    And the host sends "look"
    Then it succeeds
    And the model was offered exactly the MCP tools "mcp__a__search, mcp__b__search"
    And mcpListTools() lists exactly the tools of "a, b"

  # 「权限策略应同时考虑 mcpListTools() 返回的实际名称，不要只匹配服务器声明的原始名称」 (B-12)
  @BL-NAME-06
  Scenario: the permission callback, the model and mcpListTools() name each tool alike
    Given a stdio MCP server "a" with tools "search"
    And a stdio MCP server "b" with tools "search, fetch"
    And the mcpServers option declares "a"
    And the mcpServers option declares "b"
    And the host's permission callback answers "allow"
    And the model calls "mcp__a__search" with {}
    And the model calls "mcp__b__search" with {}
    When the host creates the session
    And the host sends "look"
    Then it succeeds
    And the permission callback was asked about exactly "mcp__a__search, mcp__b__search", each a tool the model was offered and one mcpListTools() entry
