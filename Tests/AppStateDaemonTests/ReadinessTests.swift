import Logging
import ServiceLifecycle
import TestSupport
import XCTest

@testable import AppStateDaemon

/// A daemon whose server cannot listen (its socket is another daemon's) must say why: the
/// services waiting for `READY=1` must not end the group first, or the group reports one of
/// them as "finished unexpectedly" instead of the server's error.
final class ReadinessTests: AppStateTestCase {
    private struct ListenFailed: Error {}

    /// Gives readiness up and fails a moment later, as the server does when listening fails: a
    /// waiting service that returned at once would always finish first.
    private struct FailingServer: Service {
        let readiness: Readiness

        func run() async throws {
            readiness.settle(isReady: false)
            try await Task.sleep(for: .milliseconds(100))
            throw ListenFailed()
        }
    }

    /// Waits for readiness as the reload and watchdog services do.
    private struct WaitingService: Service {
        let readiness: Readiness

        func run() async throws {
            guard await readiness.waitAsService() else { return }
            try await gracefulShutdown()
        }
    }

    func testRun_whenTheServerFailsBeforeReady_andAServiceWaitsForReadiness_thenTheGroupThrowsTheServersError() async {
        let readiness = Readiness()
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: FailingServer(readiness: readiness)), .init(service: WaitingService(readiness: readiness))],
                logger: Logger(label: "ReadinessTests")
            ))
        do {
            try await group.run()
            XCTFail("the group ended without the server's error")
        } catch {
            XCTAssertTrue(error is ListenFailed, "\(error)")
        }
    }

    func testWaitAsService_whenReady_thenReturnsTrueAtOnce() async {
        let readiness = Readiness()
        readiness.settle(isReady: true)
        let ready = await readiness.waitAsService()
        XCTAssertTrue(ready)
    }
}
