@lite-agent
Feature: The session archive and context references (LA-ARC)
  「超过 16 KiB 的投影及媒体/嵌入资源存入会话归档，模型只接收 context({ref, offset}) 引用。」

  # 「超过 16 KiB 的投影……存入会话归档」 (interpretation A-10: margins away from the boundary)
  @LA-ARC-01
  Scenario Outline: a <size> result is <where>
    Given a stdio MCP server "p" with tools "t"
    And the tool "t" of "p" answers with a marked text of <size>
    And the mcpServers option declares "p"
    And the model calls "mcp__p__t" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model was given the marked text of "t" <where>

    Examples:
      | size   | where             |
      | 15 KiB | inline            |
      | 17 KiB | only by reference |
      | 1 MiB  | only by reference |

  # The exact boundary, measured with the adapter's projection (interpretation A-10)
  @LA-ARC-01 @adapter:projection @boundary-exact
  Scenario Outline: a projection of <bytes> bytes is <where>
    When the host creates the agent
    And the host projects a text result whose projection has exactly <bytes> bytes
    Then the projection is <where>

    Examples:
      | bytes | where    |
      | 16384 | inline   |
      | 16385 | archived |

  # 「媒体……存入会话归档」
  @LA-ARC-02
  Scenario: images and audio are archived whatever their size, and their data never reaches the model
    Given a stdio MCP server "p" with tools "t"
    And the tool "t" of "p" answers with the result {"content":[{"type":"image","data":"TEEtQVJDLWltYWdlLWNhbmFyeS05Zg==","mimeType":"image/png"},{"type":"audio","data":"TEEtQVJDLWF1ZGlvLWNhbmFyeS0yYg==","mimeType":"audio/wav"}]}
    And the mcpServers option declares "p"
    And the model calls "mcp__p__t" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And no model request contained "TEEtQVJDLWltYWdlLWNhbmFy"
    And no model request contained "TEEtQVJDLWF1ZGlvLWNhbmFy"
    And no model request contained "LA-ARC-image-canary-9f"
    And the "image" and "audio" items the model received were archived

  # 「嵌入资源」
  @LA-ARC-03
  Scenario: embedded resources are archived whatever their size, and never inline
    Given a stdio MCP server "p" with tools "t"
    And the tool "t" of "p" answers with the result {"content":[{"type":"resource","resource":{"uri":"la-test://r/1","mimeType":"text/plain","text":"LA-ARC-resource-canary-4c"}},{"type":"resource","resource":{"uri":"la-test://r/2","mimeType":"application/octet-stream","blob":"TEEtQVJDLWJsb2ItY2FuYXJ5LTdl"}}]}
    And the mcpServers option declares "p"
    And the model calls "mcp__p__t" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And no model request contained "LA-ARC-resource-canary-4c"
    And no model request contained "TEEtQVJDLWJsb2ItY2FuYXJ5LTdl"
    And the "resource" items the model received were archived

  # 「模型只接收 context({ref, offset}) 引用」 (interpretation A-26: the adapter parses the reference)
  @LA-ARC-04 @adapter:context-ref
  Scenario: for an archived result the model receives a context reference and none of its bytes
    Given a stdio MCP server "p" with tools "t"
    And the tool "t" of "p" answers with a marked text of 40 KiB
    And the mcpServers option declares "p"
    And the model calls "mcp__p__t" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received a context reference for the result of "t"
    And the model was given the marked text of "t" only by reference

  @LA-ARC-05 @adapter:context-ref
  Scenario: the model reads an archived result back through the context tool, from the offsets it asks for
    Given a stdio MCP server "p" with tools "t"
    And the tool "t" of "p" answers with a marked text of 40 KiB
    And the mcpServers option declares "p"
    And the model calls "mcp__p__t" with {}
    And the model reads the archive with the reference it received, at offset 0
    And the model reads the archive with the reference it received, at offset 9000
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the context read at offset 0 began with the start of the marked text of "t"
    And the context read at offset 9000 began about 9000 bytes into the archived result of "t"

  # What a reference points to is what the server sent: the model reads
  # every archived item back, from its reference's offset, following each
  # page's next to the last (interpretation A-42).
  @LA-ARC-02 @LA-ARC-03 @LA-ARC-05 @adapter:context-ref @ambiguous:A-42
  Scenario Outline: archived media and embedded resources read back byte for byte (<content> of <size>)
    Given a stdio MCP server "p" with tools "t"
    And the tool "t" of "p" returns <content> of <size>
    And the mcpServers option declares "p"
    And the model calls "mcp__p__t" with {}
    And the model reads back everything archived in the result of "t", following next to the end
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And everything archived in the result of "t" read back through the context tool is what "p" sent, byte for byte

    Examples:
      | content                                                      | size     |
      | an image, an audio clip, a text resource and a blob resource | 64 bytes |
      | an image, an audio clip, a text resource and a blob resource | 40 KiB   |
      | an image                                                     | 64 bytes |
      | a text resource                                              | 40 KiB   |

  @LA-ARC-01 @LA-ARC-05 @adapter:context-ref @ambiguous:A-42
  Scenario Outline: an archived result reads back to its end, page after page (<text>)
    Given a stdio MCP server "p" with tools "t"
    And the tool "t" of "p" <answers>
    And the mcpServers option declares "p"
    And the model calls "mcp__p__t" with {}
    And the model reads back everything archived in the result of "t", following next to the end
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And everything archived in the result of "t" read back through the context tool is what "p" sent, byte for byte

    Examples:
      | text                                   | answers                                                            |
      | a marked text of 40 KiB                | answers with a marked text of 40 KiB                               |
      | characters of every UTF-8 length       | returns a text of 64 KiB in characters of every UTF-8 length       |

  # A read the archive cannot serve is a tool error, and the run goes on
  # (interpretation A-42)
  @LA-ARC-05 @adapter:context-ref @ambiguous:A-42
  Scenario: reading a reference never given, or past the end of one, is a tool error
    Given a stdio MCP server "p" with tools "t"
    And the tool "t" of "p" answers with a marked text of 40 KiB
    And the mcpServers option declares "p"
    And the model calls "mcp__p__t" with {}
    And the model reads the archive with the reference it received, at offset 1000000000
    And the model calls "context" with {"ref": "mcpconform-no-such-reference", "offset": 0}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model received 2 tool errors
