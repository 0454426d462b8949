import AppStateGatewayKit
import AppStateIPC
import TestSupport
import VarlinkIDL
import XCTest

final class VarlinkErrorStatusTests: AppStateTestCase {
    func testStatus_whenTheDaemonRefusesACall_thenFitsTheError() {
        XCTAssertEqual(VarlinkErrorStatus.status(for: "org.varlink.service.MethodNotFound"), 501)
        XCTAssertEqual(VarlinkErrorStatus.status(for: "org.varlink.service.InvalidParameter"), 400)
        XCTAssertEqual(VarlinkErrorStatus.status(for: "org.varlink.service.PermissionDenied"), 403)
        XCTAssertEqual(VarlinkErrorStatus.status(for: "io.appstate.NoSuchNode"), 404)
        XCTAssertEqual(VarlinkErrorStatus.status(for: "io.appstate.AlreadyLoggedIn"), 409)
        XCTAssertEqual(VarlinkErrorStatus.status(for: "io.appstate.InvalidValue"), 422)
        XCTAssertEqual(VarlinkErrorStatus.status(for: "io.appstate.TooManyConnections"), 503)
        XCTAssertEqual(VarlinkErrorStatus.status(for: "io.appstate.NoKeyboardFollowed"), 409)
        XCTAssertEqual(VarlinkErrorStatus.status(for: "io.appstate.KeyboardRequestFailed"), 502)
        XCTAssertEqual(VarlinkErrorStatus.status(for: "io.appstate.NoKiosk"), 404)
        XCTAssertEqual(VarlinkErrorStatus.status(for: "io.example.Unknown"), 400)
    }

    /// A new error of the interface gets its status on purpose, not the default by accident.
    func testStatus_whenTheInterfaceDeclaresAnError_thenTheTableNamesIt() throws {
        let interface = try InterfaceDefinition(parsing: AppStateInterface.description)
        XCTAssertFalse(interface.errors.isEmpty)
        for error in interface.errors {
            let name = "io.appstate.\(error.name)"
            XCTAssertTrue(VarlinkErrorStatus.knows(name), "\(name) has no HTTP status in VarlinkErrorStatus")
        }
    }
}
