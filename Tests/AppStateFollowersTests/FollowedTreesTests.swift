import AppStateCore
import AppStateIPC
import Logging
import ServicePorts
import TestSupport
import WaylandOutputs
import XCTest

@testable import AppStateFollowers

/// Where the followers' news meets the trees, without a bus or a compositor: the output's
/// size, an unplugged output, the keyboard moved with a resized window, logind's idleness, and
/// a reload that brings rebuilt trees to the latest news.
final class FollowedTreesTests: AppStateTestCase {
    private let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    private func tree(_ name: String, _ width: Double, _ height: Double) -> FollowedTree {
        FollowedTree(name: name, windowSize: Size(width: width, height: height), session: nil)
    }

    private func layout(_ outputs: (String, Double, Double)...) -> OutputLayout {
        OutputLayout(outputs.map { .init(name: $0.0, size: Size(width: $0.1, height: $0.2)) })
    }

    @MainActor func testOutputs_whenTheyChangeAndGo_thenEachTreeTakesItsOutputsSizeOrItsFilesAgain() async {
        let host = RecordingFollowedHost([tree("main", 1280, 800), tree("side", 640, 480), tree("free", 100, 100)])
        let runner = ManualRunner()
        let followed = FollowedTrees(
            host: host, runner: runner, routes: FollowedRoutes(outputs: ["main": .first, "side": .named("HDMI-A-2")]),
            keyboardHeight: nil, logger: logger)
        followed.deliver(outputs: layout(("HDMI-A-1", 1920, 1080)))
        runner.runAll()
        XCTAssertEqual(host.trees.map(\.windowSize.width), [1920, 640, 100], "side's output is not there: its file's size, unchanged")
        followed.deliver(outputs: layout(("HDMI-A-1", 1920, 1080), ("HDMI-A-2", 1080, 1920)))
        followed.deliver(outputs: layout(("HDMI-A-1", 1920, 1080), ("HDMI-A-2", 800, 1280)))
        runner.runAll()
        XCTAssertEqual(host.methods, ["Resize", "Resize"], "only the latest layout, and only the trees it changes")
        XCTAssertEqual(host.trees[1].windowSize, Size(width: 800, height: 1280))
        // HDMI-A-2 is unplugged; HDMI-A-1 still the first.
        followed.deliver(outputs: layout(("HDMI-A-1", 1920, 1080)))
        runner.runAll()
        XCTAssertEqual(host.trees[1].windowSize, Size(width: 640, height: 480))
        // The first output unplugged too: main follows whichever output is first now.
        followed.deliver(outputs: layout(("HDMI-A-3", 1024, 768)))
        runner.runAll()
        XCTAssertEqual(host.trees[0].windowSize, Size(width: 1024, height: 768))
        XCTAssertEqual(host.methods.count, 4)
    }

    @MainActor func testKeyboard_whenTheWindowIsResizedUnderIt_thenItIsShownAgainAtTheNewBottom() async {
        let host = RecordingFollowedHost([tree("main", 1280, 720)])
        let runner = ManualRunner()
        let followed = FollowedTrees(
            host: host, runner: runner, routes: FollowedRoutes(outputs: ["main": .first]), keyboardHeight: nil, logger: logger)
        followed.deliver(keyboardVisible: true)
        runner.runAll()
        XCTAssertEqual(host.trees[0].keyboardFrame, Rect(x: 0, y: 360, width: 1280, height: 360))
        followed.deliver(outputs: layout(("HDMI-A-1", 720, 1280)))
        runner.runAll()
        XCTAssertEqual(host.batches.last?.map(\.method), [Resize.name, ShowKeyboard.name], "one batch: the size, then the keyboard")
        XCTAssertEqual(host.trees[0].keyboardFrame, Rect(x: 0, y: 860, width: 720, height: 420), "squeekboard's height for 720 wide")
        followed.deliver(keyboardVisible: true)
        runner.runAll()
        XCTAssertEqual(host.batches.count, 2, "the same news twice calls nothing")
    }

    @MainActor func testFollow_whenAReloadChangesWhatTreesFollow_thenTheyAreBroughtToTheLatestNews() async {
        let host = RecordingFollowedHost([tree("main", 1280, 800)])
        let runner = ManualRunner()
        let followed = FollowedTrees(host: host, runner: runner, routes: FollowedRoutes(), keyboardHeight: 300, logger: logger)
        followed.deliver(outputs: layout(("HDMI-A-1", 1920, 1080)))
        runner.runAll()
        XCTAssertEqual(host.methods, [], "no tree follows the output yet")
        followed.follow(FollowedRoutes(outputs: ["main": .named("HDMI-A-1")]))
        runner.runAll()
        XCTAssertEqual(host.trees[0].windowSize, Size(width: 1920, height: 1080))
        // A keyboard taller than the window is cut to the window.
        followed.deliver(outputs: layout(("HDMI-A-1", 1920, 200)))
        followed.deliver(keyboardVisible: true)
        runner.runAll()
        XCTAssertEqual(host.trees[0].keyboardFrame, Rect(x: 0, y: 0, width: 1920, height: 200))
    }

    @MainActor func testIdle_whenLogindSaysASeatIsIdle_thenTheTreesFollowingItAreToldAndNoCallIsMade() async {
        let host = RecordingFollowedHost([tree("main", 1280, 800), tree("side", 640, 480), tree("free", 100, 100)])
        let runner = ManualRunner()
        let followed = FollowedTrees(
            host: host, runner: runner, routes: FollowedRoutes(seats: ["main": "seat0", "side": "seat1"]), keyboardHeight: nil,
            logger: logger)
        followed.deliver(.idle(sinceMonotonicMicroseconds: 0), seat: "seat0")
        runner.runAll()
        XCTAssertEqual(host.idle.map(\.tree), ["main"])
        XCTAssertEqual(host.batches.count, 0, "idleness changes no tree: it is no call")
        followed.deliver(.active, seat: "seat1")
        runner.runAll()
        XCTAssertEqual(host.idle.map(\.tree), ["main", "side"])
        XCTAssertEqual(host.idle.map(\.idle), [true, false])
    }

    @MainActor func testIdle_whenAReloadMovesTreesBetweenSeats_thenEachHearsItsNewSeatOrThatItIsNotIdle() async {
        let host = RecordingFollowedHost([tree("main", 1280, 800), tree("side", 640, 480)])
        let runner = ManualRunner()
        let followed = FollowedTrees(
            host: host, runner: runner, routes: FollowedRoutes(seats: ["main": "seat0", "side": "seat0"]), keyboardHeight: nil,
            logger: logger)
        followed.deliver(.idle(sinceMonotonicMicroseconds: 0), seat: "seat0")
        followed.deliver(.active, seat: "seat1")
        runner.runAll()
        XCTAssertEqual(host.idle.map(\.tree).sorted(), ["main", "side"])
        // main moves to seat1, side follows no seat; a tree whose seat did not change hears nothing again.
        followed.follow(FollowedRoutes(seats: ["main": "seat1"]))
        runner.runAll()
        XCTAssertEqual(host.idle.dropFirst(2).map(\.tree).sorted(), ["main", "side"])
        XCTAssertEqual(host.idle.dropFirst(2).map(\.idle), [false, false])
        followed.follow(FollowedRoutes(seats: ["main": "seat1"]))
        runner.runAll()
        XCTAssertEqual(host.idle.count, 4, "the same routes again tell no clock anything")
    }
}
