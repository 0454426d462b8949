import AppStateCore
import AppStateIPC
import ServicePorts
import ServiceTestDoubles
import StateContainers
import TestSupport
import TreeFiles
import XCTest

@testable import AppStateHost

/// Every `io.appstate` method is registered once, with its effect, and answered through its
/// registration on every path.
final class MethodRegistryTests: AppStateTestCase {
    /// A read the interface does not declare, registered by the test alone.
    private enum GetTreeNames: VarlinkMethod {
        static let name = "io.appstate.GetTreeNames"
        typealias Parameters = EmptyParameters

        struct Reply: VarlinkObject {
            static let memberNames = ["names"]
            let names: [String]
        }
    }

    func testRegistry_whenBuilt_thenEveryDeclaredMethodIsRegisteredOnce() {
        XCTAssertEqual(MethodRegistry.appState.methods, Set(AppStateMethod.allCases.map(\.rawValue)))
    }

    func testRegistry_whenBuilt_thenOnlyReadsAndTheStreamNeedNoRightToMutate() {
        let unchanging = MethodRegistry.appState.methods.filter { MethodRegistry.appState.entry($0)?.effect.isMutation == false }
        XCTAssertEqual(
            unchanging, [GetTree.name, GetCurrent.name, Watch.name, ReportActivity.name, GetStats.name, GetMetrics.name, GetKiosk.name])
        XCTAssertEqual(MethodRegistry.appState.entry(Inhibit.name)?.effect, .holds)
        XCTAssertEqual(MethodRegistry.appState.entry(Login.name)?.effect, .changesDurably)
        XCTAssertEqual(MethodRegistry.appState.entry(Resize.name)?.effect, .changesTransiently)
        XCTAssertEqual(MethodRegistry.appState.entry(GetTree.name)?.effect, .readsPublished)
        XCTAssertEqual(MethodRegistry.appState.entry(RequestKeyboard.name)?.effect, .asksSystem)
        XCTAssertEqual(MethodRegistry.appState.entry(ReportFrontEnd.name)?.effect, .reportsFrontEnd)
        XCTAssertEqual(MethodRegistry.appState.entry(Blank.name)?.effect, .changesTransiently)
    }

    @MainActor func testRead_whenRegisteredInOnePlace_thenAnsweredAtOnceAndInABatchAlike() async throws {
        var registry = MethodRegistry.appState
        registry.read(GetTreeNames.self) { _, trees in GetTreeNames.Reply(names: trees.trees.map(\.name)) }
        let host = try TreeHost(file: HostedTreeFile.default, clock: ManualClock())
        host.makeVisible()
        let processor = RequestProcessor(
            host: host, store: nil, runner: MainQueueRunner(), environment: .init(), sessionOwners: [:],
            metrics: DaemonMetrics(), logger: .init(label: "test"), registry: registry, idleTimer: ClockIdleTimer(ManualClock()))
        let call = VarlinkCall(method: GetTreeNames.name)

        var buffer: [UInt8] = []
        XCTAssertTrue(processor.answerImmediately(call, into: &buffer), "a registered read is answered on the connection's thread")
        let atOnce = try VarlinkReply(frame: Array(buffer.dropLast()))
        let connection = ConnectionContext(peer: Peer(pid: 1, uid: 0, gid: 0, mayMutate: false), watcher: ClosedWatcher())
        let batched = await processor.process([call], on: connection)

        XCTAssertEqual(atOnce.parameters, ["names": ["default"]])
        XCTAssertEqual(batched.first??.parameters, atOnce.parameters)
        XCTAssertNil(batched.first??.error)
    }

    @MainActor func testRoute_whenLookedUp_thenUnknownMethodsSayWhy() throws {
        let host = try TreeHost(file: HostedTreeFile.default, clock: ManualClock())
        let processor = RequestProcessor(host: host, store: nil)
        guard case .unknown(let missing) = processor.route(VarlinkCall(method: "io.appstate.Nope")),
            case .unknown(let elsewhere) = processor.route(VarlinkCall(method: "com.example.Nope"))
        else {
            return XCTFail("unknown methods must not route")
        }
        XCTAssertEqual(missing.name, "org.varlink.service.MethodNotFound")
        XCTAssertEqual(elsewhere.name, "org.varlink.service.InterfaceNotFound")
        XCTAssertEqual(elsewhere.parameters["interface"], "com.example")
        XCTAssertTrue(processor.route(VarlinkCall(method: GetCurrent.name)).readsPublished)
        XCTAssertFalse(processor.route(VarlinkCall(method: GetStats.name)).readsPublished)
    }

    @MainActor func testChange_whenAMethodChanges_thenItsEventIsNamedAfterIt() async throws {
        let host = try TreeHost(file: HostedTreeFile.default, clock: ManualClock())
        host.makeVisible()
        let processor = RequestProcessor(host: host, store: nil)
        let connection = ConnectionContext(peer: Peer(pid: 1, uid: 0, gid: 0, mayMutate: true), watcher: ClosedWatcher())
        let replies = await processor.process(
            [
                VarlinkCall(method: Login.name, parameters: ["user": "ada"]),
                VarlinkCall(method: Login.name, parameters: ["user": 3]),
            ], on: connection)
        XCTAssertEqual(replies.first??.parameters, ["path": "session/home"])
        XCTAssertEqual(replies.last??.error, "org.varlink.service.InvalidParameter")
    }
}
