import Foundation
import TestSupport
import XCTest

@testable import AppStateDaemon

final class SystemdNotifierTests: AppStateTestCase {
    private let watchdogUnset: [String: String?] = ["WATCHDOG_USEC": nil, "WATCHDOG_PID": nil]

    private func withNotifySocket(
        _ extra: [String: String?] = [:],
        _ body: (NotifySocket) throws -> Void
    ) throws {
        let directory = try TemporaryDirectory()
        let listener = try NotifySocket(directory: URL(fileURLWithPath: directory.path))
        try withExtendedLifetime(directory) {
            try withEnvironment(["NOTIFY_SOCKET": listener.path].merging(extra) { $1 }) {
                try body(listener)
            }
        }
    }

    func testReady_whenNotifySocketSet_thenSendsReady() throws {
        try withNotifySocket { listener in
            try SystemdNotifier().ready()
            XCTAssertEqual(listener.receive(), "READY=1")
        }
    }

    func testReady_whenStatusGiven_thenSendsReadyAndStatusInOneDatagram() throws {
        try withNotifySocket { listener in
            try SystemdNotifier().ready(status: "serving 1 tree on /run/appstate/io.appstate")
            XCTAssertEqual(listener.receive(), "READY=1\nSTATUS=serving 1 tree on /run/appstate/io.appstate")
        }
    }

    func testStatus_whenNotifySocketSet_thenSendsStatus() throws {
        try withNotifySocket { listener in
            try SystemdNotifier().status("3 connections")
            XCTAssertEqual(listener.receive(), "STATUS=3 connections")
        }
    }

    func testStatus_whenTextHasNewlines_thenSendsThemAsSpaces() throws {
        try withNotifySocket { listener in
            try SystemdNotifier().status("reloading\nREADY=1\r\ndone")
            XCTAssertEqual(listener.receive(), "STATUS=reloading READY=1 done")
        }
    }

    func testStopping_whenNotifySocketSet_thenSendsStopping() throws {
        try withNotifySocket { listener in
            try SystemdNotifier().stopping()
            XCTAssertEqual(listener.receive(), "STOPPING=1")
        }
    }

    func testReloading_whenNotifySocketSet_thenSendsReloadingWithCurrentMonotonicTime() throws {
        try withNotifySocket { listener in
            let before = monotonicMicroseconds()
            try SystemdNotifier().reloading()
            let after = monotonicMicroseconds()
            let message = try XCTUnwrap(listener.receive())
            let lines = message.split(separator: "\n")
            XCTAssertEqual(lines.count, 2, message)
            XCTAssertEqual(lines.first, "RELOADING=1")
            let stampLine = String(lines.last ?? "")
            XCTAssertTrue(stampLine.hasPrefix("MONOTONIC_USEC="), message)
            let stamp = try XCTUnwrap(UInt64(stampLine.dropFirst("MONOTONIC_USEC=".count)), message)
            XCTAssertGreaterThanOrEqual(stamp, before)
            XCTAssertLessThanOrEqual(stamp, after)
        }
    }

    func testWatchdog_whenNotifySocketSet_thenSendsWatchdog() throws {
        try withNotifySocket { listener in
            try SystemdNotifier().watchdog()
            XCTAssertEqual(listener.receive(), "WATCHDOG=1")
        }
    }

    func testMessages_whenSentInSequence_thenArriveInOrder() throws {
        try withNotifySocket { listener in
            let notifier = SystemdNotifier()
            try notifier.reloading()
            try notifier.ready(status: "reloaded")
            try notifier.stopping()
            XCTAssertTrue(listener.receive()?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") ?? false)
            XCTAssertEqual(listener.receive(), "READY=1\nSTATUS=reloaded")
            XCTAssertEqual(listener.receive(), "STOPPING=1")
        }
    }

    func testEveryMessage_whenNotifySocketUnset_thenSendsNothingAndDoesNotThrow() throws {
        let directory = try TemporaryDirectory()
        let listener = try NotifySocket(directory: URL(fileURLWithPath: directory.path))
        try withEnvironment(["NOTIFY_SOCKET": nil]) {
            let notifier = SystemdNotifier()
            XCTAssertFalse(notifier.isEnabled)
            try notifier.ready(status: "x")
            try notifier.status("x")
            try notifier.stopping()
            try notifier.reloading()
            try notifier.watchdog()
        }
        XCTAssertNil(listener.receive(timeout: 0.2))
        withExtendedLifetime(directory) {}
    }

    func testIsEnabled_whenNotifySocketSetOrEmpty_thenReflectsIt() {
        withEnvironment(["NOTIFY_SOCKET": "/run/systemd/notify"]) {
            XCTAssertTrue(SystemdNotifier().isEnabled)
        }
        withEnvironment(["NOTIFY_SOCKET": ""]) {
            XCTAssertFalse(SystemdNotifier().isEnabled)
        }
    }

    func testReady_whenNotifySocketHasNoListener_thenThrowsNotifyFailed() throws {
        let directory = try TemporaryDirectory()
        try withEnvironment(["NOTIFY_SOCKET": directory.path + "/absent"]) {
            XCTAssertThrowsError(try SystemdNotifier().ready()) { error in
                let error = error as? SystemdError
                XCTAssertEqual(error?.code, .notifyFailed)
                XCTAssertEqual(error?.errno, ENOENT)
            }
        }
    }

    func testWatchdogInterval_whenWatchdogUsecSetForThisPid_thenIsHalfOfIt() throws {
        try withNotifySocket(["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "\(getpid())"]) { _ in
            XCTAssertEqual(SystemdNotifier().watchdogInterval, .seconds(15))
        }
    }

    func testWatchdogInterval_whenWatchdogPidUnset_thenAppliesToThisProcess() throws {
        try withNotifySocket(["WATCHDOG_USEC": "3000", "WATCHDOG_PID": nil]) { _ in
            XCTAssertEqual(SystemdNotifier().watchdogInterval, .microseconds(1500))
        }
    }

    func testWatchdogInterval_whenWatchdogPidIsAnotherProcess_thenIsNil() throws {
        try withNotifySocket(["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "\(getpid() + 1)"]) { _ in
            XCTAssertNil(SystemdNotifier().watchdogInterval)
        }
    }

    func testWatchdogInterval_whenWatchdogUsecUnsetOrMalformed_thenIsNil() throws {
        try withNotifySocket(watchdogUnset) { _ in
            XCTAssertNil(SystemdNotifier().watchdogInterval)
        }
        try withNotifySocket(["WATCHDOG_USEC": "soon", "WATCHDOG_PID": nil]) { _ in
            XCTAssertNil(SystemdNotifier().watchdogInterval)
        }
    }

    func testWatchdogInterval_whenNotifySocketUnset_thenIsNil() {
        withEnvironment(["NOTIFY_SOCKET": nil, "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "\(getpid())"]) {
            XCTAssertNil(SystemdNotifier().watchdogInterval)
        }
    }

    func testWatchdogInterval_whenRead_thenLeavesEnvironmentForLaterMessages() throws {
        try withNotifySocket(["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "\(getpid())"]) { listener in
            let notifier = SystemdNotifier()
            _ = notifier.watchdogInterval
            try notifier.ready()
            XCTAssertEqual(listener.receive(), "READY=1")
            XCTAssertEqual(notifier.watchdogInterval, .seconds(15))
        }
    }

    private func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }
}
