import AppStateCore
import AppStateIPC
import Logging
import Synchronization
import TestSupport
import XCTest

@testable import AppStateFollowers

/// The keyboard follower's reading of squeekboard's, KWin's and Onboard's objects, its height
/// rule, and the calls the followers make, without a bus.
final class OnScreenKeyboardTests: AppStateTestCase {
    private func changed(
        _ values: [String: BusValue], invalidated: [String] = [], path: String = OnScreenKeyboardKind.squeekboard.objectPath,
        interface: String = OnScreenKeyboardKind.squeekboard.interface
    ) -> BusSignal {
        BusSignal(
            sender: ":1.2", path: path, interface: BusSignal.propertiesInterface, member: "PropertiesChanged",
            arguments: [
                .string(interface), .array(values.map { .dictionaryEntry(.string($0.key), .variant($0.value)) }),
                .array(invalidated.map(BusValue.string)),
            ])
    }

    func testApply_whenVisibleChanges_thenTheStateFollows() {
        var state = OnScreenKeyboardState(.squeekboard)
        XCTAssertNil(state.isVisible)
        XCTAssertEqual(state.apply(changed(["Visible": .boolean(true)])), .applied)
        XCTAssertEqual(state.isVisible, true)
        XCTAssertEqual(state.apply(changed(["Visible": .boolean(false)])), .applied)
        XCTAssertEqual(state.isVisible, false)
        XCTAssertEqual(state.apply(changed([:], invalidated: ["Visible"])), .readVisible)
    }

    func testApply_whenVisibleHasTheWrongTypeOrTheSignalIsElsewhere_thenNothingChanges() {
        var state = OnScreenKeyboardState(.squeekboard)
        state.applyVisible(.boolean(false))
        XCTAssertEqual(state.apply(changed(["Visible": .string("yes")])), .ignored("Visible had the wrong type"))
        if case .ignored = state.apply(changed(["Visible": .boolean(true)], path: "/elsewhere")) {} else { XCTFail("another object") }
        if case .ignored = state.apply(changed(["Visible": .boolean(true)], interface: "org.example")) {} else { XCTFail("another interface") }
        XCTAssertFalse(state.applyVisible(.unsigned(1)))
        XCTAssertEqual(state.isVisible, false)
    }

    func testApply_whenKWinSaysVisibleChangedWithoutAValue_thenThePropertyIsReadAgain() {
        var state = OnScreenKeyboardState(.kwin)
        let signal = BusSignal(
            sender: ":1.3", path: "/VirtualKeyboard", interface: "org.kde.kwin.VirtualKeyboard", member: "visibleChanged", arguments: [])
        XCTAssertEqual(state.apply(signal), .readVisible)
        XCTAssertEqual(
            state.apply(changed(["visible": .boolean(true)], path: "/VirtualKeyboard", interface: "org.kde.kwin.VirtualKeyboard")), .applied)
        XCTAssertEqual(state.isVisible, true)
        // squeekboard's property name is not KWin's.
        XCTAssertEqual(
            state.apply(changed(["Visible": .boolean(false)], path: "/VirtualKeyboard", interface: "org.kde.kwin.VirtualKeyboard")), .applied)
        XCTAssertEqual(state.isVisible, true)
        var other = signal
        other.path = "/elsewhere"
        if case .ignored = state.apply(other) {} else { XCTFail("another object") }
    }

    func testApply_whenOnboardChangesVisible_thenTheStateFollows() {
        var state = OnScreenKeyboardState(.onboard)
        let path = "/org/onboard/Onboard/Keyboard"
        XCTAssertEqual(state.apply(changed(["Visible": .boolean(true)], path: path, interface: "org.onboard.Onboard.Keyboard")), .applied)
        XCTAssertEqual(state.isVisible, true)
        XCTAssertEqual(
            state.apply(changed(["Visible": .integer(1)], path: path, interface: "org.onboard.Onboard.Keyboard")),
            .ignored("Visible had the wrong type"))
        XCTAssertEqual(state.isVisible, true)
    }

    func testIntrospection_whenAnOlderKWinHasNoVisible_thenThePropertyIsNotDeclared() {
        let current = """
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <node>
              <interface name="org.kde.kwin.VirtualKeyboard">
                <property name="enabled" type="b" access="readwrite"/>
                <property name="visible" type="b" access="read"/>
                <signal name="visibleChanged"/>
              </interface>
              <interface name='org.freedesktop.DBus.Properties'><method name='Get'/></interface>
            </node>
            """
        XCTAssertTrue(IntrospectionData.declares(current, interface: "org.kde.kwin.VirtualKeyboard", property: "visible", types: ["b"]))
        XCTAssertFalse(IntrospectionData.declares(current, interface: "org.kde.kwin.VirtualKeyboard", property: "visible", types: ["s"]))
        XCTAssertFalse(IntrospectionData.declares(current, interface: "org.freedesktop.DBus.Properties", property: "visible", types: ["b"]))
        let older = current.replacingOccurrences(
            of: #"<property name="visible" type="b" access="read"/>"#, with: #"<property name="active" type="b" access="readwrite"/>"#)
        XCTAssertFalse(IntrospectionData.declares(older, interface: "org.kde.kwin.VirtualKeyboard", property: "visible", types: ["b"]))
        XCTAssertFalse(
            IntrospectionData.declares(
                "<node><interface name=\"org.kde.kwin.VirtualKeyboard\"", interface: "org.kde.kwin.VirtualKeyboard", property: "visible", types: ["b"]
            ))
        XCTAssertFalse(IntrospectionData.declares("", interface: "x", property: "y", types: ["b"]))
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

    func testKeyboardChanges_whenTheFrameDiffers_thenTheKeyboardMethods() {
        let window = Size(width: 1280, height: 800)
        func calls(_ visible: Bool, _ frame: Rect?, window: Size = window) -> [VarlinkCall] {
            FollowedChanges.keyboard(tree: "t", visible: visible, height: 360, window: window, frame: frame)
        }
        XCTAssertEqual(calls(true, nil).map(\.method), ["io.appstate.ShowKeyboard"])
        XCTAssertEqual(calls(true, nil).first?.parameters, ["tree": "t", "height": 360])
        XCTAssertEqual(calls(true, Rect(x: 0, y: 440, width: 1280, height: 360)), [], "already there")
        // The window was resized under a shown keyboard: it moves to the new bottom.
        XCTAssertEqual(
            calls(true, Rect(x: 0, y: 440, width: 1280, height: 360), window: Size(width: 1920, height: 1080)).map(\.method),
            ["io.appstate.ShowKeyboard"])
        XCTAssertEqual(calls(false, Rect(x: 0, y: 440, width: 1280, height: 360)).map(\.method), ["io.appstate.HideKeyboard"])
        XCTAssertEqual(calls(false, nil), [], "already hidden")
    }

    func testResizeChanges_whenASizeIsWanted_thenResize() {
        let call = FollowedChanges.resize(tree: "t", to: Size(width: 1920, height: 1080))
        XCTAssertEqual(call.method, "io.appstate.Resize")
        XCTAssertEqual(call.parameters, ["tree": "t", "width": 1920, "height": 1080])
    }

    func testVisibilityRequest_whenEachKeyboardIsAsked_thenItsOwnCallOnTheObjectItIsFollowedAt() {
        XCTAssertEqual(
            OnScreenKeyboardKind.squeekboard.visibilityRequest(true),
            BusMethodCall(
                destination: "sm.puri.OSK0", path: "/sm/puri/OSK0", interface: "sm.puri.OSK0", member: "SetVisible", arguments: [.boolean(true)]))
        XCTAssertEqual(OnScreenKeyboardKind.squeekboard.visibilityRequest(false).arguments, [.boolean(false)])
        XCTAssertEqual(
            OnScreenKeyboardKind.kwin.visibilityRequest(true),
            BusMethodCall(
                destination: "org.kde.KWin", path: "/VirtualKeyboard", interface: "org.freedesktop.DBus.Properties", member: "Set",
                arguments: [.string("org.kde.kwin.VirtualKeyboard"), .string("active"), .variant(.boolean(true))]))
        XCTAssertEqual(OnScreenKeyboardKind.kwin.visibilityRequest(false).arguments.last, .variant(.boolean(false)))
        XCTAssertEqual(
            OnScreenKeyboardKind.onboard.visibilityRequest(true),
            BusMethodCall(
                destination: "org.onboard.Onboard", path: "/org/onboard/Onboard/Keyboard", interface: "org.onboard.Onboard.Keyboard", member: "Show"))
        XCTAssertEqual(OnScreenKeyboardKind.onboard.visibilityRequest(false).member, "Hide")
        XCTAssertEqual(
            OnScreenKeyboardKind.kwin.visibilityRequest(true).description,
            #"org.freedesktop.DBus.Properties.Set("org.kde.kwin.VirtualKeyboard", "active", <true>)"#)
        XCTAssertEqual(BusArgument.variant(.string("x")).signature, "v")
    }

    func testRequest_whenTheFollowerFollowsNoKeyboard_thenNoKeyboardFollowedAtOnceWithTheFollowersDetail() {
        // Not started: the follower is still connecting, and nothing is asked.
        let keyboard = OnScreenKeyboard(choice: .any, logger: Logger(label: "test")) { _ in }
        let answers = Mutex<[Result<Void, VarlinkError>]>([])
        keyboard.request(visible: true) { answer in answers.withLock { $0.append(answer) } }
        let answer = answers.withLock { $0 }
        XCTAssertEqual(answer.count, 1, "answered within the call")
        guard case .failure(let error)? = answer.first else { return XCTFail("\(answer)") }
        XCTAssertEqual(error, .noKeyboardFollowed(reason: "connecting"))
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
