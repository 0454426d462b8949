import AppStateCore
import TestSupport
import XCTest

@testable import AppStateIPC

/// The few types that decode themselves by hand, for speed, say exactly what the decoding
/// derived from their declared members says; and what the generated encodings write, the
/// derived decoding reads back as the same values.
final class DerivedCodecTests: AppStateTestCase {
    private let sampleNode = Node(
        path: "s", identifier: "s", type: "LoginStateController", title: "Session", appearance: .appeared,
        frame: Rect(x: 1, y: 2, width: 3, height: 4.5), contentInset: Insets(top: 0, left: 1, bottom: 320, right: 0),
        onScreen: true, current: "home", pageIndex: 2, pageCount: 3, user: "ada", menuVisible: false,
        keyboardOverlap: 320, contentState: "render", collapsed: true,
        children: [Node(path: "s/home", identifier: "home", type: "MenuController")]
    )

    func testNode_whenEncoded_thenTheDerivedDecodingGivesItBack() throws {
        XCTAssertEqual(try Node(parameters: sampleNode.parameters), sampleNode)
        XCTAssertEqual(try Node(parameters: sampleNode.children[0].parameters), sampleNode.children[0])
    }

    func testWatchReplyAndEvent_whenEncoded_thenTheDerivedDecodingGivesThemBack() throws {
        let events = [
            Event(tree: "default", name: "Login", path: "s", current: "s/home", userInfo: ["user": "ada", "n": 2]),
            Event(tree: "t", name: "transition.didEnd", current: "s"),
        ]
        let replies = [
            Watch.Reply(root: sampleNode),
            Watch.Reply(event: events[0], changed: [sampleNode, sampleNode.children[0]], removed: ["s/gone", "s/other"]),
            Watch.Reply(event: events[1], removed: []),
            Watch.Reply(event: events[1], root: sampleNode),
            Watch.Reply(),
        ]
        for event in events {
            XCTAssertEqual(try Event(parameters: event.parameters), event)
        }
        for reply in replies {
            XCTAssertEqual(try Watch.Reply(parameters: reply.parameters), reply)
        }
        XCTAssertEqual(EmptyParameters().parameters, VarlinkObjectEncoder.members(of: EmptyParameters()))
    }

    func testFollowersAndFlags_whenEncoded_thenTheDerivedDecodingGivesThemBack() throws {
        let stats = GetStats.Reply(
            version: "1", uptimeSeconds: 2.5, trees: ["default"], connections: 1, watchers: 0, requests: 3,
            followers: [Follower(name: "osk", connected: false, detail: "no bus")])
        XCTAssertEqual(try GetStats.Reply(parameters: stats.parameters), stats)
        XCTAssertEqual(stats.parameters["stateDirectory"], nil, "a nil optional is left out")
        XCTAssertEqual(Watch.Parameters(full: true).parameters, ["full": true])
        XCTAssertEqual(Watch.Parameters().parameters, [:], "a flag is only sent when true")
        XCTAssertEqual(Login.Parameters(user: "ada", switching: true).parameters, ["user": "ada", "switch": true])
    }

    func testPathAndTreeParameters_whenDecodedByHand_thenSameAnswerAsDerived() {
        let inputs: [[String: JSONValue]] = [
            [:], ["tree": "default"], ["path": "session/home"], ["tree": "t", "path": "p"], ["tree": .null, "path": .null],
            ["path": 3], ["tree": true], ["tree": "t", "nope": 1], ["zz": 1, "aa": 2], ["path": ["a"]],
        ]
        for input in inputs {
            XCTAssertEqual(
                Result { try PathParameters(parameters: input) }.description,
                Result { try VarlinkObjectDecoder.decode(PathParameters.self, from: input) }.description, "\(input)")
            XCTAssertEqual(
                Result { try TreeParameters(parameters: input) }.description,
                Result { try VarlinkObjectDecoder.decode(TreeParameters.self, from: input) }.description, "\(input)")
        }
    }

    func testTransientParameters_whenDecodedByHand_thenSameAnswerAsDerived() {
        let inputs: [[String: JSONValue]] = [
            [:], ["height": 300], ["height": 300.5, "duration": 0], ["tree": "t", "height": 0, "duration": .null],
            ["width": 800, "height": 600], ["tree": "t", "width": 1, "height": 1e6], ["width": 0, "height": 600],
            ["height": -1], ["height": 2e6], ["height": "300"], ["height": .null], ["duration": 61], ["duration": -0.5],
            ["duration": "fast"], ["tree": 1, "height": 300], ["height": 300, "hieght": 1], ["zz": 1, "aa": 2], ["width": [1], "height": 2],
        ]
        // Compared as values, not as descriptions: an error's parameters are a dictionary, whose
        // description need not list equal members in the same order.
        func byHand<Parameters: VarlinkObject>(_ type: Parameters.Type, _ input: [String: JSONValue]) -> Result<Parameters, VarlinkError> {
            Result { () throws(VarlinkError) in try Parameters(parameters: input) }
        }
        func derived<Parameters: VarlinkObject>(_ type: Parameters.Type, _ input: [String: JSONValue]) -> Result<Parameters, VarlinkError> {
            Result { () throws(VarlinkError) in
                let parameters = try VarlinkObjectDecoder.decode(type, from: input)
                try parameters.validate()
                return parameters
            }
        }
        for input in inputs {
            XCTAssertEqual(byHand(ShowKeyboard.Parameters.self, input), derived(ShowKeyboard.Parameters.self, input), "\(input)")
            XCTAssertEqual(byHand(HideKeyboard.Parameters.self, input), derived(HideKeyboard.Parameters.self, input), "\(input)")
            XCTAssertEqual(byHand(Resize.Parameters.self, input), derived(Resize.Parameters.self, input), "\(input)")
        }
    }

    func testDerivedDecoding_whenNestedMemberIsWrong_thenNamesItsDottedPath() {
        var members = sampleNode.parameters
        members["children"] = [
            [
                "path": "s/home", "identifier": "home", "type": "T", "appearance": "appeared",
                "frame": ["x": 0, "y": 0, "width": "wide", "height": 0],
                "contentInset": ["top": 0, "left": 0, "bottom": 0, "right": 0], "onScreen": false, "children": [],
            ]
        ]
        XCTAssertThrowsError(try Node(parameters: members)) { error in
            XCTAssertEqual((error as? VarlinkError)?.parameters["parameter"], "children[0].frame.width")
        }
        members = sampleNode.parameters
        members["appearance"] = "sideways"
        XCTAssertThrowsError(try Node(parameters: members)) { error in
            XCTAssertEqual((error as? VarlinkError)?.parameters["parameter"], "appearance")
        }
    }
}

extension Result where Failure == any Error {
    fileprivate init(_ body: () throws -> Success) {
        do { self = .success(try body()) } catch { self = .failure(error) }
    }

    fileprivate var description: String {
        switch self {
        case .success(let value): "\(value)"
        case .failure(let error): "\((error as? VarlinkError)?.name ?? "?") \((error as? VarlinkError)?.parameters ?? [:])"
        }
    }
}
