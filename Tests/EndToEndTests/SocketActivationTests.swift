import AppStateIPC
import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Socket activation with the real `systemd-socket-activate`, passing the socket named `varlink`.
final class SocketActivationTests: AppStateTestCase {
    func testStart_whenSocketActivated_thenServesThePassedSocket() throws {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let socketPath = directory.appendingPathComponent("activated").path
        let notify = try NotifySocket(directory: directory)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        process.arguments = [
            "--listen=\(socketPath)", "--fdname=varlink", "-E", "NOTIFY_SOCKET=\(notify.path)",
            Products.appstated.path, "--state-dir", directory.appendingPathComponent("state").path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runAsTestChild()
        defer {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        // systemd-socket-activate binds first and starts the daemon on the first connection.
        var client: VarlinkClient?
        for _ in 0..<100 where client == nil {
            client = try? VarlinkClient(path: socketPath, timeout: .seconds(20))
            if client == nil { _ = notify.receive(timeout: 0.05) }
        }
        let connected = try XCTUnwrap(client)
        let reply = try connected.call(method: "io.appstate.GetCurrent", parameters: ["path": "session"])
        XCTAssertEqual(reply["path"], "session/login")
        XCTAssertNotNil(notify.waitFor("READY=1"))
    }
}
