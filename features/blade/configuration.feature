@blade
Feature: Blade session configuration (BL-CFG)
  「在 createSession 的 mcpServers 中配置」 — every server is declared in the
  session's mcpServers; the reference's adapter drives createServerSession
  and createAgent({advanced: {mcpServers}}) through the same agent/create.

  # 「在 createSession 的 mcpServers 中配置」
  @BL-CFG-01
  Scenario: servers configured in mcpServers are the session's servers
    Given a stdio MCP server "filesystem" with tools "read_file, list_directory"
    And the mcpServers option declares "filesystem"
    When the host creates the session
    Then it succeeds
    And mcpServerStatus() shows exactly the servers "filesystem"
    And mcpServerStatus() shows "filesystem" as "connected" with 2 tools

  # 「McpServerConfig 完整参考」
  @BL-CFG-02
  Scenario Outline: an McpServerConfig using every field of a <kind> server is accepted
    Given <a kind> MCP server "p" with tools "search"
    And the mcpServers option declares "p" with <fields>
    When the host creates the session
    Then it succeeds
    And mcpServerStatus() shows "p" as "connected" with 1 tool

    Examples:
      | kind  | a kind  | fields                                                                                                                                                                                              |
      | stdio | a stdio | {"type": "stdio", "env": {"GITHUB_TOKEN": "CANARY"}, "disabled": false, "alwaysAllow": ["search"], "oauth": {"provider": "github", "clientId": "c", "enabled": false}, "healthCheck": {"enabled": false, "intervalMs": 30000}} |
      | http  | an HTTP | {"headers": {"X-Team": "blue"}, "disabled": false, "alwaysAllow": ["search"], "oauth": {"provider": "github", "clientId": "c", "enabled": false}, "healthCheck": {"enabled": false, "intervalMs": 30000}}                 |

  # 「暂时禁用此服务器」「先不连接」 (interpretation B-20)
  @BL-CFG-04
  Scenario: a disabled server is not connected when the session is created
    Given a stdio MCP server "github" with tools "create_issue"
    And a stdio MCP server "fs" with tools "read_file"
    And the mcpServers option declares "github" with {"disabled": true}
    And the mcpServers option declares "fs"
    When the host creates the session
    And the host sends "hi"
    Then it succeeds
    And "github" was started 0 times
    And mcpServerStatus() shows "github" as "disconnected" with 0 tools
    And mcpListTools() lists exactly the tools of "fs"
    And the model was offered exactly the MCP tools "mcp__fs__read_file"

  # 「需要时手动连接」
  @BL-CFG-05
  Scenario: a disabled server connects on demand with mcpConnect
    Given a stdio MCP server "github" with tools "create_issue, list_issues"
    And the mcpServers option declares "github" with {"disabled": true}
    When the host creates the session
    And the host calls mcpConnect("github")
    Then it succeeds
    And mcpServerStatus() shows "github" as "connected" with 2 tools
    And mcpListTools() lists exactly the tools of "github"

  # Inferred: servers that are not disabled connect as the session is created
  @BL-CFG-06
  Scenario: servers connect as part of session creation
    Given a stdio MCP server "p" with tools "search"
    And an HTTP MCP server "h" with tools "fetch"
    And the mcpServers option declares "p"
    And the mcpServers option declares "h"
    When the host creates the session
    Then it succeeds
    And "p" received its handshake 1 time
    And "h" received its handshake 1 time
    And mcpServerStatus() shows "p" as "connected" with 1 tool
    And mcpServerStatus() shows "h" as "connected" with 1 tool

  # 「保留的 MCP 配置元数据；当前 Session 权限管道不会据此自动授权」
  @BL-CFG-07
  Scenario: alwaysAllow is accepted and authorizes nothing
    Given a stdio MCP server "p" with tools "search"
    And the mcpServers option declares "p" with {"alwaysAllow": ["search"]}
    And the approval handler denies "mcp__p__search"
    And the model calls "mcp__p__search" with {}
    When the host creates the session
    And the host sends "go"
    Then it succeeds
    And the approval handler was asked for "mcp__p__search"
    And "p" received no call

  # 「createAgent({ advanced: { mcpServers } })」
  @BL-CFG-08
  Scenario: the servers of the session's options give the model their tools
    Given a stdio MCP server "fs" with tools "read_file"
    And the mcpServers option declares "fs"
    And the model calls "mcp__fs__read_file" with {}
    When the host creates the session
    And the host sends "read it"
    Then it succeeds
    And the model was offered exactly the MCP tools "mcp__fs__read_file"
    And "fs" received a call of the tool "read_file"
