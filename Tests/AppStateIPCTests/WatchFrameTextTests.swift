import AppStateCore
import AppStateIPC
import TestSupport
import XCTest

/// A `Watch` stream's replies, and `GetTree`'s, are written straight to bytes rather than
/// through their members; a client must not be able to tell: over random replies, the text is
/// byte for byte the encoding of the reply's members.
final class WatchFrameTextTests: AppStateTestCase {
    func testStreamedFrame_whenRandomReplies_thenItIsTheEncodingOfTheMembers() throws {
        var random = SeededGenerator(seed: 13)
        for _ in 0..<2_000 {
            let reply = Watch.Reply(
                event: Bool.random(using: &random) ? Self.event(&random) : nil,
                root: Bool.random(using: &random) ? Self.node(&random, depth: 0) : nil,
                changed: Bool.random(using: &random) ? (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.node(&random, depth: 1) } : nil,
                removed: Bool.random(using: &random) ? (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.text(&random) } : nil
            )
            let expected = VarlinkReply(parameters: reply.parameters, continues: true).encoded
            XCTAssertEqual(String(decoding: reply.streamedFrame, as: UTF8.self), String(decoding: expected, as: UTF8.self))
            XCTAssertEqual(reply.streamedFrame.last, 0, "the frame ends with its NUL")
        }
    }

    func testGetTreeReply_whenRandomTreesWrittenFromKeptText_thenItIsTheEncodingOfTheMembers() {
        var random = SeededGenerator(seed: 17)
        for _ in 0..<1_000 {
            let reply = GetTree.Reply(root: Self.node(&random, depth: 0))
            var expected: [UInt8] = []
            JSONWriter.writeObject(reply.parameters, into: &expected)
            for _ in 0..<2 {
                var written: [UInt8] = []
                reply.writeJSONReusingEncodings(into: &written)
                XCTAssertEqual(String(decoding: written, as: UTF8.self), String(decoding: expected, as: UTF8.self))
            }
        }
    }

    func testStreamedFrame_whenEverythingIsAbsent_thenTheParametersAreEmpty() {
        XCTAssertEqual(String(decoding: Watch.Reply().streamedFrame, as: UTF8.self), "{\"parameters\":{},\"continues\":true}\0")
    }

    private static func node(_ random: inout SeededGenerator, depth: Int) -> Node {
        Node(
            path: text(&random), identifier: text(&random), type: text(&random),
            title: optional(&random) { text(&$0) },
            appearance: Appearance.allCases.randomElement(using: &random)!,
            frame: Rect(x: number(&random), y: number(&random), width: number(&random), height: number(&random)),
            contentInset: Insets(top: number(&random), left: number(&random), bottom: number(&random), right: number(&random)),
            onScreen: Bool.random(using: &random),
            current: optional(&random) { text(&$0) },
            pageIndex: optional(&random) { Int.random(in: -2...40, using: &$0) },
            pageCount: optional(&random) { Int.random(in: 0...40, using: &$0) },
            user: optional(&random) { text(&$0) },
            locked: optional(&random) { Bool.random(using: &$0) },
            menuVisible: optional(&random) { Bool.random(using: &$0) },
            keyboardOverlap: optional(&random) { number(&$0) },
            contentState: optional(&random) { text(&$0) },
            collapsed: optional(&random) { Bool.random(using: &$0) },
            children: depth >= 3 ? [] : (0..<Int.random(in: 0...2, using: &random)).map { _ in node(&random, depth: depth + 1) }
        )
    }

    private static func event(_ random: inout SeededGenerator) -> Event {
        Event(
            tree: text(&random), name: text(&random), path: optional(&random) { text(&$0) }, current: text(&random),
            userInfo: optional(&random) { ["user": .string(text(&$0)), "count": .number(number(&$0)), "flag": .bool(true), "none": .null] }
        )
    }

    /// Plain names, and the characters JSON must escape, and some that it must not.
    private static func text(_ random: inout SeededGenerator) -> String {
        ["", "session/home", "pages", "a\"b", "back\\slash", "line\nbreak", "tab\t", "\u{1}", "ümlaut", "🙂", "x/y/z"]
            .randomElement(using: &random)!
    }

    /// Integral and fractional, negative, large, negative zero, and the non-finite that are written as null.
    private static func number(_ random: inout SeededGenerator) -> Double {
        [0, -0.0, 1, 320, 0.5, 1.0 / 3, -12.25, 1e21, 2.5e-7, Double(Int.random(in: -1000...1000, using: &random)) / 8, .nan, .infinity]
            .randomElement(using: &random)!
    }

    private static func optional<Value>(_ random: inout SeededGenerator, _ make: (inout SeededGenerator) -> Value) -> Value? {
        Bool.random(using: &random) ? make(&random) : nil
    }
}
