import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `appstate-gateway` over HTTP, the real binary in front of the real daemon: each route,
/// each refusal (and that refused requests never reach the daemon), bad bodies, the daemon
/// and the gateway going away, Unix sockets and socket activation.
final class GatewayHTTPTests: AppStateTestCase {
    private var directory: URL!
    private var daemon: DaemonProcess!

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = try DaemonProcess.makeTemporaryDirectory()
        daemon = try DaemonProcess()
    }

    override func tearDown() {
        daemon = nil
        try? FileManager.default.removeItem(at: directory)
        super.tearDown()
    }

    private func gateway(_ arguments: [String] = [], tokenFile: Bool = true) throws -> GatewayProcess {
        try GatewayProcess(socket: daemon.socketPath, directory: directory, arguments: arguments, tokenFile: tokenFile)
    }

    private func tree() throws -> JSONValue? {
        try VarlinkClient(path: daemon.socketPath).call(method: GetTree.name)["root"]
    }

    /// The daemon's count of calls of a method, by outcome, from its metrics.
    private func calls(of method: String) throws -> [String] {
        guard case .string(let text)? = try VarlinkClient(path: daemon.socketPath).call(method: GetMetrics.name)["text"] else { return [] }
        return text.split(separator: "\n").filter { $0.contains(#"method="\#(method)""#) }.map(String.init).sorted()
    }

    private func json(_ response: HTTPTestConnection.Response) throws -> JSONValue {
        try JSONValue(jsonBytes: response.body)
    }

    func testStart_whenGivenATokenFile_thenCreatesIt0640AndKeepsTheTokenOutOfItsOutput() throws {
        let gateway = try gateway()
        XCTAssertTrue(gateway.url.wholeMatch(of: /http:\/\/127\.0\.0\.1:[0-9]+\//) != nil, gateway.url)
        let mode = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("token").path)[.posixPermissions]
        XCTAssertEqual((mode as? NSNumber)?.intValue, 0o640)
        XCTAssertEqual(gateway.token.count, 32)
        gateway.stop()
        XCTAssertEqual(try self.gateway().token, gateway.token, "a second start reads the same token")
        let ephemeral = try self.gateway(tokenFile: false)
        XCTAssertTrue(ephemeral.url.wholeMatch(of: /http:\/\/127\.0\.0\.1:[0-9]+\/\?token=[0-9a-f]{32}/) != nil, ephemeral.url)
    }

    func testStop_whenSIGTERMWhileAPageFollowsTheWatch_thenEndsTheStreamAndExits0() throws {
        let gateway = try gateway()
        let page = try gateway.connection()
        XCTAssertEqual(try page.request("GET", "/watch", headers: [gateway.bearer]).status, 200)
        _ = try page.readEvents(until: { $0.name == "snapshot" })
        try assertGracefulStop(of: gateway.process, whileReading: page)
    }

    func testRoutes_whenTheTokenIsRight_thenServeThePageTheModuleCallsAndTheStream() throws {
        let gateway = try gateway()
        let connection = try gateway.connection()
        let page = try connection.request("GET", "/?token=\(gateway.token)")
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertTrue(page.text.contains(#"<script type="module" src="kiosk.js">"#))
        let cookie = try XCTUnwrap(page.header("Set-Cookie"))
        XCTAssertEqual(cookie, "appstate-gateway-\(gateway.port)=\(gateway.token); Path=/; HttpOnly; SameSite=Strict")
        XCTAssertTrue(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        let withCookie = [("Cookie", "appstate-gateway-\(gateway.port)=\(gateway.token)")]
        for (path, type) in [("/kiosk.css", "text/css"), ("/kiosk.js", "text/javascript"), ("/appstate.js", "text/javascript")] {
            let response = try connection.request("GET", path, headers: withCookie)
            XCTAssertEqual(response.status, 200, path)
            XCTAssertTrue(response.header("Content-Type")?.hasPrefix(type) == true, path)
            XCTAssertNil(response.header("Set-Cookie"), "the cookie came with the request")
        }
        let current = try connection.request("POST", "/call/io.appstate.GetCurrent", headers: withCookie, body: Array(#"{"path":"session"}"#.utf8))
        XCTAssertEqual(current.status, 200)
        XCTAssertEqual(current.header("Content-Type"), "application/json")
        XCTAssertEqual(try json(current)["path"], "session/login")
        let empty = try connection.request("POST", "/call/io.appstate.GetTree", headers: [gateway.bearer])
        XCTAssertEqual(try json(empty)["root"]?["path"], "session", "no body: no parameters")
        let shown = try connection.request(
            "POST", "/call/io.appstate.ShowKeyboard", headers: [gateway.bearer], body: Array(#"{"height":320,"duration":0}"#.utf8))
        XCTAssertEqual(shown.status, 200)
        XCTAssertEqual(shown.text, "{}")
        let stream = try gateway.connection()
        XCTAssertEqual(
            try stream.request("GET", "/watch?path=session/login", headers: [gateway.bearer]).header("Content-Type"),
            "text/event-stream; charset=utf-8")
        let snapshot = try XCTUnwrap(try stream.readEvents(until: { $0.name == "snapshot" }).last)
        XCTAssertTrue(snapshot.data.contains(#""keyboardOverlap":320"#), snapshot.data)
    }

    func testRefusals_whenTheTokenIsMissingOrWrong_thenEveryRouteAnswers401AndTheDaemonIsUntouched() throws {
        let gateway = try gateway()
        let before = try tree()
        let wrong = String(gateway.token.reversed())
        for headers in [[], [("Authorization", "Bearer \(wrong)")], [("Cookie", "appstate-gateway-\(gateway.port)=\(wrong)")]] {
            for (method, target) in [
                ("GET", "/"), ("GET", "/kiosk.js"), ("GET", "/appstate.js"), ("GET", "/watch"), ("POST", "/call/io.appstate.ShowKeyboard"),
                ("GET", "/?token=\(wrong)"), ("GET", "/nothing"),
            ] {
                let response = try gateway.connection().request(method, target, headers: headers, body: Array(#"{"height":320}"#.utf8))
                XCTAssertEqual(response.status, 401, "\(method) \(target) \(headers)")
                XCTAssertEqual(response.header("WWW-Authenticate"), #"Bearer realm="appstate-gateway""#)
                XCTAssertEqual(try json(response)["error"], "io.appstate.gateway.Unauthorized")
                XCTAssertNil(response.header("Set-Cookie"))
            }
        }
        XCTAssertEqual(try tree(), before)
        XCTAssertEqual(try calls(of: "io.appstate.ShowKeyboard"), [#"appstate_requests_total{method="io.appstate.ShowKeyboard",outcome="ok"} 0"#])
    }

    func testRefusals_whenAPageOfAnotherOriginAsks_thenAnswers403WithoutCORSWhateverItCarries() throws {
        let gateway = try gateway(["--origin", "https://kiosk.example"])
        for origin in ["http://evil.example", "null", "http://127.0.0.1:\(gateway.port + 1)", "https://kiosk.example.evil"] {
            for (method, target) in [
                ("POST", "/call/io.appstate.ShowKeyboard"), ("GET", "/watch"), ("GET", "/"), ("OPTIONS", "/call/io.appstate.GetTree"),
            ] {
                let response = try gateway.connection().request(
                    method, target, headers: [gateway.bearer, ("Origin", origin)], body: Array(#"{"height":320}"#.utf8))
                XCTAssertEqual(response.status, 403, "\(origin) \(method) \(target)")
                XCTAssertEqual(try json(response)["error"], "io.appstate.gateway.OriginNotAllowed")
                XCTAssertNil(response.header("Access-Control-Allow-Origin"))
            }
        }
        XCTAssertEqual(try calls(of: "io.appstate.ShowKeyboard"), [#"appstate_requests_total{method="io.appstate.ShowKeyboard",outcome="ok"} 0"#])
        for own in ["http://127.0.0.1:\(gateway.port)", "http://localhost:\(gateway.port)"] {
            let response = try gateway.connection().request("POST", "/call/io.appstate.GetTree", headers: [gateway.bearer, ("Origin", own)])
            XCTAssertEqual(response.status, 200, own)
            XCTAssertNil(response.header("Access-Control-Allow-Origin"), "a page of its own needs no CORS")
        }
        let listed = try gateway.connection().request(
            "POST", "/call/io.appstate.GetTree", headers: [gateway.bearer, ("Origin", "https://kiosk.example")])
        XCTAssertEqual(listed.status, 200)
        XCTAssertEqual(listed.header("Access-Control-Allow-Origin"), "https://kiosk.example")
        XCTAssertEqual(listed.header("Access-Control-Allow-Credentials"), "true")
        let preflight = try gateway.connection().request(
            "OPTIONS", "/call/io.appstate.GetTree", headers: [("Origin", "https://kiosk.example"), ("Access-Control-Request-Method", "POST")])
        XCTAssertEqual(preflight.status, 204, "a preflight carries no token")
        XCTAssertEqual(preflight.header("Access-Control-Allow-Origin"), "https://kiosk.example")
        XCTAssertEqual(preflight.header("Access-Control-Allow-Methods"), "GET, POST")
        XCTAssertTrue(preflight.header("Access-Control-Allow-Headers")?.contains("Authorization") == true)
    }

    func testCall_whenTheMethodIsNotAllowed_thenAnswers403AndNeverReachesTheDaemon() throws {
        let gateway = try gateway()
        let before = try tree()
        for method in ["io.appstate.Login", "io.appstate.Logout", "io.appstate.SetPage", "io.appstate.Watch", "org.varlink.service.GetInfo"] {
            let response = try gateway.connection().request(
                "POST", "/call/\(method)", headers: [gateway.bearer], body: Array(#"{"user":"mallory"}"#.utf8))
            XCTAssertEqual(response.status, 403, method)
            XCTAssertEqual(try json(response)["error"], "io.appstate.gateway.MethodNotAllowed")
            XCTAssertEqual(try json(response)["parameters"]?["method"], .string(method))
        }
        XCTAssertEqual(try tree(), before)
        XCTAssertEqual(try calls(of: "io.appstate.Login"), [#"appstate_requests_total{method="io.appstate.Login",outcome="ok"} 0"#])
        let allowed = try self.gateway(["--allow", "Login", "--allow", "io.appstate.Frobnicate"])
        let login = try allowed.connection().request(
            "POST", "/call/io.appstate.Login", headers: [allowed.bearer], body: Array(#"{"user":"ada"}"#.utf8))
        XCTAssertEqual(try json(login)["path"], "session/home")
        let missing = try allowed.connection().request("POST", "/call/io.appstate.Frobnicate", headers: [allowed.bearer])
        XCTAssertEqual(missing.status, 501, "allowed, but the daemon has no such method")
        XCTAssertEqual(try json(missing)["error"], "org.varlink.service.MethodNotFound")
        let refused = try allowed.connection().request("POST", "/call/io.appstate.GetTree", headers: [allowed.bearer])
        XCTAssertEqual(refused.status, 403, "--allow replaces the default list")
    }

    func testCall_whenTheDaemonRefuses_thenAnswersItsErrorWithAFittingStatus() throws {
        let gateway = try gateway(["--allow", "GetCurrent", "--allow", "ShowKeyboard", "--allow", "Login"])
        for (method, body, status, error) in [
            ("GetCurrent", #"{"path":"session/nope"}"#, 404, "io.appstate.NoSuchNode"),
            ("GetCurrent", #"{"tree":"other"}"#, 404, "io.appstate.NoSuchTree"),
            ("GetCurrent", #"{"path":7}"#, 400, "org.varlink.service.InvalidParameter"),
            ("ShowKeyboard", #"{"height":100000}"#, 422, "io.appstate.InvalidValue"),
            ("Login", #"{"user":"ada"}"#, 200, nil),
            ("Login", #"{"user":"grace"}"#, 409, "io.appstate.AlreadyLoggedIn"),
        ] {
            let response = try gateway.connection().request("POST", "/call/io.appstate.\(method)", headers: [gateway.bearer], body: Array(body.utf8))
            XCTAssertEqual(response.status, status, "\(method) \(body): \(response.text)")
            if let error {
                XCTAssertEqual(try json(response)["error"], .string(error), "\(method) \(body)")
                guard case .object? = try json(response)["parameters"] else { return XCTFail("no parameters: \(response.text)") }
            }
        }
    }

    /// A page may ask for the keyboard through the default list, as it may move it: the call
    /// reaches the daemon, which (without --follow-osk here) has no keyboard to ask.
    func testCall_whenAPageRequestsTheKeyboard_thenTheDefaultListLetsItReachTheDaemon() throws {
        let gateway = try gateway()
        let response = try gateway.connection().request(
            "POST", "/call/io.appstate.RequestKeyboard", headers: [gateway.bearer], body: Array(#"{"visible":true}"#.utf8))
        XCTAssertEqual(response.status, 409, response.text)
        XCTAssertEqual(try json(response)["error"], "io.appstate.NoKeyboardFollowed")
        XCTAssertEqual(try json(response)["parameters"]?["reason"], "the daemon was started without --follow-osk")
        XCTAssertEqual(
            try calls(of: "io.appstate.RequestKeyboard"),
            [
                #"appstate_requests_total{method="io.appstate.RequestKeyboard",outcome="io.appstate.NoKeyboardFollowed"} 1"#,
                #"appstate_requests_total{method="io.appstate.RequestKeyboard",outcome="ok"} 0"#,
            ])
    }

    /// A page reports itself through the default list, as a page only: the daemon lists it,
    /// while a report of a kiosk, or of a socket, is refused before it reaches the daemon.
    func testCall_whenAPageReportsItselfAsAFrontEnd_thenListedButNeverAsAKiosk() throws {
        let gateway = try gateway()
        let page = #"{"kind":"page","name":"page 7f3a9c01 /","state":"live","livenessInterval":10}"#
        let response = try gateway.connection().request("POST", "/call/io.appstate.ReportFrontEnd", headers: [gateway.bearer], body: Array(page.utf8))
        XCTAssertEqual(response.status, 200, response.text)
        let stats = try VarlinkClient(path: daemon.socketPath).call(GetStats.self, .init())
        XCTAssertEqual(stats.frontEnds.map(\.name), ["page 7f3a9c01 /"])
        for body in [
            #"{"kind":"kiosk","name":"mallory","state":"live","livenessInterval":10}"#,
            #"{"kind":"page","name":"mallory","state":"live","livenessInterval":10,"socket":"/tmp/mallory.sock"}"#,
        ] {
            let refused = try gateway.connection().request(
                "POST", "/call/io.appstate.ReportFrontEnd", headers: [gateway.bearer], body: Array(body.utf8))
            XCTAssertEqual(refused.status, 403, refused.text)
            XCTAssertEqual(try json(refused)["error"], "io.appstate.gateway.NotAPage")
        }
        XCTAssertEqual(try VarlinkClient(path: daemon.socketPath).call(GetStats.self, .init()).frontEnds.count, 1)
    }

    func testCall_whenTheBodyIsMalformedOrTooLarge_thenAnswers400Or413AndTheDaemonIsUntouched() throws {
        let gateway = try gateway()
        let before = try tree()
        for body in ["{", "[]", #"{"height": 320"#, "320", "height=320", #"{"height":320}{"#] {
            let response = try gateway.connection().request(
                "POST", "/call/io.appstate.ShowKeyboard", headers: [gateway.bearer], body: Array(body.utf8))
            XCTAssertEqual(response.status, 400, body)
            XCTAssertEqual(try json(response)["error"], "io.appstate.gateway.InvalidBody", body)
        }
        let large = try gateway.connection()
        let padding = String(repeating: " ", count: 70_000)
        let tooLarge = try large.request(
            "POST", "/call/io.appstate.ShowKeyboard", headers: [gateway.bearer], body: Array(#"{"height":320\#(padding)}"#.utf8))
        XCTAssertEqual(tooLarge.status, 413)
        XCTAssertEqual(tooLarge.header("Connection"), "close")
        XCTAssertEqual(try large.readToEnd(), 0)
        XCTAssertEqual(try tree(), before)
        XCTAssertEqual(try calls(of: "io.appstate.ShowKeyboard"), [#"appstate_requests_total{method="io.appstate.ShowKeyboard",outcome="ok"} 0"#])
    }

    func testRoutes_whenNothingIsThereOrTheMethodIsWrong_thenAnswer404Or405() throws {
        let gateway = try gateway()
        for (method, target, status) in [
            ("GET", "/nothing.html", 404), ("GET", "/../../etc/passwd", 404), ("GET", "/%2e%2e/etc/passwd", 404), ("GET", "/.token", 404),
            ("POST", "/call/", 404), ("GET", "/call/io.appstate.GetTree", 405), ("POST", "/watch", 405), ("DELETE", "/", 405),
        ] {
            let response = try gateway.connection().request(method, target, headers: [gateway.bearer])
            XCTAssertEqual(response.status, status, "\(method) \(target)")
        }
        XCTAssertEqual(try gateway.connection().request("POST", "/watch", headers: [gateway.bearer]).header("Allow"), "GET")
    }

    func testDaemonDown_whenCalledOrFollowed_thenCallsAre503AndStreamsStayOpenAndResync() throws {
        let gateway = try gateway()
        let open = try gateway.connection()
        _ = try open.request("GET", "/watch", headers: [gateway.bearer])
        let first = try XCTUnwrap(try open.readEvents(until: { $0.name == "snapshot" }).last?.id)
        XCTAssertEqual(daemon.stop(), 0)
        XCTAssertEqual(try open.readEvents(until: { $0.name == "status" }).last.map { try JSONValue(jsonText: $0.data)["connected"] }, false)
        let call = try gateway.connection().request("POST", "/call/io.appstate.GetTree", headers: [gateway.bearer])
        XCTAssertEqual(call.status, 503)
        XCTAssertEqual(call.header("Retry-After"), "1")
        XCTAssertEqual(try json(call)["error"], "io.appstate.gateway.DaemonUnavailable")
        // A page that connects while the daemon is down is told so, and kept.
        let late = try gateway.connection()
        XCTAssertEqual(try late.request("GET", "/watch", headers: [gateway.bearer]).status, 200)
        XCTAssertEqual(try late.readEvents(until: { $0.name == "status" }).last.map { try JSONValue(jsonText: $0.data)["connected"] }, false)
        try daemon.restart()
        _ = try VarlinkClient(path: daemon.socketPath).call(method: ShowKeyboard.name, parameters: ["height": 300, "duration": 0])
        for stream in [open, late] {
            let events = try stream.readEvents(until: { $0.name == "snapshot" })
            XCTAssertEqual(events.map(\.name), ["status", "snapshot"])
            XCTAssertNotEqual(events.last?.id?.split(separator: ".").first, first.split(separator: ".").first, "a new epoch")
        }
        XCTAssertEqual(try gateway.connection().request("POST", "/call/io.appstate.GetTree", headers: [gateway.bearer]).status, 200)
    }

    func testRestart_whenTheGatewayComesBackWithItsTokenFile_thenTheCookieStillWorksAndOldIdsGetTheTree() throws {
        let first = try gateway()
        let stream = try first.connection()
        _ = try stream.request("GET", "/watch", headers: [first.bearer])
        let id = try XCTUnwrap(try stream.readEvents(until: { $0.name == "snapshot" }).last?.id)
        first.stop()
        XCTAssertEqual(try stream.readToEnd(), 0)
        let second = try gateway(["--listen", "127.0.0.1:\(first.port)"])
        let cookie = ("Cookie", "appstate-gateway-\(first.port)=\(first.token)")
        let again = try second.connection()
        XCTAssertEqual(try again.request("GET", "/watch", headers: [cookie, ("Last-Event-ID", id)]).status, 200)
        let events = try again.readEvents(until: { $0.name == "snapshot" })
        XCTAssertEqual(events.map(\.name), ["status", "snapshot"], "another run's id brings the whole tree")
    }

    func testListen_whenAUnixSocket_thenServesThereAndPrintsIt() throws {
        let path = directory.appendingPathComponent("http.sock").path
        let gateway = try gateway(["--listen", "unix:\(path)"])
        XCTAssertEqual(gateway.url, "unix:\(path)")
        let response = try HTTPTestConnection(unixSocket: path).request("POST", "/call/io.appstate.GetTree", headers: [gateway.bearer])
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Set-Cookie")?.hasPrefix("appstate-gateway=\(gateway.token);"), true)
        let proxied = try HTTPTestConnection(unixSocket: path).request(
            "GET", "/watch", headers: [gateway.bearer, ("Origin", "http://127.0.0.1:8470")])
        XCTAssertEqual(proxied.status, 403, "behind a proxy, pages' origins must be listed")
    }

    func testSocketActivation_whenPassedATCPAndAUnixSocket_thenServesBoth() throws {
        let port = try Self.freePort()
        let path = directory.appendingPathComponent("activated.sock").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        process.arguments = [
            "--listen=127.0.0.1:\(port)", "--listen=\(path)", Products.appstateGateway.path, "--socket", daemon.socketPath, "--token-file",
            directory.appendingPathComponent("token").path, "--listen", "127.0.0.1:1",
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.runAsTestChild()
        defer {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        // systemd-socket-activate says where it listens ("Listening on … as 3."), then execs
        // the gateway in its place on the first connection.
        for descriptor in 3...4 {
            let line = try GatewayProcess.firstLine(of: errors.fileHandleForReading.fileDescriptor)
            XCTAssertTrue(line.hasSuffix("as \(descriptor)."), line)
        }
        let first = try HTTPTestConnection(port: port).request("GET", "/appstate.js")
        XCTAssertEqual(first.status, 401)
        XCTAssertEqual(
            try GatewayProcess.firstLine(of: output.fileHandleForReading.fileDescriptor), "http://127.0.0.1:\(port)/", "--listen is ignored")
        let token = try String(contentsOfFile: directory.appendingPathComponent("token").path, encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let tcp = try HTTPTestConnection(port: port).request(
            "POST", "/call/io.appstate.GetTree", headers: [("Authorization", "Bearer \(token)"), ("Origin", "http://127.0.0.1:\(port)")])
        XCTAssertEqual(tcp.status, 200, "the passed TCP socket's origin is the gateway's own")
        let unix = try HTTPTestConnection(unixSocket: path).request(
            "POST", "/call/io.appstate.GetTree", headers: [("Authorization", "Bearer \(token)")])
        XCTAssertEqual(unix.status, 200)
    }

    func testOptions_whenInvalid_thenExits64WithASentence() throws {
        for (arguments, message) in [
            (["--listen", "127.0.0.1"], "--listen takes HOST:PORT"), (["--listen", "unix:relative"], "or unix:PATH with an absolute path"),
            (["--allow", "login"], "--allow takes a method of io.appstate"), (["--origin", "kiosk.example"], "--origin takes an origin"),
            (["--pages", "/nonexistent/pages"], "--pages takes a directory"),
        ] {
            let result = try Command.run(Products.appstateGateway.path, ["--socket", daemon.socketPath] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let unreadable = directory.appendingPathComponent("bad-token").path
        try "short".write(toFile: unreadable, atomically: true, encoding: .utf8)
        let bad = try Command.run(Products.appstateGateway.path, ["--socket", daemon.socketPath, "--token-file", unreadable])
        XCTAssertEqual(bad.status, 78, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("holds no token"), bad.stderr)
    }

    func testPages_whenADirectoryIsGiven_thenServesItAtTheRootAndTheModuleStill() throws {
        let pages = directory.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        try "<p>own front-end</p>".write(to: pages.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        let gateway = try gateway(["--pages", pages.path])
        XCTAssertEqual(try gateway.connection().request("GET", "/", headers: [gateway.bearer]).text, "<p>own front-end</p>")
        XCTAssertEqual(try gateway.connection().request("GET", "/kiosk.css", headers: [gateway.bearer]).status, 404)
        XCTAssertEqual(try gateway.connection().request("GET", "/appstate.js", headers: [gateway.bearer]).status, 200)
    }

    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw TestFailure("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
