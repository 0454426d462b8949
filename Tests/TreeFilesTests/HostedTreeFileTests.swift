import Foundation
import StateContainers
import TestSupport
import TreeFiles
import XCTest

/// The daemon's keys of a tree (`logindSeat`, `output`, `idle`: its policy, not the model's)
/// read beside the model's in one mapping, and checked with them in the order of the file.
final class HostedTreeFileTests: AppStateTestCase {
    private let leaf = #"{"type": "Controller", "id": "a"}"#
    private let otherLeaf = #"{"type": "Controller", "id": "b"}"#

    private var login: String {
        #"{"type": "LoginStateController", "id": "s", "children": [\#(leaf), \#(otherLeaf)]}"#
    }

    private func json(root: String, _ keys: String = "") -> String {
        #"{"trees": [{"name": "t", "root": \#(root)\#(keys)}]}"#
    }

    private func treeFollowing(seat: String, root: String) -> String {
        json(root: root, #", "logindSeat": "\#(seat)""#)
    }

    private func decode(_ json: String) throws(TreeFileError) -> HostedTreeFile {
        try HostedTreeFile.decode(json: Array(json.utf8))
    }

    /// The problems decoding `json` reports, each as `location: message`; empty when it is valid.
    private func problems(in json: String) -> [String] {
        do {
            _ = try decode(json)
            return []
        } catch {
            return error.issues.map(\.description)
        }
    }

    func testLogindSeat_whenValidOnATreeWithALoginContainer_thenDecodedAndEncodedBack() throws {
        let file = try decode(treeFollowing(seat: "seat_1-a", root: #"{"type": "MenuController", "id": "m", "children": [\#(login)]}"#))
        XCTAssertEqual(file.trees.first?.logindSeat, "seat_1-a")
        let encoded = try JSONEncoder().encode(file)
        XCTAssertEqual(try HostedTreeFile.decode(json: Array(encoded)).trees.first?.logindSeat, "seat_1-a")
        XCTAssertNil(try decode(json(root: login)).trees.first?.logindSeat)
    }

    func testLogindSeat_whenMalformed_thenLogindsRuleIsNamed() {
        for seat in ["", "0", "Seat0", "seat/0", "seat 0", "seatä"] {
            XCTAssertEqual(
                problems(in: treeFollowing(seat: seat, root: login)),
                [#"trees[0].logindSeat: logind seat "\#(seat)" must be "seat" followed by letters, digits, "-" and "_" (e.g. seat0)"#], seat)
        }
    }

    func testLogindSeat_whenTheTreeHasNoLoginContainer_thenReported() {
        XCTAssertEqual(
            problems(in: treeFollowing(seat: "seat0", root: leaf)),
            ["trees[0].logindSeat: a tree that follows a logind seat needs a LoginStateController"])
        let destination = #"{"type": "NavigationController", "id": "n", "children": [\#(leaf)], "destinations": [\#(login)]}"#
        XCTAssertEqual(problems(in: treeFollowing(seat: "seat0", root: destination)), [], "a destination's login container counts")
    }

    func testOutput_whenNamed_thenDecodedAndEncodedBack() throws {
        let file = try decode(json(root: leaf, #", "output": "HDMI-A-1""#))
        XCTAssertEqual(file.trees.first?.output, "HDMI-A-1")
        XCTAssertEqual(try HostedTreeFile.decode(json: Array(try JSONEncoder().encode(file))).trees.first?.output, "HDMI-A-1")
        XCTAssertNil(try decode(json(root: leaf)).trees.first?.output)
    }

    func testOutput_whenMalformed_thenReported() {
        for output in ["", "HDMI A 1", "bell\u{7F}", String(repeating: "x", count: 256)] {
            XCTAssertEqual(
                problems(in: json(root: leaf, #", "output": "\#(output)""#)),
                [
                    #"trees[0].output: output "\#(output)" must be a compositor's output name: 1 to 255 printable characters without spaces (e.g. HDMI-A-1)"#
                ], output)
        }
    }

    func testDecode_whenATreeKeyIsUnknown_thenTheModelsKeysAndTheDaemonsAreListedInTheFormatsOrder() {
        XCTAssertEqual(
            problems(in: json(root: leaf, #", "windw": {}"#)),
            [#"trees[0].windw: unknown key "windw" (expected one of name, window, offline, root, logindSeat, output, presentations, idle)"#])
    }

    func testDecode_whenTheModelsKeysAndTheDaemonsHaveProblems_thenAllAreReportedInTheOrderOfTheFile() {
        let text = json(
            root: #"{"type": "Controller", "id": "a", "spacing": 1}"#,
            #", "idle": [{"after": 0, "lock": true}], "presentations": [{"type": "Pager", "id": "p"}], "output": "", "logindSeat": "s0""#)
        XCTAssertEqual(
            problems(in: text),
            [
                #"trees[0].root.spacing: "spacing" applies only to a StackController"#,
                #"trees[0].logindSeat: logind seat "s0" must be "seat" followed by letters, digits, "-" and "_" (e.g. seat0)"#,
                "trees[0].logindSeat: a tree that follows a logind seat needs a LoginStateController",
                #"trees[0].output: output "" must be a compositor's output name: 1 to 255 printable characters without spaces (e.g. HDMI-A-1)"#,
                #"trees[0].presentations[0]: unknown type "Pager" (expected one of Controller, ContentStateController, LoginStateController, PaginatedController, KeyboardAwareController, MenuController, StackController, NavigationController, SplitController)"#,
                "trees[0].idle[0]: a lock step needs a LoginStateController in the tree",
                "trees[0].idle[0].after: after must be a positive number of seconds (got 0)",
            ])
    }

    func testValidate_whenMadeInCode_thenTheDaemonsKeysAreCheckedWithTheModels() {
        var file = HostedTreeFile(TreeFile(trees: [TreeSpec(name: "Main", root: NodeSpec(kind: Controller.Kind.self, id: "a"))]))
        file.trees[0].output = "HDMI A"
        XCTAssertThrowsError(try file.validate()) { error in
            XCTAssertEqual(
                (error as? TreeFileError)?.issues.map(\.description),
                [
                    #"trees[0]: tree name "Main" may only contain a-z, 0-9 and "-""#,
                    #"trees[0].output: output "HDMI A" must be a compositor's output name: 1 to 255 printable characters without spaces (e.g. HDMI-A-1)"#,
                ])
        }
    }

    func testKeyNames_whenTheModelReadsATreeKey_thenTheDaemonsFilesListItToo() {
        XCTAssertTrue(Set(HostedTreeSpec.keyNames).isSuperset(of: TreeSpec.keyNames), "a key the model reads would be refused as unknown")
    }

    func testDefault_whenHosted_thenTheModelsDefaultTreeFollowingNothing() throws {
        let file = try HostedTreeFile.default
        XCTAssertEqual(file.model, try TreeFile.default)
        XCTAssertEqual(file.trees.map(\.name), ["default"])
        XCTAssertTrue(file.trees.allSatisfy { $0.logindSeat == nil && $0.output == nil && $0.idle.isEmpty })
    }
}
