import StateContainers
import TestSupport
import TreeFiles
import XCTest

/// What YAML means in a tree file, read with libyaml: scalars, anchors, aliases and merge
/// keys as Yams reads them, and the composer's own limits.
final class TreeFileYAMLTests: AppStateTestCase {
    func testDecode_whenScalarsLookLikeOtherTypes_thenStringsStayTheirText() throws {
        let file = try TreeFileLoader.decode(
            yaml: """
                trees:
                  - name: t
                    root:
                      type: MenuController
                      id: yes
                      title: 3
                      children:
                        - { type: Controller, id: 'null', title: ~ }
                        - { type: Controller, id: off, title: "~" }
                        - { type: Controller, id: 0x1F, title: 2026-11-23 }
                """)

        let root = file.trees[0].root
        XCTAssertEqual(root.id, "yes")
        XCTAssertEqual(root.title, "3")
        XCTAssertEqual(root.children.map(\.id), ["null", "off", "0x1F"])
        XCTAssertEqual(root.children.map(\.title), [nil, "~", "2026-11-23"])
    }

    func testDecode_whenNumbersInYAML11Forms_thenReadAsYamsReadThem() throws {
        let spacings = ["8": 8.0, "1_000": 1000, "1:30": 90, "1:0:1": 3601, "+2.5e1": 25, "0x10": 16, ".5": 0.5]
        for (text, expected) in spacings {
            let file = try TreeFileLoader.decode(
                yaml: """
                    trees:
                      - name: t
                        root: { type: StackController, id: s, spacing: \(text), children: [{ type: Controller, id: a }] }
                    """)
            XCTAssertEqual(file.trees[0].root.number(StackController.Kind.spacing), expected, text)
        }
        let file = try TreeFileLoader.decode(
            yaml: """
                version: 1
                trees:
                  - name: t
                    root: { type: PaginatedController, id: p, transitionMs: 0x1_0, children: [{ type: Controller, id: a }] }
                """)
        XCTAssertEqual(file.trees[0].root.integer(.transitionMs), 16)
    }

    func testDecode_whenNumberIsQuotedOrNotANumber_thenExpectedANumberAtItsLine() {
        for text in [#""8""#, "'8'", "eight", "[8]"] {
            XCTAssertEqual(
                problems(
                    """
                    trees:
                      - name: t
                        root:
                          type: StackController
                          id: s
                          spacing: \(text)
                          children: [{ type: Controller, id: a }]
                    """), ["line 6, column 7: trees[0].root.spacing: expected \(text == "[8]" ? "a single value" : "a number")"], text)
        }
    }

    func testDecode_whenIdentifierIsAMapping_thenExpectedASingleValue() {
        XCTAssertEqual(
            problems(
                """
                trees:
                  - name: t
                    root: { type: Controller, id: { a: 1 } }
                """), ["line 3, column 31: trees[0].root.id: expected a single value"])
    }

    func testDecode_whenAnchorsAliasesAndMergeKeys_thenExpandedAsYamsDid() throws {
        let file = try TreeFileLoader.decode(
            yaml: """
                trees:
                  - name: t
                    root:
                      type: StackController
                      id: s
                      children:
                        - &leaf { type: Controller, id: a, title: Shared }
                        - { <<: *leaf, id: b }
                        - <<: [{ id: c, title: First }, { id: z, title: Second, restorationId: r }]
                          type: Controller
                        - type: NavigationController
                          id: n
                          children: [*leaf]
                """)

        let children = file.trees[0].root.children
        XCTAssertEqual(children.map(\.id), ["a", "b", "c", "n"])
        XCTAssertEqual(children.map(\.title), ["Shared", "Shared", "First", nil])
        XCTAssertEqual(children[2].restorationId, "r", "a key only the later mapping of a merge list has is merged too")
        XCTAssertEqual(children[3].children, [children[0]])
    }

    func testDecode_whenMergedKeyIsUnknown_thenReportedAtTheKeyOfTheMergingMapping() {
        XCTAssertEqual(
            problems(
                """
                trees:
                  - name: t
                    root:
                      <<: { colour: red }
                      type: Controller
                      id: a
                """),
            [
                #"line 3, column 5: trees[0].root.colour: unknown key "colour" (expected one of type, id, title, url, restorationId, state, message, transitionMs, spacing, primaryFraction, minimumExpandedWidth, children, destinations)"#
            ])
    }

    func testDecode_whenQuotedAndPlainKeyAreTheSame_thenDuplicateKey() {
        XCTAssertEqual(
            problems(
                """
                trees:
                  - name: t
                    root: { type: Controller, "id": a, id: b }
                """), [#"line 3, column 31: not valid YAML: duplicate key "id" in a mapping"#])
    }

    func testDecode_whenKeysReadAlikeButResolveToOtherTags_thenTheyAreTwoKeys() {
        // As with Yams: plain 1 is an integer and "1" a string, plain yes a boolean, a plain
        // date a timestamp, so no key here is named twice; each is unknown to a node, and
        // the quoted "id" is the node's identifier.
        let found = problems(
            """
            trees:
              - name: t
                root: { type: Controller, 1: a, "1": b, yes: a, "yes": b, 2026-11-28: a, "2026-11-28": b, "id": a, ~: a }
            """)
        XCTAssertEqual(
            found.compactMap { $0.firstMatch(of: #/unknown key "(.*?)"/#).map { String($0.1) } },
            ["1", "1", "2026-11-28", "2026-11-28", "yes", "yes", "~"])
        XCTAssertEqual(found.count, 7, "\(found)")
    }

    func testDecode_whenAliasIsUndefined_thenLineOfTheAlias() {
        XCTAssertEqual(
            problems(
                """
                trees:
                  - name: t
                    root: *missing
                """), ["line 3: not valid YAML: found undefined alias"])
    }

    func testDecode_whenSecondDocument_thenRefusedAtIt() {
        XCTAssertEqual(
            problems(
                """
                trees: []
                ---
                trees: []
                """), ["line 2: not valid YAML: but found another document (expected a single document in the stream on line 1)"])
    }

    func testDecode_whenCollectionsNestTooDeep_thenRefusedWithoutRecursing() {
        let limit = 256
        let deep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        XCTAssertEqual(problems(deep), ["line 1: not valid YAML: collections nest more than \(limit) levels deep"])
        // A megabyte of brackets: a recursive reader would need a stack frame for each.
        let huge = String(repeating: "[", count: TreeFileLoader.maximumFileSize)
        XCTAssertEqual(problems(huge), ["line 1: not valid YAML: collections nest more than \(limit) levels deep"])
    }

    func testDecode_whenNodesNestAtTheLimit_thenAccepted() throws {
        var node = "{ type: Controller, id: leaf }"
        for level in 0..<NodeSpec.maximumDepth {
            node = "{ type: NavigationController, id: n\(level), children: [\(node)] }"
        }
        let file = try TreeFileLoader.decode(yaml: "trees: [{ name: t, root: \(node) }]")

        XCTAssertEqual(file.trees[0].root.id, "n\(NodeSpec.maximumDepth - 1)")
    }

    private func problems(_ yaml: String) -> [String] {
        do {
            _ = try TreeFileLoader.decode(yaml: yaml)
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }
}
