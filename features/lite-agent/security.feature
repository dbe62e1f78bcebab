@lite-agent
Feature: Processes, environment, stderr, sandbox and transport restrictions (LA-SEC)
  「普通 SDK 的 stdio 使用已有 sandbox（若提供）……环境继承采用官方传输的安全默认集合，加显式 env，
  不传递整个 process.env。stderr 被消费但不写日志。」

  # 「普通 SDK 的 stdio 使用已有 sandbox（若提供）」
  @LA-SEC-14 @adapter:sandbox
  Scenario: every stdio start goes through the host's sandbox command, probe included
    Given a stdio MCP server "p" with tools "search"
    And the agent starts stdio servers through the fake sandbox
    When the host creates the agent
    And the host registers "p"
    Then it succeeds
    And the sandbox ran the command line of "p" 2 times
    And every process of "p" was started by the sandbox

  # 「环境继承采用官方传输的安全默认集合……不传递整个 process.env」
  @LA-SEC-16
  Scenario: a stdio server never sees the host's secrets
    Given the host environment has "LA_CANARY_SECRET" set to "canary-1f9e"
    And the host environment has "AWS_SECRET_ACCESS_KEY" set to "canary-aws-77"
    And the host environment has "OPENAI_API_KEY" set to "canary-oai-31"
    And a stdio MCP server "p" with tools "search"
    And the mcpServers option declares "p"
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And no process of "p" had "LA_CANARY_SECRET, AWS_SECRET_ACCESS_KEY, OPENAI_API_KEY" in its environment
    And every process of "p" had "PATH, HOME" in its environment

  # 「加显式 env」
  @LA-SEC-17
  Scenario: the entry's env is added, and overrides the defaults
    Given a stdio MCP server "p" with tools "search"
    And the mcpServers option contains:
      """
      { "p": { "command": {{command}}, "args": {{args "p"}}, "env": { "LOG_LEVEL": "warn", "PATH": "/opt/la-test/bin" } } }
      """
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And every process of "p" had "LOG_LEVEL=warn" in its environment
    And every process of "p" had "PATH=/opt/la-test/bin" in its environment

  # 「stderr 被消费」
  @LA-SEC-18
  Scenario: a server flooding stderr never blocks
    Given a stdio MCP server "p" with tools "noisy" that writes 16 MiB to stderr before answering "server/discover"
    And the tool "noisy" of "p" writes 16 MiB to stderr before answering
    And the mcpServers option declares "p"
    And the model calls "mcp__p__noisy" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received a tool result containing "ok"

  # 「但不写日志」
  @LA-SEC-19
  Scenario: a server's stderr is never logged or shown
    Given a stdio MCP server "p" with tools "noisy" that writes "CANARY_STDERR_5d1" to stderr
    And the tool "noisy" of "p" writes 64 KiB to stderr before answering
    And the mcpServers option declares "p"
    And the model calls "mcp__p__noisy" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And "CANARY_STDERR_5d1" appears in no log, event, list() entry, model request or adapter output

  # 「显式配置 mcpTransports: ["stdio"]」 (interpretation A-18)
  @LA-SEC-21
  Scenario: mcpTransports ["stdio"] refuses http servers wherever they are declared
    Given a stdio MCP server "p" with tools "a"
    And an HTTP MCP server "h" with tools "b"
    And the agent option mcpTransports is "stdio"
    When "h" is declared as "h" through the mcpServers option
    Then it fails with a "config" error
    And "h" was never contacted

  @LA-SEC-21
  Scenario: mcpTransports ["stdio"] refuses registering an http server, and stdio still works
    Given a stdio MCP server "p" with tools "a"
    And an HTTP MCP server "h" with tools "b"
    And the agent option mcpTransports is "stdio"
    When the host creates the agent
    And the host registers "h"
    Then it fails with a "config" error
    And "h" was never contacted
    When the host registers "p"
    Then it succeeds
