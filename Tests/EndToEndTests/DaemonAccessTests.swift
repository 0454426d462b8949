import Foundation
import TestSupport
import XCTest

/// SO_PEERCRED access control, with a real unprivileged peer started through setpriv.
final class DaemonAccessTests: AppStateTestCase {
    /// Sends frames as `nobody` with socat and returns what came back.
    private func callAsNobody(_ socket: String, _ frames: [String]) throws -> String {
        let input: [UInt8] = frames.flatMap { frame -> [UInt8] in Array(frame.utf8) + [0] }
        let result = try Command.run(
            try resolveExecutable("setpriv"),
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", "--",
                try resolveExecutable("socat"), "-t", "2", "-", "UNIX-CONNECT:\(socket)",
            ], input: input)
        return result.stdout + result.stderr
    }

    func testMutation_whenPeerIsNobody_thenPermissionDeniedButReadsWork() throws {
        _ = try XCTUnwrap(getuid() == 0 ? true : nil, "the privilege tests run as root, to switch to nobody with setpriv")
        let daemon = try DaemonProcess(arguments: ["--socket-mode", "0666"])
        let output = try callAsNobody(
            daemon.socketPath,
            [
                #"{"method":"io.appstate.Login","parameters":{"user":"mallory"}}"#,
                #"{"method":"io.appstate.Post","parameters":{"name":"session.didLogIn","userInfo":{"user":"mallory"}}}"#,
                #"{"method":"io.appstate.GetCurrent","parameters":{"path":"session"}}"#,
            ])
        XCTAssertEqual(output.components(separatedBy: "org.varlink.service.PermissionDenied").count - 1, 2, output)
        XCTAssertTrue(output.contains("session/login"), output)
        XCTAssertEqual(daemon.stop(), 0)
    }

    func testMutation_whenPeerIsInAnAllowedGroup_thenAllowed() throws {
        _ = try XCTUnwrap(getuid() == 0 ? true : nil, "the privilege tests run as root, to switch to nobody with setpriv")
        let daemon = try DaemonProcess(arguments: ["--socket-mode", "0666", "--allow-group", "nogroup"])
        let output = try callAsNobody(daemon.socketPath, [#"{"method":"io.appstate.Login","parameters":{"user":"ada"}}"#])
        XCTAssertTrue(output.contains("session/home"), output)
        XCTAssertEqual(daemon.stop(), 0)
    }

    func testSocket_whenCreatedByTheDaemon_thenHasTheConfiguredMode() throws {
        let daemon = try DaemonProcess()
        let attributes = try FileManager.default.attributesOfItem(atPath: daemon.socketPath)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o660)
        XCTAssertEqual(daemon.stop(), 0)
    }
}
