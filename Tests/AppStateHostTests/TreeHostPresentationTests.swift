import AppStateCore
import AppStateIPC
import Foundation
import ServicePorts
import ServiceTestDoubles
import StateContainers
import TestSupport
import TreeFiles
import XCTest

@testable import AppStateHost

/// `Present` and `Dismiss` on the hosted trees: the replies, the declared errors, the
/// published tree and its deepest path, the events, and the state saved and restored.
final class TreeHostPresentationTests: AppStateTestCase {
    /// A tree `kiosk` whose root menu `home` shows `shop` (pages `a` and `b`) or `account`,
    /// with two presentations: `screensaver` (pages `one` and `two`) and `notice`, which is not
    /// restorable.
    private static let file = """
        {"trees": [{"name": "kiosk",
                    "root": {"type": "MenuController", "id": "home", "children": [
                                {"type": "PaginatedController", "id": "shop", "children": [{"type": "Controller", "id": "a"},
                                                                                           {"type": "Controller", "id": "b"}]},
                                {"type": "Controller", "id": "account"}]},
                    "presentations": [
                        {"type": "PaginatedController", "id": "screensaver", "children": [{"type": "Controller", "id": "one"},
                                                                                          {"type": "Controller", "id": "two"}]},
                        {"type": "Controller", "id": "notice", "restorationId": null}]}]}
        """

    @MainActor private struct Fixture {
        let host: TreeHost
        let processor: RequestProcessor
        let lane = RecordingLane()
        let mutator = ConnectionContext(peer: Peer(pid: 1, uid: 0, gid: 0, mayMutate: true), watcher: ClosedWatcher())

        init(restoring state: StateDocument? = nil) async throws {
            host = try TreeHost(file: HostedTreeFile.decode(json: Array(TreeHostPresentationTests.file.utf8)), restoring: state, clock: ManualClock())
            host.makeVisible()
            processor = RequestProcessor(host: host, store: nil)
            let watcher = ConnectionContext(peer: mutator.peer, watcher: RecordingWatcher(lane: lane))
            _ = await processor.process([VarlinkCall(method: Watch.name, more: true)], on: watcher)
            _ = try lane.takeReplies()
        }

        /// Answers one call on the mutating connection.
        func call(_ method: String, _ parameters: [String: JSONValue] = [:]) async -> VarlinkReply? {
            await processor.process([VarlinkCall(method: method, parameters: parameters)], on: mutator).first ?? nil
        }

        var root: NodeSnapshot {
            get throws { try host.published.snapshots.root(named: nil) }
        }

        var deepest: String {
            get throws { try host.published.snapshots.current(PathParameters()).path }
        }
    }

    @MainActor func testPresent_thenThePresentedControllerIsListedUnderTheRootMarkedAndOnTop() async throws {
        let fixture = try await Fixture()

        let reply = await fixture.call(Present.name, ["id": "screensaver"])

        XCTAssertNil(reply?.error)
        XCTAssertEqual(reply?.parameters, ["path": "home/screensaver"])
        let root = try fixture.root
        XCTAssertEqual(root.children.map(\.path), ["home/shop", "home/account", "home/screensaver"])
        XCTAssertEqual(root.children.map(\.presented), [nil, nil, true])
        XCTAssertFalse(root.onScreen, "full screen, the default, takes the screen underneath off screen")
        XCTAssertEqual(root.node(at: "home/shop/a")?.appearance, .disappeared)
        XCTAssertEqual(root.node(at: "home/screensaver")?.appearance, .appeared)
        XCTAssertEqual(try fixture.deepest, "home/screensaver/one")
        let events = try fixture.lane.takeReplies().compactMap(\.event)
        XCTAssertEqual(events.map(\.name), ["Present"])
        XCTAssertEqual(events.first?.path, "home")
        XCTAssertEqual(events.first?.current, "home/screensaver/one")
    }

    @MainActor func testPresent_whenOverFullScreen_thenTheScreenUnderneathStaysOnScreen() async throws {
        let fixture = try await Fixture()

        let reply = await fixture.call(Present.name, ["id": "notice", "style": "overFullScreen"])

        XCTAssertEqual(reply?.parameters, ["path": "home/notice"])
        let root = try fixture.root
        XCTAssertTrue(root.onScreen)
        XCTAssertEqual(root.node(at: "home/shop/a")?.appearance, .appeared)
        XCTAssertEqual(try fixture.deepest, "home/notice")
    }

    @MainActor func testPresent_whenTheIdentifierIsNoPresentation_thenNoSuchPresentation() async throws {
        let fixture = try await Fixture()

        let reply = await fixture.call(Present.name, ["id": "shop"])

        XCTAssertEqual(reply?.error, "io.appstate.NoSuchPresentation")
        XCTAssertEqual(reply?.parameters, ["tree": "kiosk", "id": "shop"])
        XCTAssertEqual(try fixture.root.children.count, 2)
        XCTAssertEqual(try fixture.lane.takeReplies().count, 0, "a failed call sends no event")
    }

    @MainActor func testPresent_whenAlreadyPresenting_thenAlreadyPresentingNamesBoth() async throws {
        let fixture = try await Fixture()
        _ = await fixture.call(Present.name, ["id": "screensaver"])

        let reply = await fixture.call(Present.name, ["id": "notice"])

        XCTAssertEqual(reply?.error, "io.appstate.AlreadyPresenting")
        XCTAssertEqual(reply?.parameters, ["path": "home", "presented": "home/screensaver"])
        XCTAssertEqual(try fixture.deepest, "home/screensaver/one")
    }

    @MainActor func testPresent_whenTheStyleIsNotDeclared_thenInvalidParameter() async throws {
        let fixture = try await Fixture()

        let reply = await fixture.call(Present.name, ["id": "screensaver", "style": "sheet"])

        XCTAssertEqual(reply?.error, "org.varlink.service.InvalidParameter")
        XCTAssertEqual(reply?.parameters, ["parameter": "style"])
    }

    @MainActor func testDismiss_whilePresenting_thenChangedAndThePathOnTopNow() async throws {
        let fixture = try await Fixture()
        _ = await fixture.call(Present.name, ["id": "screensaver"])
        _ = try fixture.lane.takeReplies()

        let reply = await fixture.call(Dismiss.name)

        XCTAssertEqual(reply?.parameters, ["changed": true, "path": "home/shop/a"])
        let root = try fixture.root
        XCTAssertEqual(root.children.map(\.path), ["home/shop", "home/account"])
        XCTAssertTrue(root.onScreen)
        XCTAssertEqual(root.node(at: "home/shop/a")?.appearance, .appeared)
        let replies = try fixture.lane.takeReplies()
        XCTAssertEqual(replies.compactMap(\.event).map(\.name), ["Dismiss"])
        XCTAssertEqual(replies.first?.removed, ["home/screensaver"])
    }

    @MainActor func testDismiss_whenNothingIsPresented_thenUnchangedWithoutAnEvent() async throws {
        let fixture = try await Fixture()

        let reply = await fixture.call(Dismiss.name)

        XCTAssertEqual(reply?.parameters, ["changed": false, "path": "home/shop/a"])
        XCTAssertEqual(try fixture.lane.takeReplies().count, 0)
    }

    @MainActor func testSetPage_withoutAPathWhilePresenting_thenTurnsThePresentedControllersPage() async throws {
        let fixture = try await Fixture()
        _ = await fixture.call(Present.name, ["id": "screensaver"])

        let reply = await fixture.call(SetPage.name, ["step": 1])

        XCTAssertEqual(reply?.parameters, ["index": 1, "path": "home/screensaver/two"], "without a path it acts on what is on screen")
        XCTAssertEqual(try fixture.root.node(at: "home/shop")?.pageIndex, 0)
    }

    @MainActor func testRestorableState_whilePresenting_thenANewHostPresentsItAgainWithItsState() async throws {
        let fixture = try await Fixture()
        _ = await fixture.call(Present.name, ["id": "screensaver", "style": "overFullScreen"])
        _ = await fixture.call(SetPage.name, ["path": "home/screensaver", "index": 1])
        let saved = try StateDocument.decode(fixture.host.restorableState.encoded(), path: "state.json")

        let restarted = try await Fixture(restoring: saved)

        XCTAssertEqual(try restarted.deepest, "home/screensaver/two")
        XCTAssertEqual(try restarted.root.onScreen, true, "restored over full screen")
        XCTAssertEqual(try restarted.root.node(at: "home/screensaver")?.presented, true)
    }

    @MainActor func testRestorableState_whenThePresentationIsNotRestorable_thenANewHostPresentsNothing() async throws {
        let fixture = try await Fixture()
        _ = await fixture.call(Present.name, ["id": "notice"])

        let restarted = try await Fixture(restoring: fixture.host.restorableState)

        XCTAssertEqual(try restarted.root.children.count, 2)
        XCTAssertEqual(try restarted.deepest, "home/shop/a")
    }

    @MainActor func testRestore_whenAPresentIsUndone_thenDismissed() async throws {
        let fixture = try await Fixture()
        let before = fixture.host.restorableState
        _ = await fixture.call(Present.name, ["id": "screensaver"])

        try fixture.host.restore(before)
        fixture.host.publish()

        XCTAssertEqual(try fixture.root.children.count, 2)
        XCTAssertTrue(try fixture.root.onScreen)
    }
}
