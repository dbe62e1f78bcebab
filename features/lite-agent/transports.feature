@lite-agent
Feature: Protocol version, transports and the stdio process model (LA-TRN)
  「明确固定 MCP 2026-07-28。支持 stdio 和 Streamable HTTP；不支持旧服务器、旧 SSE 传输或协议自动降级。」

  # 「明确固定 MCP 2026-07-28」
  @LA-TRN-01
  Scenario Outline: every request asks for MCP 2026-07-28 (<transport>)
    Given <a transport> MCP server "p" with tools "search"
    And the mcpServers option declares "p"
    And the model calls "mcp__p__search" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And "p" received a call of the tool "search"
    And every request "p" received asked for protocol version "2026-07-28"

    Examples:
      | transport | a transport |
      | stdio     | a stdio     |
      | http      | an HTTP     |

  @LA-TRN-01
  Scenario: HTTP requests carry the MCP-Protocol-Version header
    Given an HTTP MCP server "h" with tools "search"
    And the mcpServers option declares "h"
    And the model calls "mcp__h__search" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And every HTTP request "h" received after its handshake carried the header "MCP-Protocol-Version: 2026-07-28"

  # 「不支持旧服务器……或协议自动降级」
  @LA-TRN-02
  Scenario Outline: a server that speaks only <version> is refused, never downgraded to (<transport>)
    Given <a transport> MCP server "old" with tools "search" speaking only protocol "<version>"
    When "old" is declared as "old" through register()
    Then it fails with a "protocol" error
    And every request "old" received asked for protocol version "2026-07-28"
    And list() is unchanged
    When the host sends "hello"
    Then the model was never offered any "mcp__old__*" tool

    Examples:
      | version    | transport | a transport |
      | 2025-06-18 | stdio     | a stdio     |
      | 2024-11-05 | stdio     | a stdio     |
      | 2025-06-18 | http      | an HTTP     |
      | 2024-11-05 | http      | an HTTP     |

  # go-sdk's own server in its stateful HTTP mode is a real server of the
  # older protocols: its server/discover answer offers only them.
  @LA-TRN-02
  Scenario: a real older server (go-sdk's stateful HTTP mode) is refused with a protocol error
    Given an HTTP MCP server "old" with tools "search" served by go-sdk's stateful HTTP handler
    When "old" is declared as "old" through register()
    Then it fails with a "protocol" error
    And "old" received "server/discover"
    And "old" received none of "initialize"
    And list() is unchanged

  @LA-TRN-02
  Scenario: an HTTP server that refuses server/discover with HTTP 400 is refused with a protocol error
    Given an HTTP MCP server "old" with tools "search"
    And "old" answers its next "server/discover" request with HTTP 400 and the body "unknown method"
    When "old" is declared as "old" through register()
    Then it fails with a "protocol" error
    And "old" received "server/discover"
    And "old" received none of "initialize"
    And list() is unchanged

  # 「支持 stdio 和 Streamable HTTP」
  @LA-TRN-03
  Scenario Outline: stdio and Streamable HTTP servers connect, list and call (<kind>)
    Given <server>
    And the mcpServers option declares "p"
    And the model calls "mcp__p__search" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And "p" was connected
    And "p" received a call of the tool "search"
    And the model received a tool result containing "ok"

    Examples:
      | kind                          | server                                                           |
      | stdio                         | a stdio MCP server "p" with tools "search"                       |
      | HTTP answering event streams  | an HTTP MCP server "p" with tools "search"                       |
      | HTTP answering JSON           | an HTTP MCP server "p" with tools "search" answering with JSON   |

  # 「不支持……旧 SSE 传输」
  @LA-TRN-04
  Scenario Outline: the legacy SSE transport type is refused (<source>)
    Given an HTTP MCP server "h" with tools "search"
    When the entry {"type": "sse", "url": "{{url "h"}}"} is declared as "h" through <source>
    Then it fails with a "config" error
    And "h" was never contacted

    Examples:
      | source                    |
      | the project configuration |
      | the mcpServers option     |
      | register()                |

  # 「不支持……协议自动降级」: no fallback to HTTP+SSE
  @LA-TRN-05
  Scenario: a legacy HTTP+SSE server is refused without falling back to it
    Given an HTTP MCP server "legacy" with tools "search" that only speaks the legacy HTTP+SSE transport
    When "legacy" is declared as "legacy" through register()
    Then it fails
    And "legacy" received no HTTP "GET" request
    And list() is unchanged

  # 「本版支持显式 HTTP headers」
  @LA-TRN-06
  Scenario Outline: configured headers go with every request (<source>)
    Given an HTTP MCP server "h" with tools "search"
    And the model calls "mcp__search__search" with {}
    When the entry {"type": "http", "url": "{{url "h"}}", "headers": {"Authorization": "Bearer T-7", "X-Extra": "1"}, "timeoutMs": 30000} is declared as "search" through <source>
    And the host sends "go"
    Then "h" received a call of the tool "search"
    And every HTTP request "h" received carried the header "Authorization: Bearer T-7"
    And every HTTP request "h" received carried the header "X-Extra: 1"

    Examples:
      | source                |
      | the mcpServers option |
      | register()            |

  # A header HTTP cannot send as configured is refused when it is declared
  # (interpretation A-41); every token character may name one.
  @LA-TRN-06
  Scenario: a header name may use every character of an HTTP token
    Given an HTTP MCP server "h" with tools "search"
    And the model calls "mcp__search__search" with {}
    When the entry {"type": "http", "url": "{{url "h"}}", "headers": {"X-AZaz09!#$%&'*+-.^_`|~": "token"}} is declared as "search" through register()
    Then it succeeds
    When the host sends "go"
    Then "h" received a call of the tool "search"
    And every HTTP request "h" received carried the header "X-AZaz09!#$%&'*+-.^_`|~: token"

  @LA-TRN-06 @ambiguous:A-41
  Scenario: a header name with any other character is refused at declaration, before any request
    Given an HTTP MCP server "h" with tools "search"
    When "h" is declared through register() with every header name that puts one character outside the HTTP token characters into "X-ab"
    Then every one of them fails with a "security" or a "config" error
    And "h" was never contacted
    And list() is unchanged

  @LA-TRN-06
  Scenario: a header value may hold every printable ASCII character, a space and a tab
    Given an HTTP MCP server "h" with tools "search"
    And the model calls "mcp__search__search" with {}
    When "h" is declared as "search" through register() with the header "X-Printable" holding every printable ASCII character, a space and a tab
    Then it succeeds
    When the host sends "go"
    Then "h" received a call of the tool "search"
    And every HTTP request "h" received carried that header

  @LA-TRN-06 @ambiguous:A-41
  Scenario: a header value with a control character, or whitespace at an end, is refused at declaration
    Given an HTTP MCP server "h" with tools "search"
    When "h" is declared through register() with every header value HTTP cannot carry as it is, made from "ab"
    Then every one of them fails with a "security" or a "config" error
    And "h" was never contacted
    And list() is unchanged

  # 「暂不提供……资源/提示词自动加载」
  @LA-TRN-07
  Scenario: resources and prompts are never loaded
    Given a stdio MCP server "p" with tools "search" offering resources "notes, todo" and prompts "review"
    And the mcpServers option declares "p"
    And the model calls "mcp__p__search" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And "p" received a call of the tool "search"
    And "p" received none of "resources/list, resources/read, resources/templates/list, resources/subscribe, prompts/list, prompts/get"

  # 「暂不提供……sampling、roots、elicitation」
  @LA-TRN-08
  Scenario: sampling, roots and elicitation are neither offered nor served
    Given a stdio MCP server "p" with tools "ask"
    And the tool "ask" of "p" asks the client for "sampling/createMessage, roots/list, elicitation/create"
    And the mcpServers option declares "p"
    And the model calls "mcp__p__ask" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the handshakes "p" received declared none of the client capabilities "sampling, roots, elicitation"
    And the client answered "p"'s "sampling/createMessage" with an error
    And the client answered "p"'s "roots/list" with an error
    And the client answered "p"'s "elicitation/create" with an error
    And the model was asked 2 times
    And the approval handler was asked 2 times

  # 「会先运行一次临时探测进程，再启动实际进程；两次使用同一沙箱命令」 (interpretation A-25)
  @LA-TRN-10 @impl-detail
  Scenario: a stdio connection runs a probe process, then the actual process, with the same command
    Given a stdio MCP server "p" with tools "search"
    And the model calls "mcp__p__search" with {}
    When the host creates the agent
    And the host registers "p"
    Then it succeeds
    And "p" was started 2 times with the same command line, directory and environment
    And the first process of "p" had exited when that returned
    When the host sends "go"
    Then only the last process of "p" received "tools/call"

  # 「官方传输负责直接子进程关闭」: within 5 s of the agent's clock, which the
  # host moves once the server saw its stdin close: the probe's, during
  # registration, then the actual process's.
  @LA-TRN-12 @adapter:clock
  Scenario Outline: every process of a stdio server ends with its connection, on the agent's clock (<how>)
    Given a stdio MCP server "p" with tools "a" that keeps running when its stdin closes
    And the agent's clock is under the host's control
    When the host creates the agent
    And the host registers "p" in the background
    And the stdin of 1 process of "p" has closed
    And the clock advances 5 seconds
    Then the background operation ends
    And it succeeds
    When <how> in the background
    And the stdin of 2 processes of "p" have closed
    And the clock advances 5 seconds
    Then the background operation ends
    And it succeeds
    And every process of "p" has exited

    Examples:
      | how                        |
      | the host unregisters "p"   |
      | the host closes the agent  |

  # The same in real time, for an adapter without the clock.
  @LA-TRN-12
  Scenario Outline: every process of a stdio server ends with its connection (<how>)
    Given a stdio MCP server "p" with tools "a" that keeps running when its stdin closes
    When the host creates the agent
    And the host registers "p"
    And <how>
    Then it succeeds
    And every process of "p" has exited

    @adapter-lacks:clock
    Examples:
      | how                        |
      | the host unregisters "p"   |
      | the host closes the agent  |
