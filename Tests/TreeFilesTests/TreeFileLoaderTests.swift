import Foundation
import StateContainers
import TestSupport
import TreeFiles
import XCTest

final class TreeFileLoaderTests: AppStateTestCase {
    /// The embedded default tree in YAML, as `default-tree.json` has it in JSON.
    private let defaultTreeYAML = """
        version: 1
        trees:
          - name: default
            window: { width: 1280, height: 800 }
            root:
              type: LoginStateController
              id: session
              title: Session
              children:
                - type: KeyboardAwareController
                  id: login
                  title: Log in
                  children:
                    - { type: Controller, id: login-form, title: Log in }
                - type: MenuController
                  id: home
                  title: Home
                  children:
                    - type: PaginatedController
                      id: pages
                      title: Pages
                      children:
                        - { type: Controller, id: overview, title: Overview }
                        - { type: ContentStateController, id: activity, title: Activity }
                        - { type: Controller, id: settings, title: Settings }
                    - type: NavigationController
                      id: inbox
                      title: Inbox
                      children:
                        - { type: Controller, id: messages, title: Messages }
                      destinations:
                        - { type: Controller, id: message, title: Message }
                        - { type: Controller, id: compose, title: Compose }
                    - type: StackController
                      id: dashboard
                      title: Dashboard
                      children:
                        - { type: Controller, id: list, title: List }
                        - { type: Controller, id: map, title: Map }
            presentations:
              - { type: Controller, id: notice, title: Notice }
        """

    private var temporaryDirectory: URL!

    override func setUpWithError() throws {
        temporaryDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("TreeFileLoaderTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporaryDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: temporaryDirectory)
    }

    func testDecode_whenYAMLAndJSONDescribeTheSameTree_thenSameSpec() throws {
        XCTAssertEqual(try TreeFileLoader.decode(yaml: defaultTreeYAML), try HostedTreeFile.default)
    }

    func testDecode_whenYAMLNullOrTilde_thenNoRestorationIdentifier() throws {
        let file = try TreeFileLoader.decode(
            yaml: """
                trees:
                  - name: t
                    root:
                      type: MenuController
                      id: m
                      restorationId: null
                      children:
                        - { type: Controller, id: a, restorationId: ~ }
                        - { type: Controller, id: b }
                """)

        XCTAssertNil(file.trees[0].root.restorationId)
        XCTAssertNil(file.trees[0].root.children[0].restorationId)
        XCTAssertEqual(file.trees[0].root.children[1].restorationId, "b")
    }

    func testDecode_whenJSONIsBroken_thenErrorSaysWhere() {
        XCTAssertThrowsError(try TreeFileLoader.decode(json: #"{"trees": [x]}"#)) { error in
            let description = "\(error)"
            XCTAssertTrue(description.contains("not valid JSON: "), description)
            XCTAssertTrue(description.contains("character 11"), description)
        }
    }

    func testDecode_whenJSONNamesAKeyTwiceAndIsBrokenAfterIt_thenTheBreakIsStillPlaced() {
        // From fuzz target treefile: a duplicate key must not end the syntax check early.
        XCTAssertThrowsError(try TreeFileLoader.decode(json: #"{"version": 1, "version": 1, "trees": [x]}"#)) { error in
            XCTAssertEqual((error as? TreeFileError)?.issues.map(\.message), ["not valid JSON: unexpected character around character 39"])
        }
    }

    func testDecode_whenJSONStartsWithAByteOrderMark_thenReadAsWithout() throws {
        let json = #"{"trees": [{"name": "t", "root": {"type": "Controller", "id": "a"}}]}"#

        XCTAssertEqual(try TreeFileLoader.decode(json: "\u{FEFF}" + json), try TreeFileLoader.decode(json: json))
        XCTAssertThrowsError(try TreeFileLoader.decode(json: "\u{FEFF}{x}")) { error in
            XCTAssertEqual((error as? TreeFileError)?.issues.map(\.message), ["not valid JSON: unexpected character around character 4"])
        }
    }

    func testDecode_whenYAMLHasProblems_thenEachNamesItsPlaceAndLine() {
        let yaml = """
            trees:
              - name: t
                root:
                  type: MenuController
                  id: home
                  titel: Home
                  children:
                    - { type: Controller, id: a }
                    - type: Pager
                      id: b
                    - { type: Controller, id: a }
            """

        XCTAssertEqual(
            problems(yaml: yaml),
            [
                #"line 9, column 11: trees[0].root.children[1]: unknown type "Pager" (expected one of Controller, ContentStateController, LoginStateController, PaginatedController, KeyboardAwareController, MenuController, StackController, NavigationController, SplitController)"#,
                #"line 11, column 11: trees[0].root.children[2]: duplicate sibling identifier "a""#,
                #"line 6, column 7: trees[0].root.titel: unknown key "titel" (expected one of type, id, title, url, restorationId, state, message, transitionMs, spacing, primaryFraction, minimumExpandedWidth, children, destinations)"#,
            ])
    }

    func testDecode_whenYAMLNodesGiveURLs_thenKeptAndAWrongSchemeNamesItsNodeAndLine() throws {
        let yaml = """
            trees:
              - name: t
                root:
                  type: StackController
                  id: s
                  url: HTTPS://kiosk.example/s
                  children:
                    - { type: Controller, id: a, url: "file:///srv/kiosk/a.html" }
                    - type: Controller
                      id: b
                      url: javascript:alert(1)
            """

        XCTAssertEqual(
            problems(yaml: yaml), [#"line 9, column 11: trees[0].root.children[1]: url "javascript:alert(1)" is not an http, https or file URL"#])
        let valid = try TreeFileLoader.decode(yaml: yaml.replacingOccurrences(of: "javascript:alert(1)", with: "http://127.0.0.1:8470/b"))
        XCTAssertEqual(valid.trees[0].root.url, "HTTPS://kiosk.example/s")
        XCTAssertEqual(valid.trees[0].root.children.map(\.url), ["file:///srv/kiosk/a.html", "http://127.0.0.1:8470/b"])
    }

    func testDecode_whenATreeGivesAnOfflinePage_thenKeptAndABadOneNamedAtItsLine() throws {
        let yaml = """
            trees:
              - name: t
                window: { width: 800, height: 600 }
                offline: javascript:alert(1)
                root: { type: Controller, id: main }
              - name: u
                offline: https://
                root: { type: Controller, id: main }
            """

        XCTAssertEqual(
            problems(yaml: yaml),
            [
                #"line 4, column 5: trees[0].offline: offline "javascript:alert(1)" is not an http, https or file URL"#,
                #"line 7, column 5: trees[1].offline: offline "https://" names no host (as in https://kiosk.example/)"#,
            ])
        let valid = try TreeFileLoader.decode(
            yaml: yaml.replacingOccurrences(of: "javascript:alert(1)", with: "file:///srv/kiosk/offline.html")
                .replacingOccurrences(of: "https://\n", with: "HTTPS://kiosk.example/offline\n"))
        XCTAssertEqual(valid.trees.map(\.offline), ["file:///srv/kiosk/offline.html", "HTTPS://kiosk.example/offline"])
        XCTAssertEqual(try HostedTreeFile.decode(json: Array(try JSONEncoder().encode(valid))), valid, "encoded and read back alike")
    }

    func testDecode_whenYAMLPresentationsHaveProblems_thenEachNamesItsPlaceAndLine() {
        let yaml = """
            trees:
              - name: kiosk
                root:
                  type: MenuController
                  id: home
                  children:
                    - { type: Controller, id: shop }
                presentations:
                  - { type: Controller, id: screensaver }
                  - type: Pager
                    id: promo
                  - { type: Controller, id: screensaver }
                  - { type: Controller, id: shop }
            """

        XCTAssertEqual(
            problems(yaml: yaml),
            [
                #"line 10, column 9: trees[0].presentations[1]: unknown type "Pager" (expected one of Controller, ContentStateController, LoginStateController, PaginatedController, KeyboardAwareController, MenuController, StackController, NavigationController, SplitController)"#,
                #"line 12, column 9: trees[0].presentations[2]: duplicate presentation identifier "screensaver""#,
                #"line 13, column 9: trees[0].presentations[3]: presentation identifier "shop" is a child's of the root: home/shop would name both"#,
            ])
    }

    func testDecode_whenYAMLListsPresentations_thenTheSameSpecAsJSON() throws {
        let yaml = """
            trees:
              - name: kiosk
                root: { type: Controller, id: main }
                presentations:
                  - { type: Controller, id: screensaver, restorationId: null }
            """
        let json = #"""
            {"trees": [{"name": "kiosk", "root": {"type": "Controller", "id": "main"},
                        "presentations": [{"type": "Controller", "id": "screensaver", "restorationId": null}]}]}
            """#

        XCTAssertEqual(try TreeFileLoader.decode(yaml: yaml), try TreeFileLoader.decode(json: json))
        XCTAssertNil(try TreeFileLoader.decode(yaml: yaml).trees[0].presentations.first?.restorationId)
    }

    func testDecode_whenYAMLValueHasWrongShape_thenPlaceAndLine() {
        let yaml = """
            trees:
              - name: t
                root:
                  type: Controller
                  id: a
                  children: 3
            """

        XCTAssertEqual(problems(yaml: yaml), ["line 6, column 7: trees[0].root.children: expected a list"])
    }

    func testDecode_whenYAMLKeyMissing_thenTheMappingsPlaceAndLine() {
        let yaml = """
            trees:
              - name: t
                root:
                  type: Controller
            """

        XCTAssertEqual(problems(yaml: yaml), [#"line 3, column 5: trees[0].root: missing key "id""#])
    }

    func testDecode_whenYAMLIntegerHasFraction_thenExpectedAnInteger() {
        let yaml = """
            trees:
              - name: t
                root: { type: PaginatedController, id: p, transitionMs: 2.5, children: [{ type: Controller, id: a }] }
            """

        XCTAssertEqual(problems(yaml: yaml), ["line 3, column 47: trees[0].root.transitionMs: expected an integer"])
    }

    func testDecode_whenYAMLSyntaxBroken_thenLineOfTheProblem() {
        let yaml = """
            trees:
              - name: t
                root: { type: Controller, id: a
            version: 1
            """

        let problems = problems(yaml: yaml)

        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems[0].hasPrefix("line 4, column 8: not valid YAML: "), problems[0])
    }

    func testDecode_whenYAMLKeyRepeated_thenDuplicateKeyAndLine() {
        let yaml = """
            trees:
              - name: t
                root:
                  type: Controller
                  id: a
                  id: b
            """

        XCTAssertEqual(problems(yaml: yaml), [#"line 5, column 7: not valid YAML: duplicate key "id" in a mapping"#])
    }

    func testDecode_whenYAMLEmpty_thenSaysSo() {
        XCTAssertEqual(problems(yaml: "# nothing but a comment\n"), ["the file is empty"])
    }

    func testLoad_whenJSONFile_thenReadStrictlyWithLines() throws {
        let path = try write(
            "trees.json",
            """
            {"trees": [
              {"name": "t",
               "root": {"type": "Controller",
                        "id": 3}}]}
            """)

        XCTAssertThrowsError(try TreeFileLoader.load(path: path)) { error in
            XCTAssertEqual("\(error)", "\(path): line 4, column 13: trees[0].root.id: expected a string")
        }
    }

    func testLoad_whenJSONFileValid_thenSameAsFoundationReadsIt() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let path = try write("default.json", String(decoding: try encoder.encode(HostedTreeFile.default), as: UTF8.self))

        XCTAssertEqual(try TreeFileLoader.load(path: path), try HostedTreeFile.default)
    }

    func testLoad_whenYAMLFileHasProblems_thenDescriptionNamesFileLineAndPlace() throws {
        let path = try write(
            "kiosk.yaml",
            """
            trees:
              - name: Kiosk
                root: { type: Controller, id: a }
            """)

        XCTAssertThrowsError(try TreeFileLoader.load(path: path)) { error in
            XCTAssertEqual("\(error)", #"\#(path): line 2, column 5: trees[0]: tree name "Kiosk" may only contain a-z, 0-9 and "-""#)
        }
    }

    func testLoad_whenFileMissing_thenCannotReadNamingTheFileAndTheReason() {
        let path = temporaryDirectory.appendingPathComponent("missing.yaml").path

        XCTAssertThrowsError(try TreeFileLoader.load(path: path)) { error in
            XCTAssertEqual("\(error)", "\(path): cannot read: No such file or directory")
        }
    }

    func testLoad_whenPathIsADirectory_thenCannotReadWithTheReason() {
        XCTAssertThrowsError(try TreeFileLoader.load(path: temporaryDirectory.path)) { error in
            XCTAssertEqual((error as? TreeFileError)?.issues.map(\.message), ["cannot read: Is a directory"])
        }
    }

    func testLoad_whenFileTooLarge_thenRefusedWithoutReadingItAll() throws {
        let path = try write("huge.yaml", String(repeating: "#", count: TreeFileLoader.maximumFileSize + 1))

        XCTAssertThrowsError(try TreeFileLoader.load(path: path)) { error in
            XCTAssertEqual((error as? TreeFileError)?.issues.map(\.message), ["larger than 1048576 bytes: not a tree file"])
        }
    }

    func testLoad_whenNotUTF8_thenSaysSo() throws {
        let url = temporaryDirectory.appendingPathComponent("latin1.yaml")
        try Data([0x74, 0x72, 0x65, 0x65, 0x73, 0x3A, 0x20, 0xE9]).write(to: url)

        XCTAssertThrowsError(try TreeFileLoader.load(path: url.path)) { error in
            XCTAssertEqual((error as? TreeFileError)?.issues.map(\.message), ["not UTF-8 text"])
        }
    }

    @MainActor
    func testLoad_whenExampleFiles_thenEachIsValidAndBuilds() async throws {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/trees").standardized
        let paths = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".yaml") }.sorted()

        XCTAssertEqual(paths, ["kiosk.yaml", "point-of-sale.yaml"])
        for name in paths {
            XCTAssertNoThrow(try TreeBuilder.check(TreeFileLoader.load(path: examples.appendingPathComponent(name).path).model), name)
        }
    }

    private func problems(yaml: String) -> [String] {
        do {
            _ = try TreeFileLoader.decode(yaml: yaml)
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let url = temporaryDirectory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }
}
