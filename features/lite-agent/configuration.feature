@lite-agent
Feature: Configuration sources, file format and construction (LA-CFG)
  lite-agent reads persistent servers from <workdir>/.lite-agent/mcps.json and
  <home>/mcps.json (default ~/.lite-agent/mcps.json), plus the mcpServers
  option. createLiteAgent() only reads and validates; the first send() connects.

  # 「持久配置放在项目 <workdir>/.lite-agent/mcps.json」
  @LA-CFG-02
  Scenario: servers of the project configuration file connect at the first send
    Given a stdio MCP server "p" with tools "search, fetch"
    And the project configuration declares "p"
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And "p" was connected
    And the model was offered exactly the MCP tools "mcp__p__search, mcp__p__fetch"

  # 「个人通用配置放在 <home>/mcps.json（默认 ~/.lite-agent/mcps.json）」
  @LA-CFG-03
  Scenario: the global configuration file is ~/.lite-agent/mcps.json by default
    Given a stdio MCP server "g" with tools "find"
    And the global configuration declares "g"
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And "g" was connected
    And the model was offered exactly the MCP tools "mcp__g__find"

  @LA-CFG-03
  Scenario: a mcps.json directly under HOME is not read
    Given a stdio MCP server "g" with tools "find"
    And a stdio MCP server "real" with tools "lookup"
    And the file "~/mcps.json" declares "g"
    And the file "~/.lite-agent/mcps.json" declares "real"
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And "g" was never contacted
    And "real" was connected
    And the model was offered exactly the MCP tools "mcp__real__lookup"

  @LA-CFG-03 @adapter:home
  Scenario: the <home> option moves the global configuration file
    Given a stdio MCP server "g" with tools "find"
    And the lite-agent home is "~/custom-home"
    And the file "~/custom-home/mcps.json" declares "g"
    And the file "~/.lite-agent/mcps.json" declares nothing
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And "g" was connected

  # 「包装键与 Claude 的 mcpServers 对齐，但文件名是 lite-agent 的 mcps.json」
  @LA-CFG-04
  Scenario: the documented example file yields an http and a stdio server
    Given an HTTP MCP server "docs" with tools "search"
    And a stdio MCP server "files" with tools "read"
    And the project configuration file contains:
      """
      {
        "mcpServers": {
          "docs": {
            "type": "http",
            "url": "{{url "docs"}}"
          },
          "files": {
            "type": "stdio",
            "command": {{command}},
            "args": {{args "files"}},
            "env": { "LOG_LEVEL": "warn" }
          }
        }
      }
      """
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And "docs" was connected
    And "files" was connected
    And the model was offered exactly the MCP tools "mcp__docs__search, mcp__files__read"

  @LA-CFG-04
  Scenario: servers nested under another key never connect
    Given a stdio MCP server "p" with tools "search"
    And the project configuration file contains:
      """
      { "servers": { "p": {{entry "p"}} } }
      """
    And a stdio MCP server "g" with tools "find"
    And the global configuration declares "g"
    When the host creates the agent and sends "hello"
    Then the agent either refused the configuration with a "config" error or connected "g"
    And "p" was never contacted
    And the model was never offered any "mcp__p__" tool

  # 「不会读取 Claude 设置或根目录 .mcp.json」
  @LA-CFG-05
  Scenario: Claude settings and the root .mcp.json are never read
    Given a stdio MCP server "decoy" with tools "trap"
    And the file ".mcp.json" declares "decoy"
    And the file ".claude/settings.json" declares "decoy"
    And the file ".claude/settings.local.json" declares "decoy"
    And the file "~/.claude.json" declares "decoy"
    And the file "~/.claude/settings.json" declares "decoy"
    And a stdio MCP server "real" with tools "lookup"
    And the project configuration declares "real"
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And "decoy" was never contacted
    And "real" was connected
    And the approval handler was asked for "mcp_connect" 1 time
    And the model was offered exactly the MCP tools "mcp__real__lookup"

  # 「stdio 的 type 可以省略」
  @LA-CFG-06
  Scenario: a stdio entry may omit its type
    Given a stdio MCP server "p" with tools "search"
    And the project configuration file contains:
      """
      { "mcpServers": { "p": { "command": {{command}}, "args": {{args "p"}} } } }
      """
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And "p" was connected
    And the model was offered exactly the MCP tools "mcp__p__search"

  # 「http 必须显式声明」
  @LA-CFG-07
  Scenario Outline: an entry with a url but no type is refused (<source>)
    Given an HTTP MCP server "h" with tools "search"
    When the entry {"url": "{{url "h"}}"} is declared as "h" through <source>
    Then it fails with a "config" error
    And "h" was never contacted

    Examples:
      | source                      |
      | the project configuration   |
      | the global configuration    |
      | the mcpServers option       |
      | register()                  |

  # 「配置不支持变量插值」
  @LA-CFG-08
  Scenario: configuration values are never interpolated
    Given the host environment has "LA_CANARY" set to "s3cr3t-canary"
    And a stdio MCP server "p" with tools "search"
    And an HTTP MCP server "h" with tools "search"
    And the project configuration file contains:
      """
      {
        "mcpServers": {
          "p": {
            "command": {{command}},
            "args": {{args "p" "${LA_CANARY}"}},
            "env": { "X": "${LA_CANARY}", "Y": "$LA_CANARY" }
          },
          "h": {
            "type": "http",
            "url": "{{url "h"}}",
            "headers": { "X-T": "${LA_CANARY}" }
          }
        }
      }
      """
    When the host creates the agent and sends "hello"
    Then the agent either refused the configuration with a "config" error or connected "p, h"
    And "s3cr3t-canary" reached no MCP server
    And "p" saw the literal text "${LA_CANARY}" unless it was never contacted
    And "h" saw the literal text "${LA_CANARY}" unless it was never contacted

  # 「配置不支持变量插值」, in every source: "${X}" and "$X" are literal text
  # wherever an entry comes from.
  @LA-CFG-08
  Scenario Outline: configuration values are never interpolated (<what> through <source>)
    Given the host environment has "LA_CANARY" set to "s3cr3t-canary"
    And <a server> MCP server "s" with tools "search"
    When the entry <entry> is declared as "s" through <source>
    Then the agent either refused the configuration with a "config" error or connected "s"
    And "s3cr3t-canary" reached no MCP server
    And "s" saw the literal text "${LA_CANARY}" unless it was never contacted

    Examples:
      | what              | a server | source                    | entry                                                                                                           |
      | stdio args and env | a stdio  | the project configuration | {"command": {{command}}, "args": {{args "s" "${LA_CANARY}"}}, "env": {"X": "${LA_CANARY}", "Y": "$LA_CANARY"}} |
      | stdio args and env | a stdio  | the global configuration  | {"command": {{command}}, "args": {{args "s" "${LA_CANARY}"}}, "env": {"X": "${LA_CANARY}", "Y": "$LA_CANARY"}} |
      | stdio args and env | a stdio  | the mcpServers option     | {"command": {{command}}, "args": {{args "s" "${LA_CANARY}"}}, "env": {"X": "${LA_CANARY}", "Y": "$LA_CANARY"}} |
      | stdio args and env | a stdio  | register()                | {"command": {{command}}, "args": {{args "s" "${LA_CANARY}"}}, "env": {"X": "${LA_CANARY}", "Y": "$LA_CANARY"}} |
      | an HTTP header     | an HTTP  | the project configuration | {"type": "http", "url": "{{url "s"}}", "headers": {"X-T": "${LA_CANARY}"}}                                      |
      | an HTTP header     | an HTTP  | the global configuration  | {"type": "http", "url": "{{url "s"}}", "headers": {"X-T": "${LA_CANARY}"}}                                      |
      | an HTTP header     | an HTTP  | the mcpServers option     | {"type": "http", "url": "{{url "s"}}", "headers": {"X-T": "${LA_CANARY}"}}                                      |
      | an HTTP header     | an HTTP  | register()                | {"type": "http", "url": "{{url "s"}}", "headers": {"X-T": "${LA_CANARY}"}}                                      |

  # 「createLiteAgent() 只读取并校验配置」
  @LA-CFG-10
  Scenario Outline: invalid configuration fails construction, before anything starts (<case>)
    Given a stdio MCP server "p" with tools "search"
    And the project configuration file contains:
      """
      <file>
      """
    When the host creates the agent
    Then it fails with a "<kind>" error
    And "p" was never contacted
    And the approval handler was never asked anything

    Examples:
      | case                    | kind   | file                                                                                 |
      | malformed JSON          | config | { "mcpServers": { "p": {{entry "p"}}                                                 |
      | mcpServers not an object | config | { "mcpServers": ["p"] }                                                             |
      | invalid alias           | name   | { "mcpServers": { "p.q": {{entry "p"}} } }                                            |
      | stdio entry, no command | config | { "mcpServers": { "p": { "type": "stdio", "args": {{args "p"}} } } }                  |
      | timeoutMs out of range  | config | { "mcpServers": { "p": { "command": {{command}}, "args": {{args "p"}}, "timeoutMs": 0 } } } |

  # 「不启动服务器」
  @LA-CFG-11
  Scenario: construction starts no server and asks nothing
    Given a stdio MCP server "p" with tools "search"
    And an HTTP MCP server "h" with tools "search"
    And the project configuration declares "p"
    And the mcpServers option declares "h"
    When the host creates the agent
    And the host lists the servers
    Then it succeeds
    And "p" was never contacted
    And "h" was never contacted
    And the approval handler was never asked anything
    When the host sends "hello"
    Then "p" was connected
    And "h" was connected

  # 「首次 run() / send() 会在请求模型前完成连接授权、发现及校验」
  @LA-CFG-12
  Scenario: the first send authorizes, connects and discovers before asking the model
    Given a stdio MCP server "p" with tools "a, b, c" served 1 per page
    And the project configuration declares "p"
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And these happened in this order:
      | the approval handler was asked for "mcp_connect" of "p" |
      | "p" received its handshake                               |
      | "p" received its last "tools/list"                       |
      | the model received its first request                     |
    And the model's first request offered exactly the MCP tools "mcp__p__a, mcp__p__b, mcp__p__c"

  @LA-CFG-12
  Scenario: later sends reuse the connection
    Given a stdio MCP server "p" with tools "search"
    And the project configuration declares "p"
    When the host creates the agent
    And the host sends "hello"
    And the host sends "again"
    Then it succeeds
    And the approval handler was asked for "mcp_connect" 1 time
    And "p" was connected 1 time

  # 「没有 MCP 配置时不会连接任何服务器」
  @LA-CFG-13
  Scenario: without MCP configuration nothing is connected
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And the model was asked 1 time
    And the approval handler was never asked for "mcp_connect"
    And the model was offered no MCP tools

  # 「配置在构造时读取，不热加载」
  @LA-CFG-14
  Scenario: configuration files are read at construction only
    Given a stdio MCP server "old" with tools "a"
    And a stdio MCP server "new" with tools "b"
    And the global configuration declares "old"
    When the host creates the agent
    And the global configuration file is deleted
    And the file ".lite-agent/mcps.json" now declares "new"
    And the host sends "hello"
    Then it succeeds
    And "new" was never contacted
    And "old" was connected
    And the model was offered exactly the MCP tools "mcp__old__a"

  # 「忽略全局/项目文件，只使用显式配置」
  @LA-CFG-15
  Scenario: strictMcpConfig uses only the explicit configuration
    Given a stdio MCP server "a" with tools "x"
    And a stdio MCP server "b" with tools "y"
    And a stdio MCP server "c" with tools "z"
    And the global configuration declares "a"
    And the project configuration declares "b"
    And the mcpServers option declares "c"
    And the agent option strictMcpConfig is true
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And "a" was never contacted
    And "b" was never contacted
    And the model was offered exactly the MCP tools "mcp__c__z"

  @LA-CFG-15
  Scenario: under strictMcpConfig an invalid project file does not fail construction
    Given a stdio MCP server "c" with tools "z"
    And the project configuration file contains:
      """
      { this is not JSON
      """
    And the mcpServers option declares "c"
    And the agent option strictMcpConfig is true
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And the model was offered exactly the MCP tools "mcp__c__z"
