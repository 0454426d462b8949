import AppStateCore
import AppStateIPC
import TestSupport
import VarlinkIDL
import XCTest

/// The interface's types are generated from the interface file; what the generator takes on
/// trust from the Swift side, and what it must not leave out, is held to the file here.
final class GeneratedTypesTests: AppStateTestCase {
    private let interface = Result { try InterfaceDefinition(parsing: AppStateInterface.description) }

    func testNodeAppearance_whenComparedWithTheInterface_thenTheSameCasesInOrder() throws {
        let appearance = try XCTUnwrap(try interface.get().type(named: "Node")?.members.first { $0.name == "appearance" })

        XCTAssertEqual(appearance.type, "(" + Appearance.allCases.map(\.rawValue).joined(separator: ", ") + ")")
    }

    func testPresentStyle_whenComparedWithTheInterface_thenTheSameCasesInOrder() throws {
        let style = try XCTUnwrap(try interface.get().method(named: "Present")?.input.first { $0.name == "style" })

        XCTAssertEqual(style.type, "?(" + Present.Style.allCases.map(\.rawValue).joined(separator: ", ") + ")")
    }

    func testWireTypes_whenEveryMemberIsSet_thenEachDeclaredMemberIsEncodedAndDeclared() throws {
        let node = Node(
            path: "s", identifier: "s", type: "T", title: "t", url: "https://kiosk.example/", appearance: .appearing,
            frame: Rect(x: 1, y: 2, width: 3, height: 4),
            contentInset: Insets(top: 1, left: 2, bottom: 3, right: 4), onScreen: true, current: "c", pageIndex: 0, pageCount: 1,
            user: "ada", locked: true, menuVisible: true, keyboardOverlap: 1, contentState: "render", collapsed: false,
            offline: "file:///srv/kiosk/offline.html", blanked: true, presented: true,
            children: [Node(path: "s/c", identifier: "c", type: "T")]
        )
        let encoded: [(name: String, members: [String: JSONValue], declared: [String])] = [
            ("Node", node.parameters, Node.memberNames),
            ("Rect", Rect(x: 1, y: 2, width: 3, height: 4).parameters, Rect.memberNames),
            ("Insets", Insets.zero.parameters, Insets.memberNames),
            ("Event", Event(tree: "t", name: "n", path: "p", current: "c", userInfo: [:]).parameters, Event.memberNames),
            ("Follower", Follower(name: "osk", connected: true, detail: "up").parameters, Follower.memberNames),
            (
                "FrontEnd",
                FrontEnd(tree: "t", kind: "kiosk", name: "k", state: "offline", reason: "r", reloads: 1, restarts: 2, socket: "/run/k").parameters,
                FrontEnd.memberNames
            ),
        ]

        for (name, members, declared) in encoded {
            let names = try XCTUnwrap(try interface.get().type(named: name)).members.map(\.name)
            XCTAssertEqual(Set(members.keys), Set(names), name)
            XCTAssertEqual(declared, names, name)
        }
    }

    func testText_whenWrittenStraightToBytes_thenTheBytesOfTheValues() {
        let event = Event(tree: "t", name: "a\"b", path: nil, current: "ü/🙂", userInfo: ["z": 1, "a": [true, .null]])

        var text: [UInt8] = Array("prefix ".utf8)
        event.writeJSON(into: &text)

        XCTAssertEqual(String(decoding: text, as: UTF8.self), "prefix " + JSONValue.object(event.jsonMembers).jsonText)
    }
}
