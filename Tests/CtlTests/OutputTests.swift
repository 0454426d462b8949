import AppStateCtlKit
import AppStateIPC
import AppStateRendering
import Glibc
import TestSupport
import XCTest

final class OutputTests: AppStateTestCase {
    func testWatchLines() {
        let snapshot = Watch.Reply(root: SampleTree.root)
        XCTAssertEqual(
            WatchFormatter.line(for: snapshot, timestamp: "2026-11-21T21:59:10"),
            "2026-11-21T21:59:10 Snapshot session/home/pages/overview"
        )
        let login = Watch.Reply(
            event: Event(tree: "main", name: "Login", path: "session", current: "session/home/pages/overview"),
            root: SampleTree.root
        )
        XCTAssertEqual(
            WatchFormatter.line(for: login, timestamp: "2026-11-21T21:59:18"),
            "2026-11-21T21:59:18 Login session/home/pages/overview"
        )
        let keyboard = Watch.Reply(
            event: Event(tree: "main", name: "keyboard.willShow", current: "session/login/login-form", userInfo: ["duration": 0.25]),
            root: SampleTree.root
        )
        XCTAssertEqual(
            WatchFormatter.line(for: keyboard, timestamp: "T"),
            "T keyboard.willShow session/login/login-form {\"duration\":0.25}"
        )
    }

    func testTimestampsAreLocalISO8601ToTheSecond() {
        let saved = getenv("TZ").map { String(cString: $0) }
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        setenv("TZ", "UTC", 1)
        tzset()
        XCTAssertEqual(LocalTime.iso8601(secondsSinceEpoch: 1_795_298_358), "2026-11-21T21:59:18")
        setenv("TZ", "CET-1", 1)
        tzset()
        XCTAssertEqual(LocalTime.iso8601(secondsSinceEpoch: 1_795_298_358), "2026-11-21T22:59:18")
        XCTAssertEqual(LocalTime.iso8601(secondsSinceEpoch: 0), "1970-01-01T01:00:00")
    }

    func testStatusAlignsItsLabels() {
        let stats = GetStats.Reply(
            version: AppStateVersion.current, uptimeSeconds: 7623.5, trees: ["main", "kiosk"], connections: 3, watchers: 1,
            requests: 1234, stateDirectory: "/var/lib/appstate", socket: "/run/appstate/io.appstate",
            idle: [IdleState(tree: "kiosk", idleSeconds: 42.4, stepsFired: 0, nextStep: "lock", inhibitors: 1)],
            inhibitors: [Inhibitor(tree: "kiosk", uid: 1000, pid: 4242, why: "card payment", heldSeconds: 3.2)],
            frontEnds: [
                FrontEnd(tree: "kiosk", kind: "kiosk", name: "appstate-kiosk 4242", state: "live", reloads: 2, restarts: 0),
                FrontEnd(
                    tree: "kiosk", kind: "page", name: "lobby-7f3a", state: "offline", reason: "net::ERR_NAME_NOT_RESOLVED", reloads: 0, restarts: 0),
            ]
        )
        let info = GetInfo.Reply(
            vendor: "appstate", product: "appstated", version: AppStateVersion.current, url: "https://example.org",
            interfaces: ["io.appstate", "org.varlink.service"]
        )
        // The help's example, written out, is what the renderer draws for this daemon.
        let example = StatusRenderer.example.split(separator: "\n").map { $0.dropFirst(2) }.joined(separator: "\n")
        XCTAssertEqual(StatusRenderer().render(stats: stats, info: info, socketPath: "/run/appstate/io.appstate"), example)
        XCTAssertTrue(example.hasPrefix("appstated 0.1.0 at /run/appstate/io.appstate\n     Uptime: 2h 7min\n"), example)
        let single = GetStats.Reply(version: "0.1.0", uptimeSeconds: 1, trees: ["default"], connections: 1, watchers: 0, requests: 2)
        XCTAssertTrue(
            StatusRenderer().render(stats: single, info: info, socketPath: "/s").contains("\n      Trees: default\n"),
            "a single tree is not marked as the default"
        )
        XCTAssertTrue(StatusRenderer().render(stats: single, info: info, socketPath: "/s").hasSuffix("State: not saved"))
        XCTAssertEqual(
            StatusRenderer.json(stats: stats, info: info),
            #"{"info":{"interfaces":["io.appstate","org.varlink.service"],"product":"appstated","url":"https://example.org","vendor":"appstate","version":"0.1.0"},"#
                + #""stats":{"connections":3,"#
                + #""frontEnds":[{"kind":"kiosk","name":"appstate-kiosk 4242","reloads":2,"restarts":0,"state":"live","tree":"kiosk"},"#
                + #"{"kind":"page","name":"lobby-7f3a","reason":"net::ERR_NAME_NOT_RESOLVED","reloads":0,"restarts":0,"state":"offline","tree":"kiosk"}],"#
                + #""idle":[{"idleSeconds":42.4,"inhibitors":1,"nextStep":"lock","stepsFired":0,"tree":"kiosk"}],"#
                + #""inhibitors":[{"heldSeconds":3.2,"pid":4242,"tree":"kiosk","uid":1000,"why":"card payment"}],"requests":1234,"socket":"/run/appstate/io.appstate","stateDirectory":"/var/lib/appstate","trees":["main","kiosk"],"uptimeSeconds":7623.5,"version":"0.1.0","watchers":1}}"#
        )
    }

    func testStatusListsTheFollowersOneALine() {
        let info = GetInfo.Reply(vendor: "appstate", product: "appstated", version: "0.1.0", url: "https://example.org", interfaces: [])
        let stats = GetStats.Reply(
            version: "0.1.0", uptimeSeconds: 1, trees: ["default"], connections: 1, watchers: 0, requests: 2,
            followers: [
                Follower(name: "logind seat0", connected: true, detail: "following seat0: ada"),
                Follower(name: "osk", connected: false, detail: "sm.puri.OSK0 is not on the session bus; waiting for it"),
            ])
        XCTAssertTrue(
            StatusRenderer().render(stats: stats, info: info, socketPath: "/s").hasSuffix(
                """
                      State: not saved
                  Following: logind seat0: following seat0: ada
                             osk: disconnected (sm.puri.OSK0 is not on the session bus; waiting for it)
                """), StatusRenderer().render(stats: stats, info: info, socketPath: "/s"))
    }

    func testStatusSaysHowEachFrontEndIsDoingAndHowOftenItRecovered() {
        let info = GetInfo.Reply(vendor: "appstate", product: "appstated", version: "0.1.0", url: "https://example.org", interfaces: [])
        let stats = GetStats.Reply(
            version: "0.1.0", uptimeSeconds: 1, trees: ["default", "lobby"], connections: 1, watchers: 0, requests: 2,
            frontEnds: [
                FrontEnd(
                    tree: "default", kind: "kiosk", name: "appstate-kiosk 4242", state: "recovering", reason: "renderer crashed", reloads: 2,
                    restarts: 1),
                FrontEnd(
                    tree: "lobby", kind: "page", name: "page 7f3a", state: "down", reason: "did not report within 10 s", reloads: 0, restarts: 0),
            ])
        XCTAssertTrue(
            StatusRenderer().render(stats: stats, info: info, socketPath: "/s").hasSuffix(
                """
                      State: not saved
                 Front-ends: default: kiosk appstate-kiosk 4242: recovering (renderer crashed; 2 reloads, 1 restart)
                             lobby: page page 7f3a: down (did not report within 10 s)
                """), StatusRenderer().render(stats: stats, info: info, socketPath: "/s"))
        let colored = TerminalStyle(isColored: true)
        XCTAssertTrue(StatusRenderer(style: colored).render(stats: stats, info: info, socketPath: "/s").contains(": \(colored.yellow("down")) ("))
    }

    func testCompletionCandidatesComeFromTheTree() {
        XCTAssertEqual(
            CompletionCandidates.paths(in: SampleTree.root, ofType: nil),
            ["session", "session/home", "session/home/pages"]
        )
        XCTAssertEqual(CompletionCandidates.paths(in: SampleTree.root, ofType: "PaginatedController"), ["session/home/pages"])
        XCTAssertEqual(
            CompletionCandidates.children(in: SampleTree.root, ofType: "PaginatedController", at: nil),
            ["overview", "activity"]
        )
        XCTAssertEqual(
            CompletionCandidates.children(in: SampleTree.root, ofType: "MenuController", at: "session/home"),
            ["pages", "dashboard"]
        )
        XCTAssertEqual(CompletionCandidates.children(in: SampleTree.root, ofType: "NavigationController", at: nil), [])
    }

    func testCompletionReadsOptionsFromTheWordsBeingCompleted() {
        let words = ["appstatectl", "page", "--socket", "/tmp/a", "--tree=kiosk", ""]
        XCTAssertEqual(CompletionCandidates.optionValue("--socket", in: words), "/tmp/a")
        XCTAssertEqual(CompletionCandidates.optionValue("--tree", in: words), "kiosk")
        XCTAssertNil(CompletionCandidates.optionValue("--path", in: words))
        XCTAssertNil(CompletionCandidates.optionValue("--socket", in: ["appstatectl", "--socket"]))
    }
}
