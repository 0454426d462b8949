import AppStateGatewayKit
import TestSupport
import XCTest

final class MethodAllowListTests: AppStateTestCase {
    func testDefault_whenNotToldOtherwise_thenAllowsReadsActivityTheKeyboardAndThePagesReportOnly() throws {
        let list = try MethodAllowList()
        XCTAssertEqual(
            list.methods,
            [
                "io.appstate.GetTree", "io.appstate.GetCurrent", "io.appstate.ReportActivity", "io.appstate.ShowKeyboard",
                "io.appstate.HideKeyboard", "io.appstate.RequestKeyboard", "io.appstate.ReportFrontEnd",
            ])
        for method in ["io.appstate.Login", "io.appstate.Logout", "io.appstate.Watch", "org.varlink.service.GetInfo", "GetTree"] {
            XCTAssertFalse(list.allows(method), method)
        }
    }

    func testInit_whenNamesAreShortOrFull_thenBothNameTheInterfacesMethod() throws {
        XCTAssertEqual(try MethodAllowList(["Login", "io.appstate.Logout"]).methods, ["io.appstate.Login", "io.appstate.Logout"])
    }

    func testInit_whenANameIsNotAMethodOfTheInterface_thenThrowsASentence() {
        for name in ["", "login", "org.varlink.service.GetInfo", "io.appstate.", "io.appstate.Get-Tree", "io.appstate.Get/Tree"] {
            XCTAssertThrowsError(try MethodAllowList([name]), name) { error in
                XCTAssertTrue("\(error)".hasPrefix("--allow takes a method of io.appstate"), "\(error)")
            }
        }
    }
}
