import AppStateCore
import StateContainers
import XCTest

// The drop-down menu sample: a container whose title is a button. Tapping it drops down a
// menu of screens; picking one closes the menu, swaps the shown screen and the button's
// title becomes the screen's.
final class DropDownMenuPatternTests: ModelTestCase {
    override class var spelling: CallbackLog.Spelling { .labelled }

    private func makeColorsMenu() throws -> (MenuController, [Controller]) {
        let screens = [("red", "Red"), ("green", "Green"), ("blue", "Blue")].map { controller($0, title: $1) }
        let menu = try MenuController(identifier: "colors", viewControllers: screens, title: "Colors")
        _ = log.take()
        return (menu, screens)
    }

    func testDropDown_whenTheUserPicksAScreen_thenItSwapsTheChildAndTheTitleFollows() async throws {
        let (menu, screens) = try makeColorsMenu()
        show(menu)
        XCTAssertEqual(menu.title, "Red")
        _ = log.take()

        menu.toggleMenu()
        XCTAssertTrue(menu.isMenuVisible)
        try menu.select(identifier: "green")

        XCTAssertFalse(menu.isMenuVisible)
        XCTAssertEqual(menu.title, "Green")
        XCTAssertTrue(menu.activeViewController === screens[1])
        XCTAssertEqual(log.take(), log.swap(from: "red", to: "green", in: "colors", oldLeaves: false, newJoins: false))
        XCTAssertTrue(menu.installsExactly([screens[1]]))
        XCTAssertEqual(screens[1].view.frame, menu.view.bounds)
    }

    func testDropDown_whenTheShownScreenRenamesItself_thenTheButtonFollows() async throws {
        let (menu, screens) = try makeColorsMenu()
        show(menu)

        screens[0].title = "Crimson"
        XCTAssertEqual(menu.title, "Crimson")
        screens[0].title = nil
        XCTAssertEqual(menu.title, "Colors")
        XCTAssertEqual(menu.snapshot().title, "Colors")
    }

    func testDropDown_whenTheUserTapsTheButtonTwice_thenTheMenuClosesAndNothingSwaps() async throws {
        let (menu, _) = try makeColorsMenu()
        showClearingLog(menu)

        menu.toggleMenu()
        menu.toggleMenu()

        XCTAssertFalse(menu.isMenuVisible)
        XCTAssertEqual(menu.activeViewController?.identifier, "red")
        XCTAssertEqual(log.take(), [])
    }

    func testDropDown_whenNestedInAParent_thenThePickedScreenAppearsWithinItsFrame() async throws {
        let (menu, screens) = try makeColorsMenu()
        let root = Controller(identifier: "root")
        show(root)
        try root.embed(menu)
        menu.view.frame = Rect(x: 0, y: 64, width: 1280, height: 736)
        _ = log.take()

        try menu.select(identifier: "blue")

        XCTAssertEqual(log.take(), log.swap(from: "red", to: "blue", in: "colors", oldLeaves: false, newJoins: false))
        XCTAssertEqual(menu.snapshot().node(at: "root/colors/blue")?.frame, Rect(x: 0, y: 64, width: 1280, height: 736))
        XCTAssertEqual(screens[2].path, "root/colors/blue")
    }
}
