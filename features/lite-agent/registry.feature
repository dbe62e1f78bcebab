@lite-agent
Feature: One registry of servers (LA-REG)
  「三种入口共用一个注册表：文件、mcpServers 构造参数和 agent.mcp。」 Names merge,
  normalized duplicates collapse, conflicts are errors, list() is local and
  holds no credentials, unregister() closes, close() cancels and reclaims.

  # 「三种入口共用一个注册表」
  @LA-REG-01
  Scenario: files, the option and register() feed one registry
    Given a stdio MCP server "f" with tools "a"
    And a stdio MCP server "o" with tools "b"
    And an HTTP MCP server "r" with tools "c"
    And the project configuration declares "f"
    And the mcpServers option declares "o"
    When the host creates the agent
    And the host registers "r"
    Then it succeeds
    And list() shows exactly the servers "f, o, r"
    When the host sends "hello"
    Then the model was offered exactly the MCP tools "mcp__f__a, mcp__o__b, mcp__r__c"

  @LA-REG-01
  Scenario Outline: an entry is validated the same way whatever its source (<source>)
    Given an HTTP MCP server "h" with tools "search"
    When the entry {"type": "http", "url": "{{url "h"}}#fragment"} is declared as "h" through <source>
    Then it fails with a "security" error
    And "h" was never contacted

    Examples:
      | source                    |
      | the project configuration |
      | the mcpServers option     |
      | register()                |

  # 「不同名称合并」
  @LA-REG-02
  Scenario: servers of different names from every source are merged
    Given a stdio MCP server "g" with tools "a"
    And a stdio MCP server "p" with tools "b"
    And a stdio MCP server "o" with tools "c"
    And the global configuration declares "g"
    And the project configuration declares "p"
    And the mcpServers option declares "o"
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And "g" was connected
    And "p" was connected
    And "o" was connected
    And the model was offered exactly the MCP tools "mcp__g__a, mcp__p__b, mcp__o__c"

  # 「规范化后完全一致的配置去重」 (interpretation A-04: only trivially equal forms)
  @LA-REG-03
  Scenario: entries equal after normalization are kept once
    Given a stdio MCP server "s" with tools "a"
    And the global configuration file contains:
      """
      { "mcpServers": { "s": { "command": {{command}}, "args": {{args "s"}} } } }
      """
    And the project configuration file contains:
      """
      { "mcpServers": { "s": { "type": "stdio", "args": {{args "s"}}, "command": {{command}} } } }
      """
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And list() shows exactly the servers "s"
    And "s" was connected 1 time
    And the model was offered exactly the MCP tools "mcp__s__a"

  # 「同名不同配置报错，不隐式覆盖」
  @LA-REG-04
  Scenario Outline: one name with two different entries is an error (<first> and <second>)
    Given an HTTP MCP server "a" with tools "x"
    And an HTTP MCP server "b" with tools "y"
    And <first> declares "a" as "docs"
    And <second> declares "b" as "docs"
    When the host creates the agent
    Then it fails with a "conflict" error
    And "a" was never contacted
    And "b" was never contacted

    Examples:
      | first                       | second                      |
      | the global configuration    | the project configuration   |
      | the project configuration   | the mcpServers option       |

  # 「实例重复注册也报错」 (interpretation A-05: even an identical entry)
  @LA-REG-05
  Scenario: registering a name twice is an error and keeps the first
    Given a stdio MCP server "p" with tools "search"
    When the host creates the agent
    And the host registers "p" as "search"
    Then it succeeds
    When the host registers "p" as "search"
    Then it fails with a "conflict" error
    And list() is unchanged
    And "p" was connected 1 time
    And list() shows "search" with exactly the tools "mcp__search__search"

  @LA-REG-05
  Scenario: registering a name declared in a file is an error
    Given a stdio MCP server "f" with tools "a"
    And a stdio MCP server "other" with tools "b"
    And the project configuration declares "f"
    When the host creates the agent
    And the host sends "hello"
    And the host registers "other" as "f"
    Then it fails with a "conflict" error
    And list() is unchanged
    And "other" was never contacted

  # 「替换须先 unregister 再 register」
  @LA-REG-06
  Scenario: replacing a server is unregister then register
    Given a stdio MCP server "v1" with tools "old"
    And a stdio MCP server "v2" with tools "new"
    When the host creates the agent
    And the host registers "v1" as "search"
    And the host unregisters "search"
    And the host registers "v2" as "search"
    Then it succeeds
    And every process of "v1" has exited
    When the host sends "hello"
    Then the model was offered exactly the MCP tools "mcp__search__new"

  # 「register 返回时已完成授权、连接、发现及原子注册」
  @LA-REG-07
  Scenario: when register() returns, everything is done
    Given an HTTP MCP server "h" with tools "a, b, c, d, e" served 2 per page
    When the host creates the agent
    And the host registers "h" as "search"
    Then it succeeds
    And the approval handler was asked for "mcp_connect" of "search"
    And "h" received its handshake 1 time
    And "h" received "tools/list" 3 times
    And list() shows "search" with exactly the tools "mcp__search__a, mcp__search__b, mcp__search__c, mcp__search__d, mcp__search__e"

  # 「原子注册」
  @LA-REG-08
  Scenario Outline: a failed registration changes nothing and releases everything (<failure>)
    Given a stdio MCP server "bad" <failure>
    And a stdio MCP server "good" with tools "ok"
    When the host creates the agent
    And the host registers "bad" as "s" with timeoutMs 3000
    Then it fails with a "<kind>" error
    And list() is unchanged
    And every process of "bad" has exited
    When the host registers "good" as "s"
    Then it succeeds

    Examples:
      | failure                                    | kind       |
      | that exits on "tools/list"                 | transport  |
      | with tools "ok, bad.name"                  | name       |
      | with 129 tools                             | limit      |

    @adapter-lacks:clock
    Examples: in real time
      | failure                                    | kind       |
      | that never answers "tools/list"            | timeout    |

  # A registration that times out on the agent's clock.
  @LA-REG-08 @adapter:clock
  Scenario: a failed registration changes nothing and releases everything (it times out on the agent's clock)
    Given a stdio MCP server "bad" that never answers "tools/list"
    And a stdio MCP server "good" with tools "ok"
    And the agent's clock is under the host's control
    When the host creates the agent
    And the host registers "bad" as "s" with timeoutMs 3000 in the background
    And "bad" receives its handshake
    And the clock advances 3000 milliseconds
    Then the background operation ends with a "timeout" error
    And list() is unchanged
    And every process of "bad" has exited
    When the host registers "good" as "s"
    Then it succeeds

  @LA-REG-08
  Scenario: a denied connection registers nothing and starts nothing
    Given a stdio MCP server "p" with tools "search"
    And the approval handler denies "mcp_connect"
    When the host creates the agent
    And the host registers "p" as "s"
    Then it fails with a "permission" error
    And list() is unchanged
    And "p" was never contacted

  # 「本地状态、来源、工具名」 (the vocabulary is the adapter's mapping, A-22)
  @LA-REG-09 @adapter:list-normalize
  Scenario: list() shows each server's source, status and tools
    Given a stdio MCP server "g" with tools "a"
    And a stdio MCP server "p" with tools "b"
    And a stdio MCP server "o" with tools "c"
    And a stdio MCP server "i" with tools "d"
    And the global configuration declares "g"
    And the project configuration declares "p"
    And the mcpServers option declares "o"
    When the host creates the agent
    Then list() shows "g" from the "global" source with status "configured"
    And list() shows "p" from the "project" source with status "configured"
    And list() shows "o" from the "option" source with status "configured"
    When the host sends "hello"
    And the host registers "i"
    Then list() shows "g" from the "global" source with status "connected"
    And list() shows "p" from the "project" source with status "connected"
    And list() shows "o" from the "option" source with status "connected"
    And list() shows "i" from the "instance" source with status "connected"
    And list() shows "i" with exactly the tools "mcp__i__d"

  # 「不联网」
  @LA-REG-10
  Scenario: list() contacts no server, even when they are down
    Given a stdio MCP server "p" with tools "a"
    And an HTTP MCP server "h" with tools "b"
    And the project configuration declares "p"
    And the mcpServers option declares "h"
    When the host creates the agent
    And the host sends "hello"
    And the host lists the servers 10 times
    Then no MCP server received anything during the listing
    When the process of "p" is killed
    And the host lists the servers
    Then it succeeds
    And list() shows exactly the servers "p, h"

  # 「不返回凭证」
  @LA-REG-11
  Scenario: list() holds no credentials
    Given a stdio MCP server "p" with tools "a"
    And an HTTP MCP server "h" with tools "b"
    And the mcpServers option contains:
      """
      {
        "p": { "command": {{command}}, "args": {{args "p"}}, "env": { "TOKEN": "CANARY_ENV_7f3a" } },
        "h": { "type": "http", "url": "{{url "h"}}", "headers": { "Authorization": "Bearer CANARY_HDR_91c2" } }
      }
      """
    When the host creates the agent
    And the host sends "hello"
    Then it succeeds
    And list() shows "p" with exactly the tools "mcp__p__a"
    And list() shows "h" with exactly the tools "mcp__h__b"
    And list() contains neither "CANARY_ENV_7f3a" nor "CANARY_HDR_91c2"

  # 「关闭连接」
  @LA-REG-12
  Scenario: unregister() closes the connection and frees the name
    Given a stdio MCP server "p" with tools "a"
    And an HTTP MCP server "h" with tools "b"
    And the project configuration declares "p" as "search"
    And the mcpServers option declares "h"
    When the host creates the agent
    And the host sends "hello"
    And the host unregisters "search"
    Then it succeeds
    And every process of "p" has exited
    And list() shows exactly the servers "h"
    When the host sends "again"
    Then the model's last request offered exactly the MCP tools "mcp__h__b"

  # 「不修改配置文件」
  @LA-REG-13
  Scenario: unregister() leaves configuration files alone
    Given a stdio MCP server "p" with tools "a"
    And a stdio MCP server "g" with tools "b"
    And the project configuration declares "p"
    And the global configuration declares "g"
    When the host creates the agent
    And the host sends "hello"
    And the host unregisters "p"
    And the host unregisters "g"
    Then it succeeds
    And list() shows exactly the servers ""
    And the project configuration file is unchanged
    And the global configuration file is unchanged
    And no other file appeared under ".lite-agent"

  # 「close() 取消活动任务」
  @LA-REG-21
  Scenario: close() cancels a run with a call in flight
    Given a stdio MCP server "p" with tools "slow"
    And the tool "slow" of "p" never answers
    And the mcpServers option declares "p"
    And the model calls "mcp__p__slow" with {}
    When the host creates the agent
    And the host sends "go" in the background
    And "p" receives a call of the tool "slow"
    And the host closes the agent
    Then it succeeds
    And the background operation ends within 3 seconds with a "cancelled" or "closed" error
    And "p" received "notifications/cancelled"

  # 「回收自有客户端、订阅和直接子进程」
  @LA-REG-22
  Scenario: close() reclaims every server process and ends the agent
    Given a stdio MCP server "p" with tools "a"
    And a stdio MCP server "q" with tools "b"
    And the project configuration declares "p"
    And the mcpServers option declares "q"
    When the host creates the agent
    And the host sends "hello"
    And the host closes the agent
    Then it succeeds
    And every process of "p" has exited
    And every process of "q" has exited
    When the host sends "after close"
    Then it fails with a "closed" error

  # 「只有根 agent 可修改注册表」 (interpretation A-21)
  @LA-REG-14 @adapter:subagent
  Scenario: a sub-agent cannot register or unregister servers
    Given a stdio MCP server "p" with tools "a"
    And a stdio MCP server "q" with tools "b"
    And the mcpServers option declares "p"
    When the host creates the agent
    And the host sends "hello"
    And the host creates a sub-agent
    And the sub-agent registers "q"
    Then it fails
    And "q" was never contacted
    When the sub-agent unregisters "p"
    Then it fails
    And list() is unchanged
    And list() shows exactly the servers "p"

  # 「根和关联工作都必须空闲」 (X-13, A-21)
  @LA-REG-15
  Scenario Outline: <change> during a run is refused, and succeeds once the agent is idle
    Given a stdio MCP server "p" with tools "slow"
    And a stdio MCP server "q" with tools "b"
    And the tool "slow" of "p" waits for the latch "finish"
    And the mcpServers option declares "p"
    And the model calls "mcp__p__slow" with {}
    When the host creates the agent
    And the host sends "go" in the background
    And "p" receives a call of the tool "slow"
    And <action>
    Then it fails with a "busy" error
    And list() is unchanged
    When the latch "finish" is released
    And the background operation ends
    And the host waits until the agent is idle
    And <action>
    Then it succeeds

    Examples:
      | change       | action                   |
      | register()   | the host registers "q"   |
      | unregister() | the host unregisters "p" |

  # 「awaitIdle()」: it waits for the root's run in flight, and returns once
  # that ended.
  @LA-REG-15
  Scenario: awaitIdle() waits for the run in flight and returns after it
    Given a stdio MCP server "p" with tools "slow"
    And the tool "slow" of "p" waits for the latch "finish"
    And the mcpServers option declares "p"
    And the model calls "mcp__p__slow" with {}
    When the host creates the agent
    And the host sends "go" in the background
    And "p" receives a call of the tool "slow"
    And the host waits until the agent is idle, in the background
    Then the wait until the agent is idle is still running
    When the latch "finish" is released
    Then both background operations end successfully
    And the wait until the agent is idle ended after the latch "finish" was released

  @LA-REG-15 @adapter:subagent
  Scenario: the root cannot change the registry while a sub-agent runs
    Given a stdio MCP server "p" with tools "slow"
    And a stdio MCP server "q" with tools "b"
    And the tool "slow" of "p" waits for the latch "finish"
    And the mcpServers option declares "p"
    When the host creates the agent
    And the host sends "hello"
    And the host creates a sub-agent
    And the model calls "mcp__p__slow" with {}
    And the sub-agent sends "go" in the background
    And "p" receives a call of the tool "slow"
    And the host registers "q"
    Then it fails with a "busy" error
    And "q" was never contacted
    When the latch "finish" is released
    And the background operation ends
    And the host registers "q"
    Then it succeeds

  # 「Hook 内调用会立即拒绝」
  @LA-REG-16
  Scenario Outline: <call> inside a tool:start hook is rejected at once, and the run completes
    Given a stdio MCP server "p" with tools "a"
    And a stdio MCP server "q" with tools "b"
    And the mcpServers option declares "p"
    And the model calls "mcp__p__a" with {}
    And the "tool:start" hook calls <call>
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the hook's call was rejected within 100 milliseconds
    And "p" received a call of the tool "a"
    And "q" was never contacted
    And list() shows exactly the servers "p"

    Examples:
      | call                  |
      | register() for "q"    |
      | unregister() for "p"  |

  # 「子 agent 共享连接」
  @LA-REG-17 @adapter:subagent
  Scenario: a sub-agent calls tools over the root's connection
    Given a stdio MCP server "docs" with tools "search"
    And the mcpServers option declares "docs"
    When the host creates the agent
    And the host sends "hello"
    And the host creates a sub-agent
    And the model calls "mcp__docs__search" with {}
    And the sub-agent sends "go"
    Then it succeeds
    And "docs" received a call of the tool "search"
    And "docs" was connected 1 time

  # 「保留自己的工具白名单」
  @LA-REG-18 @adapter:subagent
  Scenario: a sub-agent keeps its own allowlist
    Given a stdio MCP server "docs" with tools "search, fetch"
    And the mcpServers option declares "docs"
    When the host creates the agent
    And the host sends "hello"
    And the host creates a sub-agent with allowedTools "mcp__docs__fetch"
    And the sub-agent sends "hello"
    Then it succeeds
    And the model's first request offered exactly the MCP tools "mcp__docs__fetch, mcp__docs__search"
    And the model's last request offered exactly the MCP tools "mcp__docs__fetch"

  # 「更严格的权限」
  @LA-REG-19 @adapter:subagent
  Scenario: a sub-agent's stricter policy wins over its root's
    Given a stdio MCP server "docs" with tools "search"
    And the mcpServers option declares "docs"
    And the permission policy allows "mcp_connect, mcp__*"
    When the host creates the agent
    And the host sends "hello"
    And the host creates a sub-agent whose policy denies "mcp__*"
    And the model calls "mcp__docs__search" with {}
    And the sub-agent sends "go"
    Then it succeeds
    And "docs" received no call
    And the model received a tool error

  @LA-REG-19 @adapter:subagent
  Scenario: a sub-agent cannot loosen what its root denies
    Given a stdio MCP server "docs" with tools "search"
    And the mcpServers option declares "docs"
    And the permission policy allows "mcp_connect" and denies "mcp__docs__search"
    When the host creates the agent
    And the host sends "hello"
    And the host creates a sub-agent whose policy allows "mcp__*"
    And the model calls "mcp__docs__search" with {}
    And the sub-agent sends "go"
    Then it succeeds
    And "docs" received no call
    And the model received a tool error

  # 「关闭子 agent 不关闭根连接」
  @LA-REG-20 @adapter:subagent
  Scenario Outline: closing a sub-agent leaves the root's <transport> connection open
    Given <server>
    And the mcpServers option declares "docs"
    When the host creates the agent
    And the host sends "hello"
    And the host creates a sub-agent
    And the host closes the sub-agent
    And the model calls "mcp__docs__search" with {}
    And the host sends "go"
    Then it succeeds
    And "docs" received a call of the tool "search"
    And "docs" was connected 1 time
    And "docs" received no HTTP "DELETE" request

    Examples:
      | transport | server                                        |
      | stdio     | a stdio MCP server "docs" with tools "search" |
      | HTTP      | an HTTP MCP server "docs" with tools "search" |
