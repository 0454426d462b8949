import AppStateCore
import AppStateHost
import AppStateIPC
import Foundation
import Glibc
import Logging
import NIOPosix
import ServicePorts
import StateContainers
import TestSupport
import TreeFiles
import VarlinkServer
import XCTest

@testable import AppStateDaemon

/// The server's use of the access decision, with the host behind it as the daemon composes
/// them: a connection's peer carries exactly what was decided for its credentials (its
/// `SO_PEERCRED`), and a peer that may not mutate is refused.
final class ServerAccessTests: AppStateTestCase {

    /// A decision fixed in advance, recording the credentials it was asked about.
    private final class FixedAccess: MutationAccess, @unchecked Sendable {
        private let lock = NSLock()
        let answer: Bool
        private var asked: [(pid: pid_t, uid: uid_t, gid: gid_t)] = []

        init(answer: Bool) { self.answer = answer }

        var credentialsAsked: [(pid: pid_t, uid: uid_t, gid: gid_t)] { lock.withLock { asked } }

        func mayMutate(pid: pid_t, uid: uid_t, gid: gid_t) -> Bool {
            lock.withLock { asked.append((pid, uid, gid)) }
            return answer
        }
    }

    /// Serves the default tree in this process with the given access decision, calls
    /// `methods` in order on one connection and returns the last error's name (nil when
    /// none) and whether the tree then shows `session/home`.
    @MainActor private static func call(_ methods: [(String, [String: JSONValue])], with access: FixedAccess) async throws -> (
        error: String?, loggedIn: Bool
    ) {
        let directory = try TemporaryDirectory()
        let socket = directory.path + "/io.appstate"
        let host = try TreeHost(file: HostedTreeFile.default)
        host.makeVisible()
        let server = VarlinkServer(
            endpoint: .path(socket, mode: 0o600, group: nil), eventLoops: MultiThreadedEventLoopGroup.singleton,
            processors: [RequestProcessor(host: host, store: nil)], configuration: .appState(limits: ServerLimits()),
            runner: MainQueueRunner(), access: access, metrics: DaemonMetrics(), logger: Logger(label: "test"))
        let listener = try await server.listen()
        var error: String?
        do {
            let client = try VarlinkClient(path: socket)
            for (method, parameters) in methods {
                do {
                    _ = try await client.call(method: method, parameters: parameters)
                } catch let refusal as VarlinkError {
                    error = refusal.name
                }
            }
            let current = try await client.call(method: "io.appstate.GetCurrent")
            await listener.drain()
            return (error, current["path"]?.stringValue?.hasPrefix("session/home") ?? false)
        } catch {
            await listener.drain()
            throw error
        }
    }

    @MainActor private static func login(with access: FixedAccess) async throws -> (error: String?, loggedIn: Bool) {
        try await call([("io.appstate.Login", ["user": "ada"])], with: access)
    }

    func testServer_whenAccessDenies_thenLoginIsPermissionDeniedAndTheTreeUnchanged() async throws {
        let access = FixedAccess(answer: false)
        let (error, loggedIn) = try await Self.login(with: access)
        XCTAssertEqual(error, "org.varlink.service.PermissionDenied")
        XCTAssertFalse(loggedIn)
        // Asked once, for this connection, with this process's credentials.
        XCTAssertEqual(access.credentialsAsked.map(\.pid), [getpid()])
        XCTAssertEqual(access.credentialsAsked.map(\.uid), [geteuid()])
        XCTAssertEqual(access.credentialsAsked.map(\.gid), [getegid()])
    }

    /// The decision may wait for the user database (NSS), so a connection that only reads
    /// never asks for it; one that changes something asks once, whatever it sends after.
    func testServer_whenAConnectionOnlyReads_thenTheDecisionIsNeverAsked() async throws {
        let access = FixedAccess(answer: true)
        let (error, _) = try await Self.call([("io.appstate.GetTree", [:]), ("io.appstate.GetStats", [:])], with: access)
        XCTAssertNil(error)
        XCTAssertTrue(access.credentialsAsked.isEmpty)

        let mutating = FixedAccess(answer: true)
        _ = try await Self.call([("io.appstate.GetTree", [:]), ("io.appstate.Login", ["user": "ada"]), ("io.appstate.Logout", [:])], with: mutating)
        XCTAssertEqual(mutating.credentialsAsked.count, 1)
    }

    func testServer_whenAccessAllows_thenLoginSucceeds() async throws {
        let access = FixedAccess(answer: true)
        let (error, loggedIn) = try await Self.login(with: access)
        XCTAssertNil(error)
        XCTAssertTrue(loggedIn)
        XCTAssertEqual(access.credentialsAsked.count, 1)
    }
}
