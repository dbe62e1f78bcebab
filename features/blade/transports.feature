@blade
Feature: Blade transports (BL-TRN)
  「三种传输模式」: stdio, SSE and Streamable HTTP; headers on every remote
  request.

  # 「SDK 启动子进程并通过 stdin/stdout 通信」
  @BL-TRN-01
  Scenario: a stdio server is started with its command and arguments and spoken to over stdio
    Given a stdio MCP server "github" with tools "create_issue"
    And the mcpServers option declares "github"
    And the model calls "mcp__github__create_issue" with {}
    When the host creates the session
    And the host sends "go"
    Then it succeeds
    And "github" was started 1 time
    And "github" received its handshake 1 time
    And "github" received a call of the tool "create_issue"

  # 「子进程环境变量」 (interpretation X-15: inheritance is not asserted)
  @BL-TRN-02
  Scenario: env sets environment variables of the child process
    Given a stdio MCP server "github" with tools "create_issue"
    And the mcpServers option declares "github" with {"env": {"GITHUB_TOKEN": "CANARY"}}
    When the host creates the session
    Then it succeeds
    And every process of "github" had "GITHUB_TOKEN=CANARY" in its environment

  # 「SSE — Server-Sent Events 适用于远程 MCP 服务器」
  @BL-TRN-03
  Scenario: an SSE server connects, lists its tools and completes a call
    Given an SSE MCP server "remote" with tools "search"
    And the mcpServers option declares "remote"
    And the model calls "mcp__remote__search" with {}
    When the host creates the session
    And the host sends "go"
    Then it succeeds
    And mcpServerStatus() shows "remote" as "connected" with 1 tool
    And "remote" received a call of the tool "search"

  # 「headers: { Authorization: `Bearer ${token}` }」「SSE/HTTP 的请求头」
  @BL-TRN-04
  Scenario: headers are sent on the SSE stream and on every message
    Given an SSE MCP server "remote" with tools "search"
    And the mcpServers option declares "remote" with {"headers": {"Authorization": "Bearer T"}}
    And the model calls "mcp__remote__search" with {}
    When the host creates the session
    And the host sends "go"
    Then it succeeds
    And "remote" received a call of the tool "search"
    And every HTTP request "remote" received carried the header "Authorization: Bearer T"

  # 「HTTP — Streamable HTTP」
  @BL-TRN-05
  Scenario Outline: a Streamable HTTP server answering with <answers> connects, lists and calls
    Given <server>
    And the mcpServers option declares "api"
    And the model calls "mcp__api__query" with {}
    When the host creates the session
    And the host sends "go"
    Then it succeeds
    And mcpServerStatus() shows "api" as "connected" with 1 tool
    And "api" received a call of the tool "query"

    Examples:
      | answers        | server                                                            |
      | event streams  | an HTTP MCP server "api" with tools "query"                       |
      | JSON           | an HTTP MCP server "api" with tools "query" answering with JSON   |

  # 「headers: SSE/HTTP 的请求头」
  @BL-TRN-06
  Scenario: headers are sent on every Streamable HTTP request
    Given an HTTP MCP server "api" with tools "query"
    And the mcpServers option declares "api" with {"headers": {"Authorization": "Bearer T"}}
    And the model calls "mcp__api__query" with {}
    When the host creates the session
    And the host sends "go"
    Then it succeeds
    And every HTTP request "api" received carried the header "Authorization: Bearer T"
