import AppStateCore
import AppStateIPC
@testable import AppStateService
import StateContainers
import XCTest

/// Every `io.appstate` method is answered by exactly the route its declared effect gives it.
final class MethodHandlersTests: XCTestCase {
    @MainActor func testHandlers_whenBuilt_thenEveryMethodButTheStreamHasAnOperation() async throws {
        let host = try TreeHost(file: TreeFile.default, clock: ManualClock())
        let handlers = RequestProcessor.makeHandlers(host: host, stats: { GetStats.Reply(version: "", uptimeSeconds: 0, trees: [], connections: 0, watchers: 0, requests: 0) }, metrics: { "" })
        for method in AppStateMethod.allCases {
            XCTAssertEqual(handlers.handles(method), method.effect != .streams, "\(method)")
        }
    }

    @MainActor func testAnswer_whenAMethodChanges_thenItsEventIsNamedAfterIt() async throws {
        let host = try TreeHost(file: TreeFile.default, clock: ManualClock())
        host.makeVisible()
        let handlers = RequestProcessor.makeHandlers(host: host, stats: { GetStats.Reply(version: "", uptimeSeconds: 0, trees: [], connections: 0, watchers: 0, requests: 0) }, metrics: { "" })
        let (reply, event) = try handlers.answer(.login, ["user": "ada"])
        XCTAssertEqual(reply, ["path": "session/home"])
        XCTAssertEqual(event?.name, "Login")
        XCTAssertThrowsError(try handlers.answer(.login, ["user": 3])) { error in
            XCTAssertEqual((error as? VarlinkError)?.name, "org.varlink.service.InvalidParameter")
        }
    }

    func testRoute_whenLookedUp_thenKnowsTheInterfaceAndWhatMayBeAnsweredAtOnce() {
        XCTAssertTrue(Route(method: "io.appstate.GetTree").readsPublished)
        XCTAssertTrue(Route(method: "org.varlink.service.GetInfo").readsPublished)
        XCTAssertFalse(Route(method: "io.appstate.GetStats").readsPublished)
        XCTAssertFalse(Route(method: "io.appstate.Login").readsPublished)
        XCTAssertEqual(Route(method: "io.appstate.Login").effect, .changesDurably)
        XCTAssertEqual(Route(method: "io.appstate.Resize").effect, .changesTransiently)
        guard case .unknown(let missing) = Route(method: "io.appstate.Nope"), case .unknown(let elsewhere) = Route(method: "com.example.Nope") else {
            return XCTFail("unknown methods must not route")
        }
        XCTAssertEqual(missing.name, "org.varlink.service.MethodNotFound")
        XCTAssertEqual(elsewhere.name, "org.varlink.service.InterfaceNotFound")
        XCTAssertEqual(elsewhere.parameters["interface"], "com.example")
    }
}
