import AppStateCore
import TestSupport
import XCTest

@testable import StateContainers

/// An object whose lifetime the tests watch through a weak reference.
private final class Captured: Sendable {}

/// The cases that move a name's observers to new storage while a post walks the old one
/// (see `ObserverList`): the post must go on undisturbed and everything must be freed after it.
@MainActor
final class NotificationBusStorageTests: AppStateTestCase {
    private let alpha: NotificationName = "test.alpha"

    func testPost_whenObserversAddedDuringPostOutgrowTheStorage_deliversToTheOldOnesOnlyThenToAll() async {
        let bus = NotificationBus()
        var log: [Int] = []
        var added: [ObservationToken] = []
        let tokens = (0..<3).map { index in
            bus.addObserver(forName: alpha) { _ in
                log.append(index)
                guard index == 0, added.isEmpty else { return }
                added = (3..<40).map { later in bus.addObserver(forName: self.alpha) { _ in log.append(later) } }
            }
        }

        bus.post(name: alpha)
        XCTAssertEqual(log, [0, 1, 2])
        log = []
        bus.post(name: alpha)

        XCTAssertEqual(log, Array(0..<40))
        XCTAssertEqual(bus.observerCount, 40)
        XCTAssertEqual(tokens.count + added.count, 40)
    }

    func testPost_whenEveryObserverOfTheNameRemovedDuringPost_finishesAndReleasesThemAfterwards() async {
        let bus = NotificationBus()
        weak var weakCaptured: Captured?
        var log: [String] = []
        var tokens: [ObservationToken] = []
        do {
            let captured = Captured()
            weakCaptured = captured
            tokens.append(
                bus.addObserver(forName: alpha) { _ in
                    log.append("first")
                    tokens = []
                    log.append(weakCaptured == nil ? "released early" : "still alive")
                })
            tokens.append(
                bus.addObserver(forName: alpha) { _ in
                    _ = captured
                    log.append("second")
                })
        }

        bus.post(name: alpha)

        XCTAssertEqual(log, ["first", "still alive"])
        XCTAssertNil(weakCaptured)
        XCTAssertEqual(bus.observerCount, 0)
        bus.post(name: alpha)
        XCTAssertEqual(log, ["first", "still alive"])
    }

    func testPost_whenObserverCancelsAndReaddsDuringNestedPosts_deliversEachPostToItsOwnObservers() async {
        let bus = NotificationBus()
        var log: [String] = []
        var inner: ObservationToken?
        var depth = 0
        let outer = bus.addObserver(forName: alpha) { _ in
            depth += 1
            defer { depth -= 1 }
            log.append("outer \(depth)")
            guard depth < 3 else { return }
            inner?.cancel()
            inner = bus.addObserver(forName: self.alpha) { _ in log.append("inner") }
            bus.post(name: self.alpha)
        }

        bus.post(name: alpha)

        XCTAssertEqual(log, ["outer 1", "outer 2", "outer 3", "inner"])
        XCTAssertEqual(bus.observerCount, 2)
        outer.cancel()
        inner?.cancel()
        XCTAssertEqual(bus.observerCount, 0)
    }
}
