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

  # Code units, not code points and not letter case: capitals before small
  # letters, "_" between them, and a character beyond the BMP (two
  # surrogates, from U+D800) before one from U+E000 to U+FFFF (B-14)
  @BL-ORD-02
  Scenario: the application tools are offered in exactly UTF-16 code-unit order
    Given the host defines the tool "Ａ_app" with a native schema {"type":"object"}
    And the host defines the tool "alpha_app" with a native schema {"type":"object"}
    And the host defines the tool "😀_app" with a native schema {"type":"object"}
    And the host defines the tool "_x_app" with a native schema {"type":"object"}
    And the host defines the tool "Zeta_app" with a native schema {"type":"object"}
    And the host defines the tool "é_app" with a native schema {"type":"object"}
    And the host defines the tool "a_app" with a native schema {"type":"object"}
    And the host defines the tool "B_app" with a native schema {"type":"object"}
    When the host creates the session
    And the host sends "go"
    Then it succeeds
    And every model request offered the host's tools in exactly this order:
      | B_app     |
      | Zeta_app  |
      | _x_app    |
      | a_app     |
      | alpha_app |
      | é_app     |
      | 😀_app    |
      | Ａ_app    |

  # Sorted by the exposed name, not by server then tool, and not ignoring case
  @BL-ORD-03
  Scenario Outline: the MCP tools are offered in exactly code-unit order of their full names (<s1> first)
    Given a stdio MCP server "Zeta" with tools "a, B"
    And a stdio MCP server "alpha" with tools "a, _x"
    And a stdio MCP server "a" with tools "z"
    And a stdio MCP server "a-b" with tools "c"
    And the mcpServers option declares "<s1>"
    And the mcpServers option declares "<s2>"
    And the mcpServers option declares "<s3>"
    And the mcpServers option declares "<s4>"
    When the host creates the session
    And the host sends "go"
    Then it succeeds
    And every model request offered the MCP tools in exactly this order:
      | mcp__Zeta__B   |
      | mcp__Zeta__a   |
      | mcp__a-b__c    |
      | mcp__a__z      |
      | mcp__alpha___x |
      | mcp__alpha__a  |

    Examples:
      | s1   | s2    | s3    | s4   |
      | Zeta | a     | alpha | a-b  |
      | a-b  | alpha | a     | Zeta |
