import AppStateCore
import AppStateGatewayKit
import AppStateHTTP
import AppStateIPC
import Foundation
import NIOPosix
import TestSupport
import XCTest

/// The gateway in-process, in front of the real `appstated`: its event streams, shared
/// upstream `Watch`es, catching up after a reconnection, and pages that do not read.
final class GatewayServerTests: AppStateTestCase {
    private let token = AccessToken(bytes: Array(repeating: 0x5a, count: 16))
    private var group: MultiThreadedEventLoopGroup!
    private var daemon: TestDaemon!
    private var gateway: GatewayServer!
    private var port = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        daemon = try TestDaemon(executable: URL(fileURLWithPath: try TestPaths.productsDirectory + "/appstated"))
    }

    override func tearDown() {
        gateway?.close()
        try? group.syncShutdownGracefully()
        daemon = nil
        super.tearDown()
    }

    private func startGateway(limits: HTTPServerLimits = GatewayConfiguration.defaultLimits) throws {
        gateway = try GatewayServer(
            configuration: GatewayConfiguration(
                socketPath: daemon.socketPath, endpoints: [.tcp(ListenAddress(host: "127.0.0.1", port: 0))], token: token,
                allowList: try MethodAllowList(), limits: limits),
            group: group)
        guard case .tcp(_, let bound)? = gateway.addresses.first else { throw TestFailure("no TCP listener: \(gateway.addresses)") }
        port = bound
    }

    /// Opens `/watch` and reads up to its first tree (or, with `untilSnapshot` false, its status).
    private func watch(
        _ query: String = "", lastEventID: String? = nil, receiveBuffer: Int32? = nil, untilSnapshot: Bool = true
    ) throws -> (HTTPTestConnection, [HTTPTestConnection.Event]) {
        let connection = try HTTPTestConnection(port: port, receiveBuffer: receiveBuffer)
        var headers = [("Authorization", "Bearer \(token.text)")]
        if let lastEventID { headers.append(("Last-Event-ID", lastEventID)) }
        let head = try connection.request("GET", "/watch" + query, headers: headers)
        XCTAssertEqual(head.status, 200, head.text)
        let events = try connection.readEvents(until: { $0.name == (untilSnapshot ? "snapshot" : "status") })
        return (connection, events)
    }

    private func client() throws -> VarlinkClient { try VarlinkClient(path: daemon.socketPath) }

    private func showKeyboard(_ height: Double) throws {
        _ = try client().call(method: ShowKeyboard.name, parameters: ["height": .number(height), "duration": 0])
    }

    /// Waits until `condition` holds, polling: the gateway's counts change on its own threads.
    private func eventually(_ what: String, timeout: Duration = .seconds(15), _ condition: () -> Bool) throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { throw TestFailure("\(what) did not happen within \(timeout)") }
            usleep(10_000)
        }
    }

    func testWatch_whenOpened_thenSendsTheStatusAndTheTreeThenEachChangeWithIds() throws {
        try startGateway()
        let (page, events) = try watch()
        XCTAssertEqual(events.map(\.name), ["status", "snapshot"])
        XCTAssertEqual(try JSONValue(jsonText: events[0].data)["connected"], true)
        let snapshot = try JSONValue(jsonText: events[1].data)
        XCTAssertEqual(snapshot["root"]?["path"], "session")
        let epoch = try XCTUnwrap(events[1].id?.split(separator: ".").first)
        XCTAssertEqual(events[1].id, "\(epoch).0")
        try showKeyboard(320)
        let change = try XCTUnwrap(try page.readEvent())
        XCTAssertEqual(change.name, "change")
        XCTAssertEqual(change.id, "\(epoch).1")
        let reply = try JSONValue(jsonText: change.data)
        XCTAssertEqual(reply["event"]?["name"], "ShowKeyboard")
        guard case .object(let patches)? = reply["patches"] else { return XCTFail("no patches: \(change.data)") }
        XCTAssertEqual(patches["session/login"]?["keyboardOverlap"], 320, "the keyboard-aware container's overlap, as it changed")
    }

    func testWatch_whenPagesFollowTheSameTree_thenTheyShareOneUpstreamWatchThatEndsWithTheLast() throws {
        try startGateway()
        XCTAssertEqual(gateway.watchCount, 0, "an idle gateway holds no Watch")
        var first: HTTPTestConnection? = try watch().0
        var second: HTTPTestConnection? = try watch().0
        let subtree = try watch("?path=session/login").0
        XCTAssertEqual(gateway.watchCount, 2)
        XCTAssertEqual(gateway.streamCount, 3)
        withExtendedLifetime((first, second, subtree)) {}
        first = nil
        second = nil
        try eventually("the whole tree's Watch to end") { gateway.watchCount == 1 }
        XCTAssertEqual(gateway.streamCount, 1)
    }

    func testWatch_whenAPathIsGiven_thenFollowsThatSubtreeAndANodeThatIsNotThereIs404() throws {
        try startGateway()
        let (_, events) = try watch("?path=session%2Flogin")
        XCTAssertEqual(try JSONValue(jsonText: try XCTUnwrap(events.last).data)["root"]?["path"], "session/login")
        let refused = try HTTPTestConnection(port: port).request(
            "GET", "/watch?path=session/nope", headers: [("Authorization", "Bearer \(token.text)")])
        XCTAssertEqual(refused.status, 404)
        XCTAssertEqual(try JSONValue(jsonBytes: refused.body)["error"], "io.appstate.NoSuchNode")
        XCTAssertEqual(try JSONValue(jsonBytes: refused.body)["parameters"]?["path"], "session/nope")
    }

    func testWatch_whenAPageReconnectsWithItsLastEventID_thenGetsOnlyWhatItMissedElseTheTree() throws {
        try startGateway()
        // One page stays, so that the upstream Watch, and its epoch, outlive the other's absence.
        let (staying, _) = try watch()
        var leaving: (HTTPTestConnection, [HTTPTestConnection.Event])? = try watch()
        let last = try XCTUnwrap(leaving?.1.last?.id)
        leaving = nil
        try showKeyboard(300)
        try showKeyboard(310)
        let seen = try staying.readEvents(until: { $0.name == "change" && $0.id?.hasSuffix(".2") == true })
        let missed = try watch(lastEventID: last, untilSnapshot: false)
        XCTAssertEqual(missed.1.map(\.name), ["status"])
        let caughtUp = try (0..<2).map { _ in try XCTUnwrap(try missed.0.readEvent()) }
        XCTAssertEqual(caughtUp.map(\.name), ["change", "change"])
        XCTAssertEqual(caughtUp.map(\.id), seen.suffix(2).map(\.id))
        // Up to date: only the status, then the next change.
        let current = try watch(lastEventID: try XCTUnwrap(seen.last?.id), untilSnapshot: false)
        try showKeyboard(320)
        XCTAssertEqual(try current.0.readEvent()?.name, "change")
        // Another epoch, or nonsense: the whole tree.
        for stale in ["0000-1.0", "garbage", ""] {
            XCTAssertEqual(try watch(lastEventID: stale).1.map(\.name), ["status", "snapshot"], stale)
        }
        withExtendedLifetime(current) {}
    }

    func testWatch_whenAPageNeverReads_thenItIsCutOffWithinItsBufferWhileAnotherFollowsEveryChange() throws {
        try startGateway(limits: HTTPServerLimits(maximumBodySize: 1024, maximumConnections: 16, streamBufferLimit: 16 << 10))
        let (slow, _) = try watch(receiveBuffer: 2048)
        let (reader, _) = try watch()
        let client = try client()
        // Each keyboard move is one event of several hundred bytes: enough of them fill the
        // kernel's buffers and then the stream's.
        var moves = 0
        while gateway.statistics.streamsCutOff == 0 {
            guard moves < 20_000 else { return XCTFail("a page that never reads was not cut off after \(moves) changes") }
            moves += 1
            _ = try client.call(method: ShowKeyboard.name, parameters: ["height": .number(moves % 2 == 0 ? 300 : 310), "duration": 0])
            _ = try reader.readEvents(until: { $0.name == "change" })
        }
        XCTAssertEqual(gateway.statistics.streamsCutOff, 1)
        _ = try slow.readToEnd()
        try eventually("the slow page's stream to be dropped") { gateway.streamCount == 1 }
        try showKeyboard(250)
        let last = try reader.readEvents(until: { $0.name == "change" }).last
        XCTAssertTrue(last?.data.contains(#""keyboardOverlap":250"#) == true, last?.data ?? "")
    }
}
