import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

/// The front-ends of a tree and its blanked screen through the real daemon: reports and the
/// front-end marked down reach `Watch`, `GetStats`, `appstatectl status` and the metrics,
/// `GetKiosk` finds the kiosk's socket until it is down, and a tree file's offline page and a
/// blank step reach the root.
final class FrontEndEndToEndTests: AppStateTestCase {
    private func ctl(_ daemon: DaemonProcess, _ arguments: String...) throws -> Command {
        try Command.run(Products.appstatectl.path, ["--socket", daemon.socketPath] + arguments, environment: ["NO_COLOR": "1"])
    }

    private func report(_ client: VarlinkClient, _ kind: String, _ name: String, _ state: String, _ more: [String: JSONValue] = [:]) throws {
        var parameters: [String: JSONValue] = ["kind": .string(kind), "name": .string(name), "state": .string(state), "livenessInterval": 2]
        parameters.merge(more) { $1 }
        XCTAssertEqual(try client.call(method: ReportFrontEnd.name, parameters: parameters), [:])
    }

    func testFrontEnds_whenAKioskAndAPageReportThenStop_thenWatchStatusMetricsAndGetKioskFollow() throws {
        let daemon = try DaemonProcess()
        defer { XCTAssertEqual(daemon.stop(), 0, daemon.stderrText) }
        let client = try VarlinkClient(path: daemon.socketPath)
        let watcher = try VarlinkClient(path: daemon.socketPath)
        var stream = try watcher.stream(method: Watch.name)
        XCTAssertNotNil(try stream.next()?["root"])
        XCTAssertThrowsError(try client.call(method: GetKiosk.name)) { error in
            XCTAssertEqual((error as? VarlinkError)?.name, "io.appstate.NoKiosk")
        }

        let socket = daemon.directory.appendingPathComponent("kiosk.sock").path
        try report(client, "kiosk", "appstate-kiosk 4242", "recovering", ["reason": "renderer crashed", "reloads": 1, "socket": .string(socket)])
        try report(client, "page", "page 7f3a", "live")
        XCTAssertEqual(try client.call(method: GetKiosk.name)["socket"], .string(socket))
        for name in ["appstate-kiosk 4242", "page 7f3a"] {
            let event = try XCTUnwrap(stream.next()?["event"])
            XCTAssertEqual(event["name"], "ReportFrontEnd")
            XCTAssertEqual(event["userInfo"]?["name"], .string(name))
        }
        try report(client, "kiosk", "appstate-kiosk 4242", "live", ["reloads": 3, "socket": .string(socket)])
        XCTAssertEqual(try XCTUnwrap(stream.next()?["event"])["userInfo"]?["state"], "live")
        let status = try ctl(daemon, "status")
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains(" Front-ends: default: kiosk appstate-kiosk 4242: live (3 reloads)\n"), status.stdout)
        XCTAssertTrue(status.stdout.contains("             default: page page 7f3a: live"), status.stdout)
        let json = try JSONValue(jsonText: try ctl(daemon, "status", "--json").stdout.trimmingCharacters(in: .newlines))
        XCTAssertEqual(json["stats"]?["frontEnds"]?[0]?["socket"], .string(socket))
        let metrics = try ctl(daemon, "metrics").stdout
        XCTAssertTrue(metrics.contains(#"appstate_frontend_recoveries_total{tree="default",recovery="reload"} 2"#), metrics)
        XCTAssertTrue(metrics.contains(#"appstate_frontends_up{tree="default",kind="kiosk"} 1.0"#), metrics)

        // Both stop reporting: each is marked down within its two seconds, and watchers hear.
        var down: [String] = []
        while down.count < 2, let event = try stream.next()?["event"] {
            XCTAssertEqual(event["userInfo"]?["state"], "down")
            XCTAssertEqual(event["userInfo"]?["reason"], "did not report within 2 s")
            down.append(event["userInfo"]?["name"]?.stringValue ?? "")
        }
        XCTAssertEqual(Set(down), ["appstate-kiosk 4242", "page 7f3a"])
        XCTAssertThrowsError(try client.call(method: GetKiosk.name)) { error in
            XCTAssertEqual((error as? VarlinkError)?.name, "io.appstate.NoKiosk")
        }
        XCTAssertTrue(try ctl(daemon, "status").stdout.contains("default: page page 7f3a: down (did not report within 2 s)"))
        XCTAssertTrue(try ctl(daemon, "metrics").stdout.contains(#"appstate_frontends_up{tree="default",kind="kiosk"} 0.0"#))
    }

    func testTreeFile_whenItGivesAnOfflinePageAndABlankStep_thenTheRootCarriesBothAndTheScreenBlanks() throws {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("kiosk.yaml")
        try """
        trees:
          - name: kiosk
            offline: file:///srv/kiosk/offline.html
            root: { type: Controller, id: main, url: "https://kiosk.example/" }
            idle: [{ after: 0.3, blank: true }]
        """.write(to: file, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--tree-file", file.path])
        defer { XCTAssertEqual(daemon.stop(), 0, daemon.stderrText) }
        let watcher = try VarlinkClient(path: daemon.socketPath)
        var stream = try watcher.stream(method: Watch.name)
        let first = try XCTUnwrap(stream.next()?["root"])
        XCTAssertEqual(first["offline"], "file:///srv/kiosk/offline.html")
        if first["blanked"] == nil {
            let blank = try XCTUnwrap(stream.next())
            XCTAssertEqual(blank["event"]?["name"], "Blank")
            XCTAssertEqual(blank["patches"]?["main"]?["blanked"], true)
        }
        XCTAssertTrue(
            try ctl(daemon, "tree").stdout.hasPrefix(
                "main Controller 1280×800+0+0, url https://kiosk.example/, offline file:///srv/kiosk/offline.html, blanked"))
        XCTAssertEqual(try ctl(daemon, "wake").stdout, "awake\n")
        XCTAssertEqual(try XCTUnwrap(stream.next())["event"]?["name"], "Wake")
        XCTAssertEqual(try XCTUnwrap(stream.next())["event"]?["name"], "Blank", "blanked again, 0.3 s after the wake")
    }
}
