import Logging
import NIOCore
import NIOPosix
import ServicePorts
import ServiceTestDoubles
import TestSupport
import XCTest

@testable import VarlinkServer

/// A listening server: what it does when `accept` fails for want of descriptors.
final class VarlinkServerListenTests: AppStateTestCase {
    @MainActor func testListen_whenListening_thenAcceptingPausesWhenOutOfDescriptors() async throws {
        let directory = try TemporaryDirectory()
        let server = VarlinkServer(
            endpoint: .path(directory.path + "/socket", mode: 0o600, group: nil), eventLoops: MultiThreadedEventLoopGroup.singleton,
            processors: [FakeCallProcessor()],
            configuration: .init(info: ServiceInfo(vendor: "test", product: "test", version: "1", url: "-"), errors: .appState),
            runner: MainQueueRunner(), access: AllowingAccess(), metrics: RecordingServerMetrics(), logger: Logger(label: "test"))
        let listener = try await server.listen()

        // NIO's handler backs accepting off when it fails with EMFILE or ENFILE, rather than
        // trying again at once on the socket that stays readable.
        _ = try await listener.channel.pipeline.handler(type: AcceptBackoffHandler.self).get()
        await listener.drain()
    }

    private struct AllowingAccess: MutationAccess {
        func mayMutate(pid: pid_t, uid: uid_t, gid: gid_t) -> Bool { true }
    }
}
