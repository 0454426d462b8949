import AppStateCore
import Foundation
import StateContainers
import XCTest

/// A node's `url`: any node of a tree file may give one, validation accepts only `http:`,
/// `https:` and `file:` URLs and names the node of any other, the built controllers carry it
/// and their snapshots report it, and changing it marks the snapshot but not the saved state.
final class TreeFileURLTests: ModelTestCase {
    private func leaf(_ id: String, url: String? = nil) -> String {
        let url = url.map { #", "url": \#(Self.json($0))"# } ?? ""
        return #"{"type": "Controller", "id": "\#(id)"\#(url)}"#
    }

    /// A JSON string literal of any text, quotes and control characters escaped.
    private static func json(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? #""""#
    }

    /// A tree whose root is a menu with a navigation stack (with a destination) and a leaf,
    /// and one presentation: the url given to each of their nodes.
    private func tree(url: String) -> String {
        let navigation = """
            {"type": "NavigationController", "id": "inbox", "url": \(Self.json(url)), "children": [\(leaf("messages", url: url))],
             "destinations": [\(leaf("message", url: url))]}
            """
        return """
            {"trees": [{"name": "t",
              "root": {"type": "MenuController", "id": "home", "url": \(Self.json(url)), "children": [\(navigation), \(leaf("about", url: url))]},
              "presentations": [\(leaf("notice", url: url))]}]}
            """
    }

    func testURL_whenHTTPHTTPSOrFileInAnyCase_thenAccepted() async throws {
        let accepted = [
            "https://kiosk.example/welcome", "HTTPS://Kiosk.Example/a?b=c#d", "http://kiosk.example", "Http://127.0.0.1:8470/?token=x",
            "http://[::1]:8470/", "https://user:secret@kiosk.example/", "file:///srv/kiosk/index.html", "FILE:/srv/kiosk/index.html",
            "file:index.html", "https://kiosk.example/ünïcode",
        ]
        for url in accepted {
            XCTAssertNil(NodeSpec.urlProblem(url), url)
            XCTAssertEqual(TreeFixtures.problems(in: tree(url: url)), [], url)
        }
    }

    func testURL_whenAnotherScheme_thenRefusedAtEveryNodeThatGivesIt() async {
        for url in ["javascript:alert(1)", "data:text/html,<h1>x</h1>", "ftp://kiosk.example/", "about:blank", "chrome://settings", "ws://x/"] {
            let problem = "url \(String(reflecting: url)) is not an http, https or file URL"
            XCTAssertEqual(
                TreeFixtures.problems(in: tree(url: url)),
                [
                    "trees[0].root: \(problem)",
                    "trees[0].root.children[0]: \(problem)",
                    "trees[0].root.children[0].children[0]: \(problem)",
                    "trees[0].root.children[0].destinations[0]: \(problem)",
                    "trees[0].root.children[1]: \(problem)",
                    "trees[0].presentations[0]: \(problem)",
                ], url)
        }
    }

    func testURL_whenNoSchemeNothingAfterItNoHostOrSpaces_thenEachRefusedWithItsReason() async {
        let controls = " must not contain spaces or control characters"
        let cases: [(url: String, problem: String)] = [
            ("", #"url "" is not an http, https or file URL"#),
            ("kiosk.example/welcome", #"url "kiosk.example/welcome" is not an http, https or file URL"#),
            ("/srv/kiosk/index.html", #"url "/srv/kiosk/index.html" is not an http, https or file URL"#),
            (":", #"url ":" is not an http, https or file URL"#),
            ("https:", #"url "https:" has nothing after "https:""#),
            ("FILE:", #"url "FILE:" has nothing after "file:""#),
            ("http://", #"url "http://" names no host (as in http://kiosk.example/)"#),
            ("https:///welcome", #"url "https:///welcome" names no host (as in https://kiosk.example/)"#),
            ("http:/welcome", #"url "http:/welcome" names no host (as in http://kiosk.example/)"#),
            ("https:kiosk.example", #"url "https:kiosk.example" names no host (as in https://kiosk.example/)"#),
            ("http://user@/", #"url "http://user@/" names no host (as in http://kiosk.example/)"#),
            ("http://:8470/", #"url "http://:8470/" names no host (as in http://kiosk.example/)"#),
            ("http://[]/", #"url "http://[]/" names no host (as in http://kiosk.example/)"#),
            ("http://[::1/", #"url "http://[::1/" names no host (as in http://kiosk.example/)"#),
            ("https://kiosk.example/a b", #"url "https://kiosk.example/a b""# + controls),
            ("https://kiosk.example/\n", #"url "https://kiosk.example/\n""# + controls),
            ("https://kiosk.example/\u{7F}", "url \(String(reflecting: "https://kiosk.example/\u{7F}"))" + controls),
            ("file:/srv/\u{85}x", "url \(String(reflecting: "file:/srv/\u{85}x"))" + controls),
            ("https://kiosk\u{3000}example/", "url \(String(reflecting: "https://kiosk\u{3000}example/"))" + controls),
        ]
        for (url, problem) in cases {
            XCTAssertEqual(NodeSpec.urlProblem(url), problem, url)
            XCTAssertEqual(
                TreeFixtures.problems(root: #"{"type": "StackController", "id": "s", "children": [\#(leaf("a")), \#(leaf("b", url: url))]}"#),
                ["trees[0].root.children[1]: \(problem)"], url)
        }
    }

    func testURLProblem_whenAnyText_thenNeverTraps() async {
        let pieces = ["", ":", "/", "//", "@", "[", "]", "?", "#", "h", "http", "file", "é", "\u{0}", "🙂", " ", "x:y"]
        var checked = 0
        for first in pieces {
            for second in pieces {
                for third in pieces {
                    _ = NodeSpec.urlProblem(first + second + third)
                    checked += 1
                }
            }
        }
        XCTAssertEqual(checked, pieces.count * pieces.count * pieces.count)
    }

    func testURL_whenMadeInCode_thenTheSameCheckAtTheNode() async {
        var root = NodeSpec(kind: StackController.Kind.self, id: "s", children: [NodeSpec(kind: Controller.Kind.self, id: "a")])
        root.children[0].url = "ftp://kiosk.example/"
        XCTAssertThrowsError(try TreeFile(trees: [TreeSpec(name: "t", root: root)]).validate()) { error in
            XCTAssertEqual(
                (error as? TreeFileError)?.issues.map(\.description),
                [#"trees[0].root.children[0]: url "ftp://kiosk.example/" is not an http, https or file URL"#])
        }
    }

    func testURL_whenDecodedAndEncoded_thenKeptAndLeftOutWhenAbsent() async throws {
        let file = try TreeFixtures.decode(tree(url: "https://kiosk.example/"))
        XCTAssertEqual(file.trees[0].root.url, "https://kiosk.example/")
        let encoded = try JSONEncoder().encode(file)
        XCTAssertEqual(try TreeFile.decode(json: encoded), file)
        let plain = try JSONEncoder().encode(try TreeFixtures.decode(TreeFixtures.file(root: leaf("a"))))
        XCTAssertFalse(String(decoding: plain, as: UTF8.self).contains("url"))
    }

    func testBuild_whenNodesGiveURLs_thenControllersPresentationsAndDestinationsCarryThemAndSnapshotsReportThem() async throws {
        let file = try TreeFixtures.decode(
            """
            {"trees": [{"name": "t",
              "root": {"type": "MenuController", "id": "home", "url": "https://kiosk.example/", "children": [
                {"type": "NavigationController", "id": "inbox", "children": [\(leaf("messages", url: "https://kiosk.example/inbox"))],
                 "destinations": [\(leaf("message", url: "file:///srv/kiosk/message.html"))]},
                \(leaf("about"))]},
              "presentations": [\(leaf("notice", url: "http://127.0.0.1:8470/notice"))]}]}
            """)
        XCTAssertNoThrow(try TreeBuilder.check(file))
        let window = try TreeBuilder.build(file.trees[0], clock: clock)
        window.makeVisible()
        let root = try XCTUnwrap(window.rootController)
        let inbox = try XCTUnwrap(root.descendant(at: "inbox") as? NavigationController)
        try inbox.push(identifier: "message", animated: false)
        try root.present(identifier: "notice", animated: false)

        let snapshot = root.snapshot()
        XCTAssertEqual(snapshot.url, "https://kiosk.example/")
        XCTAssertNil(snapshot.node(at: "home/inbox")?.url, "a node without url has none")
        XCTAssertEqual(snapshot.node(at: "home/inbox/messages")?.url, "https://kiosk.example/inbox")
        XCTAssertEqual(snapshot.node(at: "home/inbox/message")?.url, "file:///srv/kiosk/message.html")
        XCTAssertNil(snapshot.node(at: "home/about")?.url)
        XCTAssertEqual(snapshot.node(at: "home/notice")?.url, "http://127.0.0.1:8470/notice")
        XCTAssertEqual(snapshot.node(at: "home/notice")?.presented, true)
        XCTAssertEqual(snapshot.jsonMembers["url"], "https://kiosk.example/")
        XCTAssertNil(snapshot.children[1].jsonMembers["url"], "absent from the wire when nil")
    }

    func testURL_whenChanged_thenTheNextSnapshotHasItAndOnlyThatNodeChanged() async throws {
        let session = try showEveryContainer()
        let page = try XCTUnwrap(session.descendant(at: "home/pages/one"))
        let before = session.snapshot()

        page.url = "https://kiosk.example/one"
        let after = session.snapshot(reusing: before)

        XCTAssertEqual(after.node(at: "session/home/pages/one")?.url, "https://kiosk.example/one")
        XCTAssertEqual(after.changes(since: before).changed.map(\.path), ["session/home/pages/one"])
        XCTAssertEqual(after, session.snapshotDescribedAfresh())
        XCTAssertTrue(try XCTUnwrap(after.node(at: "session/login")).isIdentical(to: try XCTUnwrap(before.node(at: "session/login"))))

        page.url = nil
        let cleared = session.snapshot(reusing: after)
        XCTAssertNil(cleared.node(at: "session/home/pages/one")?.url)
        XCTAssertEqual(cleared.changes(since: after).changed.map(\.path), ["session/home/pages/one"])
    }

    func testURL_whenChanged_thenTheSavedStateIsTheSame() async throws {
        let session = try showEveryContainer()
        let saved = session.encodeRestorableTree()

        session.descendant(at: "home/pages/one")?.url = "https://kiosk.example/one"
        session.url = "https://kiosk.example/"

        XCTAssertEqual(session.encodeRestorableTree(), saved)
    }
}
