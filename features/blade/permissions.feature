@blade
Feature: Blade permissions (BL-PERM)
  「alwaysAllow 当前不会跳过 Agent 的权限检查。如果需要自动授权受信任的 MCP 工具，请在 advanced.permission 中显式实现策略」
  The permission callback gets the tool's exposed name; 'ask' goes to the
  confirmation, which the adapter maps to host/approve (capability
  confirmation).

  # 「当前 Session 权限管道不会据此自动授权」
  @BL-PERM-01
  Scenario: alwaysAllow does not authorize a call in the session's pipeline
    Given a stdio MCP server "p" with tools "search"
    And the mcpServers option declares "p" with {"alwaysAllow": ["search"]}
    And the host's permission callback answers "ask"
    And the approval handler denies "mcp__p__search"
    And the model calls "mcp__p__search" with {}
    When the host creates the session
    And the host sends "go"
    Then it succeeds
    And the permission callback was asked about "mcp__p__search"
    And "p" received no call

  # 「alwaysAllow 当前不会跳过 Agent 的权限检查」
  @BL-PERM-02 @adapter:confirmation
  Scenario: alwaysAllow does not skip the agent's permission check
    Given a stdio MCP server "fs" with tools "read_file"
    And the mcpServers option declares "fs" with {"alwaysAllow": ["read_file"]}
    And the host's permission callback answers "ask"
    And the model calls "mcp__fs__read_file" with {}
    When the host creates the session
    And the host sends "read"
    Then it succeeds
    And the permission callback was asked about "mcp__fs__read_file"
    And the approval handler was asked for "mcp__fs__read_file"

  # 「请在 advanced.permission 中显式实现策略」「return 'allow'」
  @BL-PERM-03
  Scenario: a trusted tool the permission callback allows runs without confirmation
    Given a stdio MCP server "fs" with tools "read_file"
    And the mcpServers option declares "fs"
    And the host's permission callback answers "allow" for "mcp__fs__read_file"
    And the model calls "mcp__fs__read_file" with {}
    When the host creates the session
    And the host sends "read"
    Then it succeeds
    And "fs" received a call of the tool "read_file"
    And the approval handler was never asked for "mcp__fs__read_file"

  # 「return 'ask'」
  @BL-PERM-04 @adapter:confirmation
  Scenario Outline: 'ask' needs the confirmation (<confirmation>)
    Given a stdio MCP server "fs" with tools "write_file"
    And the mcpServers option declares "fs"
    And the host's permission callback answers "ask" for "mcp__fs__write_file"
    And <approval>
    And the model calls "mcp__fs__write_file" with {}
    When the host creates the session
    And the host sends "write"
    Then it succeeds
    And the approval handler was asked for "mcp__fs__write_file"
    And "fs" received <calls> calls of the tool "write_file"

    Examples:
      | confirmation | approval                                       | calls |
      | refused      | the approval handler denies "mcp__fs__write_file" | 0     |
      | given        | the approval handler allows everything          | 1     |

  # 「async ({ toolName }) =>」: the actual exposed name (BL-NAME-01)
  @BL-PERM-05
  Scenario: the permission callback receives the exposed tool name
    Given a stdio MCP server "fs" with tools "read_file"
    And the mcpServers option declares "fs"
    And the host's permission callback answers "allow"
    And the model calls "mcp__fs__read_file" with {}
    When the host creates the session
    And the host sends "read"
    Then it succeeds
    And the permission callback was asked about "mcp__fs__read_file"
