import AppStateCore
import TestSupport
import XCTest

@testable import AppStateFollowers

/// The keyboard follower's reading of `sm.puri.OSK0`, its height rule, and the calls both
/// followers make, without a bus.
final class OnScreenKeyboardTests: AppStateTestCase {
    private func changed(
        _ values: [String: BusValue], invalidated: [String] = [], path: String = OnScreenKeyboardState.objectPath,
        interface: String = OnScreenKeyboardState.interface
    ) -> BusSignal {
        BusSignal(
            sender: ":1.2", path: path, interface: BusSignal.propertiesInterface, member: "PropertiesChanged",
            arguments: [
                .string(interface), .array(values.map { .dictionaryEntry(.string($0.key), .variant($0.value)) }),
                .array(invalidated.map(BusValue.string)),
            ])
    }

    func testApply_whenVisibleChanges_thenTheStateFollows() {
        var state = OnScreenKeyboardState()
        XCTAssertNil(state.isVisible)
        XCTAssertEqual(state.apply(changed(["Visible": .boolean(true)])), .applied)
        XCTAssertEqual(state.isVisible, true)
        XCTAssertEqual(state.apply(changed(["Visible": .boolean(false)])), .applied)
        XCTAssertEqual(state.isVisible, false)
        XCTAssertEqual(state.apply(changed([:], invalidated: ["Visible"])), .readVisible)
    }

    func testApply_whenVisibleHasTheWrongTypeOrTheSignalIsElsewhere_thenNothingChanges() {
        var state = OnScreenKeyboardState()
        state.applyVisible(.boolean(false))
        XCTAssertEqual(state.apply(changed(["Visible": .string("yes")])), .ignored("Visible had the wrong type"))
        if case .ignored = state.apply(changed(["Visible": .boolean(true)], path: "/elsewhere")) {} else { XCTFail("another object") }
        if case .ignored = state.apply(changed(["Visible": .boolean(true)], interface: "org.example")) {} else { XCTFail("another interface") }
        XCTAssertFalse(state.applyVisible(.unsigned(1)))
        XCTAssertEqual(state.isVisible, false)
    }

    func testSqueekboardHeight_whenWindowsOfEachRange_thenSqueekboardsRule() {
        // Under 720 wide: 7/12 of the width (360 wide gives 210).
        XCTAssertEqual(OnScreenKeyboardHeight.squeekboard(for: Size(width: 360, height: 720)), 210)
        // From 720 to 1080 it shrinks from 420 to 360.
        XCTAssertEqual(OnScreenKeyboardHeight.squeekboard(for: Size(width: 720, height: 1440)), 420)
        XCTAssertEqual(OnScreenKeyboardHeight.squeekboard(for: Size(width: 900, height: 1600)), 390)
        // From 1080 on, 360.
        XCTAssertEqual(OnScreenKeyboardHeight.squeekboard(for: Size(width: 1280, height: 800)), 360)
        // Never more than half the height.
        XCTAssertEqual(OnScreenKeyboardHeight.squeekboard(for: Size(width: 1920, height: 600)), 300)
        XCTAssertEqual(OnScreenKeyboardHeight.squeekboard(for: Size(width: 500.7, height: 801)), 291)
    }

    func testSessionChanges_whenStatesDiffer_thenOnlyTheDifferenceIsCalled() {
        func methods(_ user: String?, _ locked: Bool, _ desired: DesiredSession) -> [String] {
            FollowedChanges.session(tree: "t", user: user, locked: locked, desired: desired).map(\.method)
        }
        XCTAssertEqual(methods(nil, false, .loggedOut), [])
        XCTAssertEqual(methods("ada", true, .loggedOut), ["io.appstate.Logout"])
        XCTAssertEqual(methods(nil, false, .loggedIn(user: "ada", locked: false)), ["io.appstate.Login"])
        XCTAssertEqual(methods(nil, false, .loggedIn(user: "ada", locked: true)), ["io.appstate.Login", "io.appstate.Lock"])
        XCTAssertEqual(methods("ada", false, .loggedIn(user: "ada", locked: false)), [])
        XCTAssertEqual(methods("ada", false, .loggedIn(user: "ada", locked: true)), ["io.appstate.Lock"])
        XCTAssertEqual(methods("ada", true, .loggedIn(user: "ada", locked: false)), ["io.appstate.Unlock"])
        // A switch starts an unlocked session: locked ada to unlocked bob needs no Unlock.
        XCTAssertEqual(methods("ada", true, .loggedIn(user: "bob", locked: false)), ["io.appstate.Login"])
        let login = FollowedChanges.session(tree: "t", user: "ada", locked: false, desired: .loggedIn(user: "bob", locked: false))
        XCTAssertEqual(login.first?.parameters, ["tree": "t", "user": "bob", "switch": true])
    }

    func testKeyboardChanges_whenShownOrHidden_thenTheKeyboardMethods() {
        XCTAssertEqual(FollowedChanges.keyboard(tree: "t", visible: true, height: 360).parameters, ["tree": "t", "height": 360])
        XCTAssertEqual(FollowedChanges.keyboard(tree: "t", visible: true, height: 360).method, "io.appstate.ShowKeyboard")
        XCTAssertEqual(FollowedChanges.keyboard(tree: "t", visible: false, height: 360).method, "io.appstate.HideKeyboard")
    }

    func testBackoff_whenTriesFail_thenItDoublesUpToTheMaximumAndResets() {
        var backoff = Backoff()
        let delays = (0..<10).map { _ in backoff.nextDelay() }
        XCTAssertEqual(delays.prefix(4), [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800)])
        XCTAssertEqual(delays.last, Backoff.maximum)
        backoff.reset()
        XCTAssertEqual(backoff.nextDelay(), Backoff.initial)
    }
}
