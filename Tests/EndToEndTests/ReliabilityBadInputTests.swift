import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Hostile and broken input against the real daemon (docs/reliability/bad-input.md): every frame here answers
/// a declared error (and the connection stays usable) or closes that connection only; the
/// daemon stays up and the tree is exactly as it was.
final class ReliabilityBadInputTests: AppStateTestCase {
    private enum Outcome: CustomStringConvertible {
        /// A declared error reply with this name; the connection then still answers calls.
        case error(String)
        /// The daemon closed the connection (malformed frame), possibly after an error reply.
        case closed
        /// An ordinary reply (e.g. unknown header keys, which Varlink lets pass).
        case reply

        var description: String {
            switch self {
            case .error(let name): name
            case .closed: "closed"
            case .reply: "reply"
            }
        }
    }

    private struct Case {
        let name: String
        let bytes: [UInt8]
        let expected: Outcome
        let thenClosed: Bool

        init(_ name: String, _ text: String, _ expected: Outcome) {
            self.name = name
            bytes = Array(text.utf8) + [0]
            self.expected = expected
            thenClosed = false
        }

        init(_ name: String, bytes: [UInt8], _ expected: Outcome, thenClosed: Bool = false) {
            self.name = name
            self.bytes = bytes
            self.expected = expected
            self.thenClosed = thenClosed
        }
    }

    private static let invalidParameter = Outcome.error("org.varlink.service.InvalidParameter")
    private static let invalidValue = Outcome.error("io.appstate.InvalidValue")
    private static let noSuchNode = Outcome.error("io.appstate.NoSuchNode")

    /// Wraps raw bytes (possibly not UTF-8) in a call frame.
    private static func frame(_ prefix: String, _ middle: [UInt8], _ suffix: String) -> [UInt8] {
        Array(prefix.utf8) + middle + Array(suffix.utf8) + [0]
    }

    /// A Login that switches users, so that a name is judged even while someone is logged in.
    private static func login(_ user: String) -> String {
        #"{"method":"io.appstate.Login","parameters":{"switch":true,"user":"# + user + "}}"
    }

    private static func current(path: String) -> String {
        #"{"method":"io.appstate.GetCurrent","parameters":{"path":"# + path + "}}"
    }

    private static var cases: [Case] {
        var cases: [Case] = []
        // Invalid UTF-8, in the method, a value and a key; overlong forms; encoded surrogates.
        cases += [
            Case("invalid UTF-8 in the method", bytes: frame(#"{"method":"io.appstate.Get"#, [0xFF], #"Tree"}"#), .closed),
            Case(
                "invalid UTF-8 in a value", bytes: frame(#"{"method":"io.appstate.Login","parameters":{"user":"a"#, [0xC3, 0x28], #""}}"#), .closed),
            Case("invalid UTF-8 in a key", bytes: frame(#"{"method":"io.appstate.Login","parameters":{""#, [0xFE], #"":1}}"#), .closed),
            Case(
                "overlong encoding of /",
                bytes: frame(#"{"method":"io.appstate.GetCurrent","parameters":{"path":"session"#, [0xC0, 0xAF], #"home"}}"#), .closed),
            Case(
                "UTF-8 encoded surrogate", bytes: frame(#"{"method":"io.appstate.Login","parameters":{"user":""#, [0xED, 0xA0, 0x80], #""}}"#),
                .closed),
            Case("truncated UTF-8 sequence", bytes: frame(#"{"method":"io.appstate.Login","parameters":{"user":""#, [0xE2, 0x82], #""}}"#), .closed),
            Case("lone surrogate escape", login(#""\ud800""#), .closed),
            Case("byte-order mark", bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"method":"io.appstate.GetTree"}"#.utf8) + [0], .closed),
        ]
        // Nesting.
        let deepArray = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let deepObject = String(repeating: #"{"a":"#, count: 20_000) + "1" + String(repeating: "}", count: 20_000)
        cases += [
            Case("100,000 nested arrays", #"{"method":"io.appstate.Post","parameters":{"name":"x","userInfo":{"a":"# + deepArray + "}}}", .closed),
            Case("20,000 nested objects", #"{"method":"io.appstate.Post","parameters":{"name":"x","userInfo":"# + deepObject + "}}", .closed),
            Case("unclosed nesting", #"{"method":"io.appstate.GetTree","parameters":"# + String(repeating: "[", count: 50_000), .closed),
            Case(
                "nesting within the limit, undeclared",
                #"{"method":"io.appstate.GetTree","parameters":{"deep":"#
                    + String(repeating: "[", count: 50) + String(repeating: "]", count: 50) + "}}", invalidParameter),
        ]
        // Numbers: out of range, not integers, huge exponents, NaN and infinities.
        cases += [
            Case("1e400", #"{"method":"io.appstate.SetPage","parameters":{"index":1e400}}"#, .closed),
            Case("-1e400", #"{"method":"io.appstate.Resize","parameters":{"width":-1e400,"height":10}}"#, .closed),
            Case("exponent with 30 digits", #"{"method":"io.appstate.SetPage","parameters":{"index":1e999999999999999999999999999999}}"#, .closed),
            // Underflows to 0, a valid index: the page already shown.
            Case("tiny exponent", #"{"method":"io.appstate.SetPage","parameters":{"index":1e-999999999999999999999999999999}}"#, .reply),
            Case(
                "400-digit integer", #"{"method":"io.appstate.SetPage","parameters":{"index":"# + String(repeating: "9", count: 400) + "}}", .closed),
            Case("1e300 as an index", #"{"method":"io.appstate.SetPage","parameters":{"index":1e300}}"#, invalidParameter),
            Case(
                "2^53 + 1 as an index", #"{"method":"io.appstate.SetPage","parameters":{"index":9007199254740993}}"#, .error("io.appstate.OutOfRange")
            ),
            Case("Int64.max as a step", #"{"method":"io.appstate.SetPage","parameters":{"step":9223372036854775807}}"#, invalidParameter),
            Case(
                "Int64.min as a step", #"{"method":"io.appstate.SetPage","parameters":{"step":-9223372036854775808}}"#,
                .error("io.appstate.OutOfRange")),
            Case(
                "largest double below 2^63 as a step", #"{"method":"io.appstate.SetPage","parameters":{"step":9223372036854774784}}"#,
                .error("io.appstate.OutOfRange")),
            Case("negative index", #"{"method":"io.appstate.SetPage","parameters":{"index":-1}}"#, .error("io.appstate.OutOfRange")),
            Case("fractional index", #"{"method":"io.appstate.SetPage","parameters":{"index":0.5}}"#, invalidParameter),
            Case("NaN", #"{"method":"io.appstate.Resize","parameters":{"width":NaN,"height":10}}"#, .closed),
            Case("Infinity", #"{"method":"io.appstate.Resize","parameters":{"width":Infinity,"height":10}}"#, .closed),
            Case("-Infinity", #"{"method":"io.appstate.ShowKeyboard","parameters":{"height":-Infinity}}"#, .closed),
            Case("leading zero", #"{"method":"io.appstate.SetPage","parameters":{"index":01}}"#, .closed),
            Case("plus sign", #"{"method":"io.appstate.SetPage","parameters":{"index":+1}}"#, .closed),
            Case("bare exponent", #"{"method":"io.appstate.SetPage","parameters":{"index":1e}}"#, .closed),
            Case("hex number", #"{"method":"io.appstate.SetPage","parameters":{"index":0x1}}"#, .closed),
        ]
        // Wrong types, in parameters and in the message itself.
        cases += [
            Case("user is a number", login("7"), invalidParameter),
            Case("user is null", login("null"), invalidParameter),
            Case("user is an array", login(#"["ada"]"#), invalidParameter),
            Case("user is an object", login(#"{"name":"ada"}"#), invalidParameter),
            Case("switch is a string", #"{"method":"io.appstate.Login","parameters":{"user":"ada","switch":"yes"}}"#, invalidParameter),
            Case("width is a string", #"{"method":"io.appstate.Resize","parameters":{"width":"800","height":600}}"#, invalidParameter),
            Case("index is a bool", #"{"method":"io.appstate.SetPage","parameters":{"index":true}}"#, invalidParameter),
            Case("userInfo is an array", #"{"method":"io.appstate.Post","parameters":{"name":"session.didLogIn","userInfo":[1]}}"#, invalidParameter),
            Case("tree is a number", #"{"method":"io.appstate.GetTree","parameters":{"tree":1}}"#, invalidParameter),
            Case(
                "session.didLogIn with a number as user",
                #"{"method":"io.appstate.Post","parameters":{"name":"session.didLogIn","userInfo":{"user":7}}}"#, invalidValue),
            Case("session.didLogIn without a user", #"{"method":"io.appstate.Post","parameters":{"name":"session.didLogIn"}}"#, invalidValue),
            Case("parameters is an array", #"{"method":"io.appstate.GetTree","parameters":[]}"#, .closed),
            Case("parameters is a string", #"{"method":"io.appstate.GetTree","parameters":"x"}"#, .closed),
            Case("method is a number", #"{"method":42}"#, .closed),
            Case("method is null", #"{"method":null}"#, .closed),
            Case("no method", #"{"parameters":{}}"#, .closed),
            Case("oneway is a string", #"{"method":"io.appstate.GetTree","oneway":"true"}"#, .closed),
            Case("more is a number", #"{"method":"io.appstate.Watch","more":1}"#, .closed),
            Case("message is an array", #"[{"method":"io.appstate.GetTree"}]"#, .closed),
            Case("message is a string", #""io.appstate.GetTree""#, .closed),
            Case("duplicate method key", #"{"method":"io.appstate.GetTree","method":"io.appstate.Logout"}"#, .closed),
            Case("duplicate parameter", #"{"method":"io.appstate.Login","parameters":{"user":"ada","user":"bob"}}"#, .closed),
        ]
        // Undeclared parameters and header keys, unknown methods.
        cases += [
            Case("undeclared parameter", #"{"method":"io.appstate.Login","parameters":{"user":"ada","admin":true}}"#, invalidParameter),
            Case("undeclared parameter on a read", #"{"method":"io.appstate.GetTree","parameters":{"x":1}}"#, invalidParameter),
            Case("undeclared parameter on Logout", #"{"method":"io.appstate.Logout","parameters":{"user":"root"}}"#, invalidParameter),
            Case(
                "50,000 undeclared parameters",
                #"{"method":"io.appstate.GetTree","parameters":{"#
                    + (0..<50_000).map { #""p\#($0)":0"# }.joined(separator: ",") + "}}", invalidParameter),
            Case("undeclared header keys", #"{"method":"io.appstate.GetCurrent","x-debug":true,"io.example.trace":"1","sudo":true}"#, .reply),
            Case("unknown method", #"{"method":"io.appstate.Explode"}"#, .error("org.varlink.service.MethodNotFound")),
            Case("empty method", #"{"method":""}"#, .error("org.varlink.service.InterfaceNotFound")),
            Case("method with a trailing space", #"{"method":"io.appstate.GetTree "}"#, .error("org.varlink.service.MethodNotFound")),
            Case("method with an escaped NUL", #"{"method":"io.appstate.GetTree\u0000"}"#, .error("org.varlink.service.MethodNotFound")),
            Case("unknown interface", #"{"method":"com.example.Nope"}"#, .error("org.varlink.service.InterfaceNotFound")),
            Case(
                "500 KB method name", #"{"method":"io.appstate."# + String(repeating: "A", count: 500_000) + #""}"#,
                .error("org.varlink.service.MethodNotFound")),
        ]
        // Conflicting and unsupported flags.
        cases += [
            Case("more and oneway on Watch", #"{"method":"io.appstate.Watch","more":true,"oneway":true}"#, .closed),
            Case("more and oneway on Login", #"{"method":"io.appstate.Login","parameters":{"user":"mallory"},"more":true,"oneway":true}"#, .closed),
            Case("upgrade", #"{"method":"io.appstate.GetTree","upgrade":true}"#, .error("org.varlink.service.MethodNotImplemented")),
            Case(
                "upgrade on a mutation", #"{"method":"io.appstate.Login","parameters":{"user":"mallory"},"upgrade":true}"#,
                .error("org.varlink.service.MethodNotImplemented")),
            Case("Watch without more", #"{"method":"io.appstate.Watch"}"#, .error("org.varlink.service.ExpectedMore")),
        ]
        // Empty, blank and truncated frames; trailing garbage.
        cases += [
            Case("empty frame", bytes: [0], .closed),
            Case("three empty frames", bytes: [0, 0, 0], .closed),
            Case("blank frame", " \t\n", .closed),
            Case("empty object", "{}", .closed),
            Case("null", "null", .closed),
            Case("truncated object", #"{"method":"io.appstate.GetTree""#, .closed),
            Case("trailing garbage", #"{"method":"io.appstate.GetTree"} x"#, .closed),
            Case("two objects in one frame", #"{"method":"io.appstate.GetTree"}{"method":"io.appstate.GetTree"}"#, .closed),
            Case("invalid escape", #"{"method":"io.appstate.Get\xTree"}"#, .closed),
            Case("raw control character in a string", "{\"method\":\"io.appstate.Get\u{1}Tree\"}", .closed),
            Case("surrounding whitespace", #"  {"method":"io.appstate.GetCurrent"}  "#, .reply),
            Case(
                "garbage after a read in the same write", bytes: Array(#"{"method":"io.appstate.GetTree"}"#.utf8) + [0] + Array("garbage".utf8) + [0],
                .closed),
        ]
        // Paths and tree names: traversal, empty segments, absolute paths.
        for path in [
            "../session", "session/../session", "session/..", "session//home", "/session", "//session", "session/",
            "session/home/", "", ".", "./session", "session/./home", "session/home/pages/../../home",
            #"session\\home"#, "session/home/pages/overview/../settings", "session/home%2Fpages", "/etc/passwd",
            "session/home/inbox/../../../../../etc/shadow", String(repeating: "session/", count: 10_000),
        ] {
            let encoded = String(decoding: try! JSONEncoder().encode(path), as: UTF8.self)
            cases.append(Case("GetCurrent path \(path.prefix(48))", current(path: encoded), noSuchNode))
        }
        cases += [
            Case(
                "SetPage path traversal", #"{"method":"io.appstate.SetPage","parameters":{"path":"session/home/inbox/../pages","index":1}}"#,
                noSuchNode),
            Case(
                "Push path traversal", #"{"method":"io.appstate.Push","parameters":{"path":"session/home/pages/../inbox","id":"message"}}"#,
                noSuchNode),
            Case("Push id traversal", #"{"method":"io.appstate.Push","parameters":{"id":"../message"}}"#, .error("io.appstate.NoSuchChild")),
            Case("Push id with a slash", #"{"method":"io.appstate.Push","parameters":{"id":"message/compose"}}"#, .error("io.appstate.NoSuchChild")),
            Case(
                "SelectMenuItem id traversal", #"{"method":"io.appstate.SelectMenuItem","parameters":{"id":"../home"}}"#,
                .error("io.appstate.NoSuchChild")),
            Case("SetPage id traversal", #"{"method":"io.appstate.SetPage","parameters":{"id":"../settings"}}"#, .error("io.appstate.NoSuchChild")),
            Case("tree name traversal", #"{"method":"io.appstate.GetTree","parameters":{"tree":"../default"}}"#, .error("io.appstate.NoSuchTree")),
            Case("empty tree name", #"{"method":"io.appstate.Login","parameters":{"tree":"","user":"mallory"}}"#, .error("io.appstate.NoSuchTree")),
        ]
        // Absurd geometry and durations.
        for (width, height) in [
            ("-1", "600"), ("0", "600"), ("-0.0", "600"), ("800", "-1e308"), ("1e308", "600"),
            ("1000001", "600"), ("800", "1.7976931348623157e308"),
        ] {
            cases.append(
                Case(
                    "Resize \(width)×\(height)", #"{"method":"io.appstate.Resize","parameters":{"width":\#(width),"height":\#(height)}}"#,
                    invalidValue))
        }
        for parameters in [
            #""height":-5"#, #""height":-0.0001"#, #""height":1e308"#, #""height":801"#,
            #""height":200,"duration":-1"#, #""height":200,"duration":1e308"#, #""height":200,"duration":61"#,
        ] {
            cases.append(Case("ShowKeyboard \(parameters)", #"{"method":"io.appstate.ShowKeyboard","parameters":{\#(parameters)}}"#, invalidValue))
        }
        cases.append(
            Case("HideKeyboard with a negative duration", #"{"method":"io.appstate.HideKeyboard","parameters":{"duration":-1}}"#, invalidValue))
        // User and notification names: length and invisible or control characters.
        cases += [
            Case("empty user", login(#""""#), invalidValue),
            Case("257-byte user", login("\"" + String(repeating: "a", count: 257) + "\""), invalidValue),
            Case("129 four-byte characters as user", login("\"" + String(repeating: "😀", count: 129) + "\""), invalidValue),
            Case("500 KB user", login("\"" + String(repeating: "a", count: 500_000) + "\""), invalidValue),
            Case("NUL in user", login(#""ada\u0000""#), invalidValue),
            Case("escape sequence in user", login(#""\u001b[2Jada""#), invalidValue),
            Case("newline in user", login(#""ada\nroot""#), invalidValue),
            Case("DEL in user", login(#""ada\u007f""#), invalidValue),
            Case("C1 control in user", login(#""ada\u0085""#), invalidValue),
            Case("line separator in user", login(#""ada\u2028root""#), invalidValue),
            Case("right-to-left override in user", login(#""\u202eadmin""#), invalidValue),
            Case("zero-width space only as user", login(#""\u200b""#), invalidValue),
            Case("spaces only as user", login(#""   ""#), invalidValue),
            Case("empty notification name", #"{"method":"io.appstate.Post","parameters":{"name":""}}"#, invalidValue),
            Case("notification name with a newline", #"{"method":"io.appstate.Post","parameters":{"name":"session.didLogIn\n"}}"#, invalidValue),
            Case(
                "300-byte notification name", #"{"method":"io.appstate.Post","parameters":{"name":""# + String(repeating: "n", count: 300) + #""}}"#,
                invalidValue),
            Case(
                "session.didLogIn with a control character in user",
                #"{"method":"io.appstate.Post","parameters":{"name":"session.didLogIn","userInfo":{"user":"ada\u001b"}}}"#, invalidValue),
            Case(
                "session.didLogIn with a 1,000-byte user",
                #"{"method":"io.appstate.Post","parameters":{"name":"session.didLogIn","userInfo":{"user":""# + String(repeating: "a", count: 1000)
                    + #""}}}"#, invalidValue),
            Case(
                "session.didLogIn with a right-to-left override",
                #"{"method":"io.appstate.Post","parameters":{"name":"session.didLogIn","userInfo":{"user":"\u202eadmin"}}}"#, invalidValue),
        ]
        return cases
    }

    func testBadInput_whenSentToTheRealDaemon_thenDeclaredErrorOrClosedAndTreeUnchanged() throws {
        let daemon = try DaemonProcess()
        let pid = daemon.process.processIdentifier
        // Logged in, so that every container (pages, menu, navigation) is in the tree.
        let setup = try VarlinkClient(path: daemon.socketPath)
        _ = try setup.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        _ = try setup.call(method: "io.appstate.SelectMenuItem", parameters: ["id": "inbox"])
        _ = try setup.call(method: "io.appstate.SelectMenuItem", parameters: ["id": "dashboard"])
        _ = try setup.call(method: "io.appstate.SelectMenuItem", parameters: ["id": "pages"])
        let before = try Reliability.tree(daemon.socketPath)
        let cases = Self.cases
        var counts: [String: Int] = [:]
        for testCase in cases {
            let connection = try ProbeConnection(path: daemon.socketPath)
            connection.send(testCase.bytes)
            let frame = connection.nextFrame(timeout: 10)
            let outcome: String
            if let frame, let error = frame["error"] as? String {
                outcome = error
            } else if frame != nil {
                outcome = "reply"
            } else {
                outcome = connection.isClosed ? "closed" : "no answer"
            }
            switch testCase.expected {
            case .closed:
                // A malformed frame may be answered with an error first; either way the connection ends.
                XCTAssertTrue(connection.waitForClose(timeout: 10), "\(testCase.name): connection left open (got \(outcome))")
            case .error(let name):
                XCTAssertEqual(outcome, name, "\(testCase.name)")
                // A declared error leaves the connection usable.
                connection.send(frame: #"{"method":"org.varlink.service.GetInfo"}"#)
                XCTAssertEqual(
                    (connection.nextFrame()?["parameters"] as? [String: Any])?["product"] as? String, "appstated",
                    "\(testCase.name): the connection no longer answers after the error")
            case .reply:
                XCTAssertEqual(outcome, "reply", "\(testCase.name)")
            }
            counts[testCase.expected.description, default: 0] += 1
            XCTAssertTrue(Reliability.isAlive(pid), "\(testCase.name): the daemon died: \(daemon.stderrText)")
            guard Reliability.isAlive(pid) else { return }
            let after = try Reliability.tree(daemon.socketPath)
            if let difference = Reliability.difference(before, after) {
                XCTFail("\(testCase.name): the tree changed: \(difference)")
                return
            }
        }
        Reliability.report(
            "bad input: \(cases.count) frames, outcomes \(counts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")); daemon alive, tree unchanged"
        )
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }

    func testOversizedFrames_whenOverTheDefaultLimit_thenMessageTooLargeAndOnlyThatConnectionCloses() throws {
        let daemon = try DaemonProcess()
        let bystander = try VarlinkClient(path: daemon.socketPath)
        let before = try Reliability.tree(daemon.socketPath)
        let limit = VarlinkFrameDecoder.defaultMaximumMessageSize
        // One frame just over the limit, terminated.
        let terminated = try ProbeConnection(path: daemon.socketPath)
        terminated.send(
            Array(#"{"method":"io.appstate.Login","parameters":{"user":""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: limit)
                + Array(#""}}"#.utf8) + [0])
        XCTAssertEqual(terminated.nextFrame()?["error"] as? String, "io.appstate.MessageTooLarge")
        XCTAssertTrue(terminated.waitForClose())
        // Twice the limit with no terminator at all: refused as soon as the limit is passed.
        let unterminated = try ProbeConnection(path: daemon.socketPath)
        let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 64 << 10)
        var sent = 0
        while sent < 2 * limit, unterminated.send(chunk) { sent += chunk.count }
        XCTAssertEqual(unterminated.nextFrame()?["error"] as? String, "io.appstate.MessageTooLarge")
        XCTAssertTrue(unterminated.waitForClose())
        XCTAssertEqual(try bystander.call(method: "io.appstate.GetCurrent")["path"], "session/login/login-form")
        XCTAssertNil(Reliability.difference(before, try Reliability.tree(daemon.socketPath)))
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }

    func testPageStep_whenTheSumOverflows_thenOutOfRangeAndTheDaemonLives() throws {
        // A tree with enough pages that a step near Int.max overflows the current index.
        let directory = try DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pages = (0..<1100).map { #"{"type":"Controller","id":"p\#($0)"}"# }.joined(separator: ",")
        let file = directory.appendingPathComponent("pages.json")
        try
            #"{"version":1,"trees":[{"name":"main","window":{"width":800,"height":600},"root":{"type":"PaginatedController","id":"pages","children":[\#(pages)]}}]}"#
            .write(to: file, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--tree-file", file.path])
        let client = try VarlinkClient(path: daemon.socketPath)
        XCTAssertEqual(try client.call(method: "io.appstate.SetPage", parameters: ["index": 1099])["index"], 1099)
        for step in [9_223_372_036_854_774_784.0, -9_223_372_036_854_775_808.0] {
            XCTAssertThrowsError(try client.call(method: "io.appstate.SetPage", parameters: ["step": .number(step)])) { error in
                XCTAssertEqual((error as? VarlinkError)?.name, "io.appstate.OutOfRange", "\(error)")
            }
        }
        XCTAssertTrue(Reliability.isAlive(daemon.process.processIdentifier), daemon.stderrText)
        XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent", parameters: ["path": "pages"])["path"], "pages/p1099")
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }

    func testResize_whenTinyButAboveZero_thenAcceptedAndEveryFrameStaysFinite() throws {
        // 5e-324 is the smallest double above 0, so the interface's range admits it: the
        // layout arithmetic must stay finite and non-negative all the same.
        let daemon = try DaemonProcess()
        let client = try VarlinkClient(path: daemon.socketPath)
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        _ = try client.call(method: "io.appstate.SelectMenuItem", parameters: ["id": "dashboard"])
        _ = try client.call(method: "io.appstate.ShowKeyboard", parameters: ["height": 300])
        _ = try client.call(method: "io.appstate.Resize", parameters: ["width": .number(.leastNonzeroMagnitude), "height": 0.5])
        func check(_ node: JSONValue) {
            for key in ["frame", "contentInset"] {
                for (name, value) in node[key]?.objectValue ?? [:] {
                    let number = value.doubleValue ?? .nan
                    XCTAssertTrue(number.isFinite && number >= 0, "\(node["path"]?.stringValue ?? ""): \(key).\(name) = \(number)")
                }
            }
            for child in node["children"]?.arrayValue ?? [] { check(child) }
        }
        check(try XCTUnwrap(client.call(method: "io.appstate.GetTree")["root"]))
        _ = try client.call(method: "io.appstate.Resize", parameters: ["width": 1280, "height": 800])
        XCTAssertEqual(try client.call(method: "io.appstate.GetTree")["root"]?["frame"], ["x": 0, "y": 0, "width": 1280, "height": 800])
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }
}
