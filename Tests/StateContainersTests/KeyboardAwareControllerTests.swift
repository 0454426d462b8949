import AppStateCore
import StateContainers
import XCTest

final class KeyboardAwareControllerTests: ModelTestCase {
    private let form = Controller(identifier: "login-form")
    /// The bus of the window ``makeOnScreen(frame:)`` shows the container in.
    private let bus = NotificationBus()

    /// A keyboard-aware container on screen, its view at `frame` inside a plain root that
    /// fills a 1280×800 window.
    private func makeOnScreen(frame: Rect = Rect(x: 0, y: 0, width: 1280, height: 800)) throws -> KeyboardAwareController {
        let root = Controller(identifier: "root")
        let container = try KeyboardAwareController(identifier: "login", content: form)
        show(root, bus: bus)
        try root.embed(container)
        container.view.frame = frame
        return container
    }

    private func keyboard(top: Double, height: Double = 300) -> Rect {
        Rect(x: 0, y: top, width: 1280, height: height)
    }

    func testInit_thenWrapsTheContentWithoutLoadingViews() async throws {
        let container = try KeyboardAwareController(identifier: "login", content: form)

        XCTAssertTrue(form.parent === container)
        XCTAssertTrue(container.currentChild === form)
        XCTAssertFalse(form.isViewLoaded)

        container.view.frame = Rect(x: 0, y: 0, width: 400, height: 300)

        XCTAssertTrue(form.view.superview === container.view)
        XCTAssertEqual(form.view.frame, Rect(x: 0, y: 0, width: 400, height: 300))
    }

    func testInit_whenTheContentIsBadlyNamed_thenThrowsInvalidArgument() async {
        assertThrows(.invalidArgument) { try KeyboardAwareController(identifier: "login", content: Controller(identifier: "")) }
    }

    func testKeyboardWillShow_convertsTheEndFrameIntoTheViewAndInsetsByTheOverlap() async throws {
        // The container's view starts 100 points down the window and is 600 tall: a
        // keyboard from y 500 to 800 in the window covers its bottom 200 points.
        let container = try makeOnScreen(frame: Rect(x: 0, y: 100, width: 1280, height: 600))

        bus.post(KeyboardWillShow(frameBegin: keyboard(top: 800), frameEnd: keyboard(top: 500), duration: 0.25, curve: .easeOut))

        XCTAssertEqual(container.keyboardOverlap, 200)
        XCTAssertEqual(form.view.contentInset, Insets(top: 0, left: 0, bottom: 200, right: 0))
        XCTAssertEqual(form.view.contentOffset, .zero)
        XCTAssertEqual(container.lastAdjustmentDuration, 0.25)
        XCTAssertEqual(container.lastAdjustmentCurve, .easeOut)
    }

    func testKeyboardWillShow_postedAsPlainUserInfo_thenAdjustsLikeATypedMessage() async throws {
        let container = try makeOnScreen()

        // What the socket posts: a name and JSON, no typed message.
        bus.post(
            name: .keyboardWillShow,
            userInfo: [
                "frameBegin": ["x": 0, "y": 800, "width": 1280, "height": 320],
                "frameEnd": ["x": 0, "y": 480, "width": 1280, "height": 320],
                "duration": 0.3,
                "curve": "easeOut",
            ])

        XCTAssertEqual(container.keyboardOverlap, 320)
        XCTAssertEqual(form.view.contentInset.bottom, 320)
        XCTAssertEqual(container.lastAdjustmentDuration, 0.3)
        XCTAssertEqual(container.lastAdjustmentCurve, .easeOut)
    }

    func testKeyboardWillShow_whenTheKeyboardMissesTheView_thenTheOverlapIsZero() async throws {
        let container = try makeOnScreen(frame: Rect(x: 0, y: 0, width: 1280, height: 400))

        bus.post(KeyboardWillShow(frameBegin: keyboard(top: 800), frameEnd: keyboard(top: 500), duration: 0.25, curve: .easeInOut))

        XCTAssertEqual(container.keyboardOverlap, 0)
        XCTAssertEqual(form.view.contentInset.bottom, 0)
    }

    func testKeyboardWillShow_thenKeepsTheFocusedRectVisibleAboveTheKeyboard() async throws {
        let container = try makeOnScreen()
        container.focusedRect = Rect(x: 40, y: 600, width: 400, height: 40)

        bus.post(KeyboardWillShow(frameBegin: keyboard(top: 800), frameEnd: keyboard(top: 500), duration: 0.25, curve: .easeInOut))

        // 500 points stay visible; the field's bottom edge (640) moves up to it.
        XCTAssertEqual(form.view.contentOffset, Point(x: 0, y: 140))
        let visible = Rect(x: 0, y: form.view.contentOffset.y, width: 1280, height: 800 - container.keyboardOverlap)
        XCTAssertTrue(visible.contains(container.focusedRect!))
    }

    func testKeyboardWillShow_whenTheFocusedRectIsAlreadyVisible_thenDoesNotScroll() async throws {
        let container = try makeOnScreen()
        container.focusedRect = Rect(x: 40, y: 100, width: 400, height: 40)

        bus.post(KeyboardWillShow(frameBegin: keyboard(top: 800), frameEnd: keyboard(top: 500), duration: 0.25, curve: .easeInOut))

        XCTAssertEqual(form.view.contentOffset, .zero)
    }

    func testKeyboardWillShow_neverScrollsAboveTheContentsOrigin() async throws {
        let container = try makeOnScreen()
        form.view.contentOffset = Point(x: 0, y: 50)
        container.focusedRect = Rect(x: 0, y: -20, width: 100, height: 40)

        bus.post(KeyboardWillShow(frameBegin: keyboard(top: 800), frameEnd: keyboard(top: 500), duration: 0.25, curve: .easeInOut))

        XCTAssertEqual(form.view.contentOffset, .zero)
    }

    func testKeyboardWillHide_thenRestoresTheInsetAndOffset() async throws {
        let container = try makeOnScreen()
        form.view.contentInset = Insets(top: 8, left: 0, bottom: 10, right: 0)
        form.view.contentOffset = Point(x: 0, y: 30)
        container.focusedRect = Rect(x: 0, y: 700, width: 100, height: 40)
        bus.post(KeyboardWillShow(frameBegin: keyboard(top: 800), frameEnd: keyboard(top: 500), duration: 0.25, curve: .easeInOut))
        XCTAssertEqual(form.view.contentInset, Insets(top: 8, left: 0, bottom: 300, right: 0))
        XCTAssertEqual(form.view.contentOffset, Point(x: 0, y: 240))

        bus.post(KeyboardWillHide(frameBegin: keyboard(top: 500), frameEnd: keyboard(top: 800), duration: 0.2, curve: .easeIn))

        XCTAssertEqual(container.keyboardOverlap, 0)
        XCTAssertEqual(form.view.contentInset, Insets(top: 8, left: 0, bottom: 10, right: 0))
        XCTAssertEqual(form.view.contentOffset, Point(x: 0, y: 30))
        XCTAssertEqual(container.lastAdjustmentDuration, 0.2)
        XCTAssertEqual(container.lastAdjustmentCurve, .easeIn)
    }

    func testKeyboardWillChangeFrame_thenFollowsTheNewFrame() async throws {
        let container = try makeOnScreen()
        bus.post(KeyboardWillShow(frameBegin: keyboard(top: 800), frameEnd: keyboard(top: 500), duration: 0.25, curve: .easeInOut))

        bus.post(KeyboardWillChangeFrame(frameBegin: keyboard(top: 500), frameEnd: keyboard(top: 600, height: 200), duration: 0.1, curve: .linear))

        XCTAssertEqual(container.keyboardOverlap, 200)
        XCTAssertEqual(form.view.contentInset.bottom, 200)
        XCTAssertEqual(container.lastAdjustmentDuration, 0.1)
        XCTAssertEqual(container.lastAdjustmentCurve, .linear)

        // The inset before the keyboard came is still the one a hide restores.
        bus.post(KeyboardWillHide(frameBegin: keyboard(top: 600), frameEnd: keyboard(top: 800), duration: 0.25, curve: .easeInOut))
        XCTAssertEqual(form.view.contentInset.bottom, 0)
    }

    func testKeyboardWillChangeFrame_withoutAShow_thenAdjustsToo() async throws {
        let container = try makeOnScreen()

        bus.post(KeyboardWillChangeFrame(frameBegin: keyboard(top: 800), frameEnd: keyboard(top: 450, height: 350), duration: 0.3, curve: .easeOut))

        XCTAssertEqual(container.keyboardOverlap, 350)
        XCTAssertEqual(form.view.contentInset.bottom, 350)
    }

    func testKeyboardDidShowAndDidHide_thenChangeNothing() async throws {
        let container = try makeOnScreen()

        bus.post(KeyboardDidShow(frameBegin: keyboard(top: 800), frameEnd: keyboard(top: 500), duration: 0.25, curve: .easeInOut))
        bus.post(KeyboardDidHide(frameBegin: keyboard(top: 500), frameEnd: keyboard(top: 800), duration: 0.25, curve: .easeInOut))

        XCTAssertEqual(container.keyboardOverlap, 0)
        XCTAssertEqual(container.lastAdjustmentDuration, 0)
    }

    func testKeyboardNotifications_whileOffScreen_thenChangeNothing() async throws {
        let bus = NotificationBus()
        let container = try KeyboardAwareController(identifier: "login", content: form)
        let hidden = Window(size: Size(width: 1280, height: 800), bus: bus)
        hidden.rootController = container

        bus.post(KeyboardWillShow(frameBegin: keyboard(top: 800), frameEnd: keyboard(top: 500), duration: 0.25, curve: .easeInOut))

        XCTAssertEqual(bus.observerCount, 0)
        XCTAssertEqual(container.keyboardOverlap, 0)
        XCTAssertEqual(form.view.contentInset.bottom, 0)
        XCTAssertEqual(container.lastAdjustmentDuration, 0)
    }

    func testObservers_areRegisteredOnlyWhileOnScreen() async throws {
        let container = try makeOnScreen()
        XCTAssertEqual(bus.observerCount, 3)

        container.unembed()
        XCTAssertEqual(bus.observerCount, 0)

        bus.post(KeyboardWillShow(frameBegin: keyboard(top: 800), frameEnd: keyboard(top: 500), duration: 0.25, curve: .easeInOut))
        XCTAssertEqual(container.keyboardOverlap, 0)
    }

    func testDisappearing_whileTheKeyboardIsShown_thenRestoresTheContentAtOnce() async throws {
        let container = try makeOnScreen()
        form.view.contentOffset = Point(x: 0, y: 20)
        container.focusedRect = Rect(x: 0, y: 700, width: 100, height: 40)
        bus.post(KeyboardWillShow(frameBegin: keyboard(top: 800), frameEnd: keyboard(top: 500), duration: 0.25, curve: .easeInOut))

        container.view.removeFromSuperview()

        XCTAssertEqual(container.appearance, .disappeared)
        XCTAssertEqual(container.keyboardOverlap, 0)
        XCTAssertEqual(form.view.contentInset.bottom, 0)
        XCTAssertEqual(form.view.contentOffset, Point(x: 0, y: 20))
        XCTAssertEqual(container.lastAdjustmentDuration, 0)
    }

    func testSettingTheFocusedRect_whileTheKeyboardIsShown_thenScrollsItIntoView() async throws {
        let container = try makeOnScreen()
        bus.post(KeyboardWillShow(frameBegin: keyboard(top: 800), frameEnd: keyboard(top: 500), duration: 0.25, curve: .easeInOut))

        container.focusedRect = Rect(x: 0, y: 560, width: 100, height: 40)

        XCTAssertEqual(form.view.contentOffset, Point(x: 0, y: 100))
    }

    func testSnapshot_reportsTheKeyboardOverlap() async throws {
        let container = try makeOnScreen()
        XCTAssertEqual(container.snapshot().keyboardOverlap, 0)

        bus.post(KeyboardWillShow(frameBegin: keyboard(top: 800), frameEnd: keyboard(top: 500), duration: 0.25, curve: .easeInOut))

        let snapshot = container.snapshot()
        XCTAssertEqual(snapshot.keyboardOverlap, 300)
        XCTAssertEqual(snapshot.current, "login-form")
        XCTAssertEqual(snapshot.node(at: "root/login/login-form")?.contentInset.bottom, 300)
    }

    func testResizingTheWindow_thenTheContentFillsTheContainer() async throws {
        let container = try KeyboardAwareController(identifier: "login", content: form)
        let window = show(container)

        window.resize(to: Size(width: 800, height: 480))

        XCTAssertEqual(form.view.frame, Rect(x: 0, y: 0, width: 800, height: 480))
    }
}
