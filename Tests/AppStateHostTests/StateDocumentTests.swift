import AppStateCore
import ServicePorts
import StateContainers
import TestSupport
import XCTest

@testable import AppStateHost

final class StateDocumentTests: AppStateTestCase {
    private static let values: [String: JSONValue] = [
        "user": "ada/lovelace \"the first\" \u{00E9}\u{1F600}\n",
        "since": .number(1_732_000_000.25),
        "index": 2,
        "flags": [true, false, .null],
        "nested": ["page": ["index": -3, "title": "Inbox \\ Drafts"]],
    ]

    func testEncoded_whenDecoded_thenTheSameDocument() throws {
        let document = StateDocument(trees: [
            "default": RestorationDocument(controllers: ["session": Self.values, "session/home/pages": ["index": 1]]),
            "kiosk": RestorationDocument(controllers: [:]),
        ])

        let bytes = try document.encoded()

        XCTAssertEqual(try StateDocument.decode(bytes, path: "state.json"), document)
    }

    func testEncoded_whenTheSameStateIsBuiltInAnotherOrder_thenTheSameBytes() throws {
        var forward = RestorationDocument()
        var backward = RestorationDocument()
        let paths = ["session", "session/home", "session/home/pages", "session/login"]
        for path in paths { forward.controllers[path] = Self.values }
        for path in paths.reversed() { backward.controllers[path] = Self.values }

        XCTAssertEqual(try StateDocument(trees: ["default": forward]).encoded(), try StateDocument(trees: ["default": backward]).encoded())
    }

    func testEncoded_whenANumberIsNotFinite_thenUnencodableNamingWhere() {
        let document = StateDocument(trees: ["default": RestorationDocument(controllers: ["session": ["since": [.number(.infinity)]]])])

        XCTAssertThrowsError(try document.encoded()) { error in
            XCTAssertEqual("\(error)", "the state cannot be written as JSON (default: session: since holds a number that is not finite)")
        }
    }

    func testDecode_whenWrittenByAnotherWriterWithMembersOfALaterVersion_thenReadsWhatItKnows() throws {
        let text = """
            {
              "trees" : { "default" : { "controllers" : { "session" : { "user" : "ada" } }, "version" : 1, "note" : "x" } },
              "version" : 1,
              "writtenBy" : "a later appstated"
            }
            """

        let document = try StateDocument.decode(Array(text.utf8), path: "state.json")

        XCTAssertEqual(document, StateDocument(trees: ["default": RestorationDocument(controllers: ["session": ["user": "ada"]])]))
    }

    func testDecode_whenNotAStateDocument_thenCorruptNamingTheFile() {
        let cases = [
            "", "[]", #"{"trees":{}}"#, #"{"version":0,"trees":{}}"#, #"{"version":1}"#,
            #"{"version":1,"trees":{"default":{"version":1}}}"#, #"{"version":1,"trees":{"default":{"version":1,"controllers":{"session":3}}}}"#,
            #"{"version":1,"trees":{"default":{"version":-1,"controllers":{}}}}"#,
        ]
        for text in cases {
            XCTAssertThrowsError(try StateDocument.decode(Array(text.utf8), path: "/var/lib/appstate/state.json"), text) { error in
                XCTAssertTrue((error as? StorageError)?.isCorrupt == true, text)
                XCTAssertTrue("\(error)".hasPrefix("/var/lib/appstate/state.json is not a valid state file"), "\(error)")
            }
        }
    }

    func testDecode_whenANewerBuildWroteIt_thenNotCorruptButSaysSoNamingTheFile() {
        let cases = [
            (#"{"version":3,"trees":{}}"#, 2), (#"{"version":1,"trees":{"default":{"version":99,"controllers":{}}}}"#, 1),
            (#"{"version":2,"trees":{"default":{"version":99,"controllers":{}}}}"#, 1),
        ]
        for (text, readable) in cases {
            XCTAssertThrowsError(try StateDocument.decode(Array(text.utf8), path: "/var/lib/appstate/state.json"), text) { error in
                XCTAssertFalse((error as? StorageError)?.isCorrupt ?? true, text)
                XCTAssertTrue("\(error)".hasPrefix("/var/lib/appstate/state.json holds "), "\(error)")
                XCTAssertTrue("\(error)".contains("newer than this appstated reads (\(readable))"), "\(error)")
            }
        }
    }
}
