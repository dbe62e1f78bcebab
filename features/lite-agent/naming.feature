@lite-agent
Feature: Tool naming (LA-NAME)
  「工具名为 mcp__<server>__<tool>，例如 mcp__docs__search。服务器别名限 1–24 个字母、
  数字、下划线或连字符，不能含 __；完整工具名限 64 个相同字符。无效名称、重名和无效 schema
  使整个候选注册失败，释放连接。」

  @LA-NAME-01
  Scenario: an MCP tool is offered, authorized and listed as mcp__<server>__<tool>
    Given a stdio MCP server "p" with tools "search"
    And the mcpServers option declares "p" as "docs"
    And the model calls "mcp__docs__search" with {"q": "x"}
    When the host creates the agent
    And the host sends "find it"
    Then it succeeds
    And the model was offered exactly the MCP tools "mcp__docs__search"
    And the approval handler was asked for "mcp__docs__search"
    And "p" received a call of the tool "search"
    And list() shows "docs" with exactly the tools "mcp__docs__search"

  @LA-NAME-02
  Scenario Outline: a server alias has 1 to 24 characters ("<alias>" through <source>)
    Given an HTTP MCP server "h" with tools "search"
    When "h" is declared as "<alias>" through <source>
    Then it <outcome>
    And <evidence>

    Examples:
      | alias                     | source                    | outcome                    | evidence                                                                                        |
      |                           | register()                | fails with a "name" error  | "h" was never contacted                                                                         |
      | a                         | register()                | succeeds                   | list() shows "a" with exactly the tools "mcp__a__search"                                        |
      | aaaaaaaaaaaaaaaaaaaaaaaa  | register()                | succeeds                   | list() shows "aaaaaaaaaaaaaaaaaaaaaaaa" with exactly the tools "mcp__aaaaaaaaaaaaaaaaaaaaaaaa__search" |
      | aaaaaaaaaaaaaaaaaaaaaaaaa | register()                | fails with a "name" error  | "h" was never contacted                                                                         |
      |                           | the mcpServers option     | fails with a "name" error  | "h" was never contacted                                                                         |
      | aaaaaaaaaaaaaaaaaaaaaaaa  | the mcpServers option     | succeeds                   | list() shows "aaaaaaaaaaaaaaaaaaaaaaaa" with exactly the tools "mcp__aaaaaaaaaaaaaaaaaaaaaaaa__search" |
      | aaaaaaaaaaaaaaaaaaaaaaaaa | the mcpServers option     | fails with a "name" error  | "h" was never contacted                                                                         |
      | a                         | the project configuration | succeeds                   | list() shows "a" with exactly the tools "mcp__a__search"                                        |
      | aaaaaaaaaaaaaaaaaaaaaaaaa | the project configuration | fails with a "name" error  | "h" was never contacted                                                                         |

  @LA-NAME-02
  Scenario: a rejected alias starts nothing and asks nothing
    Given an HTTP MCP server "h" with tools "search"
    When "h" is declared as "aaaaaaaaaaaaaaaaaaaaaaaaa" through register()
    Then it fails with a "name" error
    And "h" was never contacted
    And the approval handler was never asked anything
    And list() is unchanged

  @LA-NAME-03
  Scenario Outline: an alias uses only letters, digits, "_" and "-" ("<alias>")
    Given an HTTP MCP server "h" with tools "search"
    When "h" is declared as "<alias>" through register()
    Then it <outcome>
    And <evidence>

    Examples:
      | alias    | outcome                   | evidence                                                       |
      | Docs-1_x | succeeds                  | list() shows "Docs-1_x" with exactly the tools "mcp__Docs-1_x__search" |
      | A        | succeeds                  | list() shows "A" with exactly the tools "mcp__A__search"       |
      | 9        | succeeds                  | list() shows "9" with exactly the tools "mcp__9__search"       |
      | -a       | succeeds                  | list() shows "-a" with exactly the tools "mcp__-a__search"     |
      | a.b      | fails with a "name" error | "h" was never contacted                                        |
      | a b      | fails with a "name" error | "h" was never contacted                                        |
      | a/b      | fails with a "name" error | "h" was never contacted                                        |
      | a:b      | fails with a "name" error | "h" was never contacted                                        |
      | a@b      | fails with a "name" error | "h" was never contacted                                        |

  # 「字母、数字、下划线或连字符」: the whole set, each letter of both cases and
  # each digit, in three aliases of at most 24 characters
  @LA-NAME-03
  Scenario Outline: every letter, digit, "_" and "-" may be part of an alias ("<alias>")
    Given an HTTP MCP server "h" with tools "t"
    And the model calls "mcp__<alias>__t" with {}
    When "h" is declared as "<alias>" through register()
    Then it succeeds
    When the host sends "go"
    Then the model was offered exactly the MCP tools "mcp__<alias>__t"
    And "h" received a call of the tool "t"

    Examples:
      | alias                    |
      | ABCDEFGHIJKLMNOPQRSTUVWX |
      | YZabcdefghijklmnopqrstuv |
      | wxyz0123456789_-         |

  # Every other ASCII character, controls included, and non-ASCII letters
  # that fold to ASCII ones (interpretation A-06)
  @LA-NAME-03
  Scenario: an alias with any other character is refused, and nothing is contacted
    Given an HTTP MCP server "h" with tools "t"
    When "h" is declared through register() under every alias that puts one character other than a letter, a digit, "_" or "-" into "ab"
    Then every one of them fails with a "name" error
    And "h" was never contacted
    And list() is unchanged

  # Non-ASCII letters are refused (interpretation A-06).
  @LA-NAME-03 @ambiguous:A-06
  Scenario Outline: an alias with non-ASCII letters is refused (<alias>)
    Given an HTTP MCP server "h" with tools "search"
    When "h" is declared as "<alias>" through the mcpServers option
    Then it fails with a "name" error

    Examples:
      | alias |
      | 文档  |
      | é     |

  @LA-NAME-04
  Scenario Outline: an alias never contains "__" (<alias>)
    Given an HTTP MCP server "h" with tools "search"
    When "h" is declared as "<alias>" through register()
    Then it <outcome>
    And <evidence>

    Examples:
      | alias | outcome                   | evidence                                                 |
      | a__b  | fails with a "name" error | "h" was never contacted                                  |
      | __a   | fails with a "name" error | "h" was never contacted                                  |
      | a__   | fails with a "name" error | "h" was never contacted                                  |
      | ___   | fails with a "name" error | "h" was never contacted                                  |
      | a_b   | succeeds                  | list() shows "a_b" with exactly the tools "mcp__a_b__search"     |
      | a_b_c | succeeds                  | list() shows "a_b_c" with exactly the tools "mcp__a_b_c__search" |

  @LA-NAME-05
  Scenario Outline: a full tool name has at most 64 characters (<alias>, <length>-character tool)
    Given a stdio MCP server "p" with a tool whose name has <length> characters
    When "p" is declared as "<alias>" through register()
    Then it <outcome>
    And <evidence>

    Examples:
      | alias                    | length | outcome                   | evidence                           |
      | docs                     | 53     | succeeds                  | list() shows "docs" with 1 tools   |
      | docs                     | 54     | fails with a "name" error | list() shows exactly the servers "" |
      | abcdefghijklmnopqrstuvwx | 33     | succeeds                  | list() shows "abcdefghijklmnopqrstuvwx" with 1 tools |
      | abcdefghijklmnopqrstuvwx | 34     | fails with a "name" error | list() shows exactly the servers "" |

  # Every length up to the limit reaches the model whole, and a call of it
  # reaches the tool it names: the two tools differ in their last character.
  @LA-NAME-05
  Scenario Outline: a full name of <length> characters reaches the model and its server intact (<alias>)
    Given a stdio MCP server "p" with tools "<first>, <second>"
    And the full tool names "mcp__<alias>__<first>, mcp__<alias>__<second>" have <length> characters each
    And the mcpServers option declares "p" as "<alias>"
    And the model calls "mcp__<alias>__<second>" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model was offered exactly the MCP tools "mcp__<alias>__<first>, mcp__<alias>__<second>"
    And "p" received 1 call of the tool "<second>"
    And "p" received 0 calls of the tool "<first>"

    Examples:
      | alias                    | length | first                                                    | second                                                   |
      | docs                     | 38     | Tool0123456789abcdefghijkl1                              | Tool0123456789abcdefghijkl2                              |
      | docs                     | 39     | Tool0123456789abcdefghijklm1                             | Tool0123456789abcdefghijklm2                             |
      | docs                     | 40     | Tool0123456789abcdefghijklmn1                            | Tool0123456789abcdefghijklmn2                            |
      | docs                     | 48     | Tool0123456789abcdefghijklmnopqrstuv1                    | Tool0123456789abcdefghijklmnopqrstuv2                    |
      | docs                     | 63     | Tool0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJK1     | Tool0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJK2     |
      | docs                     | 64     | Tool0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL1    | Tool0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL2    |
      | abcdefghijklmnopqrstuvwx | 38     | Tool011                                                  | Tool012                                                  |
      | abcdefghijklmnopqrstuvwx | 63     | Tool0123456789abcdefghijklmnopq1                         | Tool0123456789abcdefghijklmnopq2                         |
      | abcdefghijklmnopqrstuvwx | 64     | Tool0123456789abcdefghijklmnopqr1                        | Tool0123456789abcdefghijklmnopqr2                        |
      | a                        | 64     | Tool0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO1 | Tool0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNO2 |

  @LA-NAME-06
  Scenario Outline: a tool name uses only letters, digits, "_" and "-" (<tool>)
    Given a stdio MCP server "p" with tools "fine, <tool>"
    When "p" is declared as "x" through register()
    Then it <outcome>
    And <evidence>

    Examples:
      | tool        | outcome                   | evidence                                                        |
      | get.weather | fails with a "name" error | list() shows exactly the servers ""                             |
      | a/b         | fails with a "name" error | list() shows exactly the servers ""                             |
      | a b         | fails with a "name" error | list() shows exactly the servers ""                             |
      | 工具        | fails with a "name" error | list() shows exactly the servers ""                             |
      | a:b         | fails with a "name" error | list() shows exactly the servers ""                             |
      | a@b         | fails with a "name" error | list() shows exactly the servers ""                             |
      | a[b         | fails with a "name" error | list() shows exactly the servers ""                             |
      | a`b         | fails with a "name" error | list() shows exactly the servers ""                             |
      | a{b         | fails with a "name" error | list() shows exactly the servers ""                             |
      | a~b         | fails with a "name" error | list() shows exactly the servers ""                             |
      | get-weather | succeeds                  | list() shows "x" with exactly the tools "mcp__x__fine, mcp__x__get-weather" |
      | get_weather | succeeds                  | list() shows "x" with exactly the tools "mcp__x__fine, mcp__x__get_weather" |

  # 「64 个相同字符」: the whole set, in three tool names
  @LA-NAME-06
  Scenario: every letter, digit, "_" and "-" may be part of a tool name
    Given a stdio MCP server "p" with tools "ABCDEFGHIJKLMNOPQRSTUVWXYZ, abcdefghijklmnopqrstuvwxyz, 0123456789_-"
    And the mcpServers option declares "p" as "x"
    And the model calls "mcp__x__0123456789_-" with {}
    When the host creates the agent
    And the host sends "go"
    Then it succeeds
    And the model was offered exactly the MCP tools "mcp__x__ABCDEFGHIJKLMNOPQRSTUVWXYZ, mcp__x__abcdefghijklmnopqrstuvwxyz, mcp__x__0123456789_-"
    And "p" received a call of the tool "0123456789_-"

  @LA-NAME-07
  Scenario Outline: one invalid tool name fails the whole server and releases it (<transport>)
    Given <a transport> MCP server "p" with tools "ok, bad.name"
    When "p" is declared as "x" through register()
    Then it fails with a "name" error
    And list() is unchanged
    And every process of "p" has exited
    When the host sends "hello"
    Then the model was offered no MCP tools

    Examples:
      | transport | a transport |
      | stdio     | a stdio     |
      | http      | an HTTP     |

  @LA-NAME-07
  Scenario: one invalid tool name in the configuration keeps the whole server out
    Given a stdio MCP server "p" with tools "ok, bad.name"
    And the project configuration declares "p"
    When the host creates the agent
    And the host sends "hello"
    Then "p" is reported failed
    And the model was never offered any "mcp__p__*" tool
    And every process of "p" has exited

  @LA-NAME-08
  Scenario Outline: a duplicate tool name fails the whole server (<case>)
    Given a stdio MCP server "p" with tools "search, other, search" served <per page> per page
    When "p" is declared as "x" through register()
    Then it fails with a "name" error
    And list() is unchanged
    And every process of "p" has exited

    Examples:
      | case                | per page |
      | on one page         | 3        |
      | on different pages  | 2        |

  # Names that differ only in letter case are two tools (interpretation A-08)
  @LA-NAME-08 @ambiguous:A-08
  Scenario: tool names that differ only in letter case are not duplicates
    Given a stdio MCP server "p" with tools "Search, search, SEARCH"
    And the model calls "mcp__x__SEARCH" with {}
    When "p" is declared as "x" through register()
    Then it succeeds
    When the host sends "go"
    Then the model was offered exactly the MCP tools "mcp__x__Search, mcp__x__search, mcp__x__SEARCH"
    And "p" received 1 call of the tool "SEARCH"
    And "p" received 0 calls of the tool "search"

  @LA-NAME-09
  Scenario: a full name already taken by another server fails the newcomer only
    Given a stdio MCP server "one" with tools "_y"
    And a stdio MCP server "two" with tools "y"
    And the model calls "mcp__x___y" with {}
    When "one" is declared as "x" through register()
    Then it succeeds
    When "two" is declared as "x_" through register()
    Then it fails with a "name" error
    And list() is unchanged
    When the host sends "use it"
    Then it succeeds
    And the model was offered exactly the MCP tools "mcp__x___y"
    And "one" received a call of the tool "_y"
    And "two" received no call
