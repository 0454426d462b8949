import AppStateCore
import AppStateIPC
import Foundation
import Logging
import NIOPosix
import ServicePorts
import ServiceTestDoubles
import TestSupport
import XCTest

@testable import VarlinkServer

/// A server hosts any number of interfaces: each call goes to its interface's processor, a
/// batch that names several is answered in order, and `org.varlink.service` describes them all.
final class VarlinkServerInterfacesTests: AppStateTestCase {
    /// A second interface, which names itself in every reply.
    @MainActor private final class SecondProcessor: CallProcessor {
        nonisolated var interface: VarlinkInterfaceDescription {
            VarlinkInterfaceDescription(name: "org.example.second", description: "interface org.example.second\nmethod Echo(n: int) -> (n: int)\n")
        }

        func process(_ calls: [VarlinkCall], on connection: ConnectionContext, reply: @escaping @MainActor ([VarlinkReply?]) -> Void) {
            reply(calls.map { VarlinkReply(parameters: ["second": .number(Double($0.parameters["n"]?.intValue ?? -1))]) })
        }

        nonisolated func answerImmediately(_ call: VarlinkCall, into buffer: inout [UInt8]) -> Bool { false }
    }

    private struct AllowingAccess: MutationAccess {
        func mayMutate(pid: pid_t, uid: uid_t, gid: gid_t) -> Bool { true }
    }

    @MainActor func testListen_whenTwoInterfacesAreHosted_thenEachCallReachesItsOwnInOrder() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/socket"
        let server = VarlinkServer(
            endpoint: .path(path, mode: 0o600, group: nil), eventLoops: MultiThreadedEventLoopGroup.singleton,
            processors: [FakeCallProcessor(), SecondProcessor()],
            configuration: .init(info: ServiceInfo(vendor: "test", product: "two", version: "1", url: "-"), errors: .appState),
            runner: MainQueueRunner(), access: AllowingAccess(), metrics: RecordingServerMetrics(), logger: Logger(label: "test"))
        let listener = try await server.listen()

        let frames = [
            #"{"method":"test.Call","parameters":{"n":1}}"#,
            #"{"method":"org.example.second.Echo","parameters":{"n":2}}"#,
            #"{"method":"test.Call","parameters":{"n":3}}"#,
            #"{"method":"org.varlink.service.GetInfo"}"#,
            #"{"method":"org.varlink.service.GetInterfaceDescription","parameters":{"interface":"org.example.second"}}"#,
            #"{"method":"org.varlink.service.GetInterfaceDescription","parameters":{"interface":"org.example.third"}}"#,
            #"{"method":"org.example.third.Echo"}"#,
            #"{"method":"test.inner.Call","parameters":{"n":4}}"#,
        ]
        let replies = try await Self.exchangeOffTheMainActor(frames, at: path)

        XCTAssertEqual(replies.count, frames.count)
        XCTAssertEqual(replies[0].parameters, ["answered": 1])
        XCTAssertEqual(replies[1].parameters, ["second": 2])
        XCTAssertEqual(replies[2].parameters, ["answered": 3])
        XCTAssertEqual(replies[3].parameters["interfaces"], ["org.varlink.service", "test", "org.example.second"])
        XCTAssertEqual(replies[3].parameters["product"], "two")
        XCTAssertEqual(replies[4].parameters["description"]?.stringValue?.hasPrefix("interface org.example.second"), true)
        XCTAssertEqual(replies[5].error, "org.varlink.service.InterfaceNotFound")
        XCTAssertEqual(replies[6].error, "org.varlink.service.InterfaceNotFound")
        // An interface whose name starts with a hosted one's is another interface.
        XCTAssertEqual(replies[7].error, "org.varlink.service.InterfaceNotFound")
        await listener.drain()
    }

    /// The exchange on a thread of its own: the server answers on the main actor, which a
    /// blocking read here would hold.
    private nonisolated static func exchangeOffTheMainActor(_ frames: [String], at path: String) async throws -> [VarlinkReply] {
        try exchange(frames, at: path)
    }

    /// Sends the frames at once, as a client that pipelines does, and reads a reply to each.
    private static func exchange(_ frames: [String], at path: String) throws -> [VarlinkReply] {
        let socket = try unixSocket(connectedTo: path)
        defer { close(socket) }
        let bytes = Array(frames.joined(separator: "\0").utf8) + [0]
        XCTAssertEqual(bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }, bytes.count)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while received.count(where: { $0 == 0 }) < frames.count {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { throw TestFailure("the server closed the connection after \(received.count) bytes") }
            received += buffer[..<count]
        }
        return try received.split(separator: 0).map { try VarlinkReply(frame: Array($0)) }
    }
}
