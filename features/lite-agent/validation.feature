@lite-agent
Feature: Validating tool input and output, and the JSON projection (LA-VAL)
  「输入使用官方 JSON Schema 校验，输出按服务器声明的 output schema 校验。isError 保留为工具错误；
  文本、资源链接和 structuredContent（包括标量）保存在 JSON 投影中。」

  # 「输入使用官方 JSON Schema 校验」
  @LA-VAL-01
  Scenario Outline: arguments that break the input schema (<broken>) never reach the server
    Given a stdio MCP server "p" with tools "t"
    And the tool "t" of "p" has the input schema {"type":"object","properties":{"n":{"type":"integer","minimum":1},"s":{"type":"string","pattern":"^a","enum":["ab","ac"]}},"required":["n"],"additionalProperties":false}
    And the mcpServers option declares "p"
    And the model calls "mcp__p__t" with <args>
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received a tool error
    And "p" received no call

    Examples:
      | broken                 | args             |
      | a wrong type           | {"n":"x"}        |
      | a missing field        | {}               |
      | an extra property      | {"n":1,"z":true} |
      | a value under minimum  | {"n":0}          |
      | a pattern mismatch     | {"n":1,"s":"ba"} |
      | a value outside enum   | {"n":1,"s":"ad"} |

  @LA-VAL-01
  Scenario: valid arguments reach the server unchanged
    Given a stdio MCP server "p" with tools "t"
    And the tool "t" of "p" has the input schema {"type":"object","properties":{"n":{"type":"integer","minimum":1},"s":{"type":"string","pattern":"^a"}},"required":["n"],"additionalProperties":false}
    And the mcpServers option declares "p"
    And the model calls "mcp__p__t" with {"n":2,"s":"ab"}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And "p" received a call of the tool "t" with the arguments {"n":2,"s":"ab"}

  # 「无效 schema 使整个候选注册失败，释放连接」
  @LA-VAL-02
  Scenario Outline: a server with <broken> fails its registration and is released
    Given a stdio MCP server "p" with tools "good, bad"
    And the tool "bad" of "p" has the <which> schema <schema>
    When the host creates the agent
    And the host registers "p"
    Then it fails with a "validation" error
    And every process of "p" has exited
    And list() shows 0 servers

    Examples:
      | broken                              | which  | schema                                        |
      | properties that are not an object   | input  | {"type":"object","properties":5}              |
      | required that is not an array       | input  | {"type":"object","required":"x"}              |
      | a root that is not an object schema | input  | {"type":"string"}                             |
      | a malformed output schema           | output | {"type":"object","properties":{"n":{"type":7}}} |

  # 「输出按服务器声明的 output schema 校验」 (interpretation A-15: isError results are not checked)
  @LA-VAL-03
  Scenario Outline: a result that breaks the output schema (<result>) is a tool error
    Given a stdio MCP server "p" with tools "t"
    And the tool "t" of "p" has the output schema {"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}
    And the tool "t" of "p" answers with <result>
    And the mcpServers option declares "p"
    And the model calls "mcp__p__t" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received <outcome>

    Examples:
      | result                                                                                  | outcome                        |
      | the result {"content":[{"type":"text","text":"n is x"}],"structuredContent":{"n":"x"}} | a tool error                   |
      | the result {"content":[{"type":"text","text":"no structure"}]}                          | a tool error                   |
      | the result {"content":[{"type":"text","text":"n is 1"}],"structuredContent":{"n":1}}   | a tool result containing "n is 1" |

  # 「isError 保留为工具错误」
  @LA-VAL-04
  Scenario: isError stays a tool error, in tool:end and for the model, and the run goes on
    Given a stdio MCP server "p" with tools "t"
    And the tool "t" of "p" answers with the error "la-boom-8d"
    And the mcpServers option declares "p"
    And the model calls "mcp__p__t" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received a tool error containing "la-boom-8d"
    And the "tool:end" hook was called for "mcp__p__t" with an error
    And the model was asked 2 times

  # 「文本……保存在 JSON 投影中」 (interpretation A-26: the adapter parses the projection)
  @LA-VAL-05 @adapter:projection
  Scenario: text is kept in the JSON projection the model receives
    Given a stdio MCP server "p" with tools "t"
    And the tool "t" of "p" answers with the text "la-hello-3a"
    And the mcpServers option declares "p"
    And the model calls "mcp__p__t" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received a projection with a "text" item "la-hello-3a"

  # 「资源链接……保存在 JSON 投影中」
  @LA-VAL-06 @adapter:projection
  Scenario: a resource link is kept in the projection, with its URI and name
    Given a stdio MCP server "p" with tools "t"
    And the tool "t" of "p" answers with the result {"content":[{"type":"resource_link","uri":"la-test://docs/readme","name":"la-readme-71"}]}
    And the mcpServers option declares "p"
    And the model calls "mcp__p__t" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received a projection with a "resource_link" item "la-test://docs/readme" named "la-readme-71"

  # 「structuredContent（包括标量）」 (interpretation A-16: null is ambiguous and not tested)
  @LA-VAL-07 @adapter:projection
  Scenario Outline: structuredContent <value> is kept with its JSON type
    Given a stdio MCP server "p" with tools "t"
    And the tool "t" of "p" answers with the result {"content":[],"structuredContent":<value>}
    And the mcpServers option declares "p"
    And the model calls "mcp__p__t" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received a projection whose structuredContent is <value>

    Examples:
      | value      |
      | {"a":1}    |
      | 42         |
      | "s"        |
      | true       |

  # A malformed result never crashes the run
  @LA-VAL-05
  Scenario: a result with an unknown content type is a tool error, and the run goes on
    Given a stdio MCP server "p" with tools "t, u"
    And the tool "t" of "p" answers with the result {"content":[{"type":"hologram","data":"??"}]}
    And the mcpServers option declares "p"
    And the model calls "mcp__p__t" with {}
    And the model calls "mcp__p__u" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received a tool error
    And "p" received a call of the tool "u"
