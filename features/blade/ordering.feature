@blade
Feature: Blade tool ordering sent to the LLM (BL-ORD)
  「MCP Server 注册的工具会排列在内置工具之后……每组内按名称字母序排列」
  The application's own tools belong to the built-in group and MCP tools
  are those named mcp__…; "alphabetical" is JavaScript's default sort, by
  UTF-16 code units (interpretation B-14).

  # 「排列在内置工具之后」「内置工具在 LLM 上下文中具有更高的优先级」
  @BL-ORD-01
  Scenario: MCP tools come after the built-in and application tools
    Given a stdio MCP server "alpha" with tools "a"
    And the mcpServers option declares "alpha"
    And the host defines the tool "zz_app" with a native schema {"type":"object"}
    When the host creates the session
    And the host sends "go"
    Then it succeeds
    And every model request offered the non-MCP tools before the MCP tools

  # 「每组内按名称字母序排列」
  @BL-ORD-02
  Scenario: the built-in and application tools are sorted by name
    Given the host defines the tool "zeta_app" with a native schema {"type":"object"}
    And the host defines the tool "Alpha_app" with a native schema {"type":"object"}
    And the host defines the tool "mid_app" with a native schema {"type":"object"}
    When the host creates the session
    And the host sends "go"
    Then it succeeds
    And every model request offered the non-MCP tools in code-unit order

  # Inferred: the MCP group is sorted whatever the configuration or connection order
  @BL-ORD-03
  Scenario Outline: the MCP tools are sorted by name whatever the configuration order (<first> first)
    Given a stdio MCP server "zeta" with tools "b, a"
    And a stdio MCP server "alpha" with tools "d, c" that answers "server/discover" after 300 ms
    And the mcpServers option declares "<first>"
    And the mcpServers option declares "<second>"
    When the host creates the session
    And the host sends "go"
    Then it succeeds
    And every model request offered the MCP tools in code-unit order
    And the model was offered exactly the MCP tools "mcp__alpha__c, mcp__alpha__d, mcp__zeta__a, mcp__zeta__b"

    Examples:
      | first | second |
      | zeta  | alpha  |
      | alpha | zeta   |
