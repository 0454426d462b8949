import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The real `appstate-gateway` in front of a test daemon, ready once it printed its URL;
/// stopped by its pid when released.
final class GatewayProcess {
    let process = Process()
    /// The first line it printed: its URL, or `unix:PATH`.
    let url: String
    /// Its TCP port, when it listens on one.
    let port: Int
    /// Its token: read from the token file, or from the URL when it drew one.
    let token: String
    let directory: URL

    /// Starts the gateway.
    /// - Parameters:
    ///   - socket: The daemon's socket.
    ///   - directory: Where the token file goes (`token`), unless `arguments` name another.
    ///   - arguments: More options; without `--listen`, it listens on a free loopback port.
    ///   - tokenFile: Whether to pass `--token-file DIRECTORY/token`.
    init(socket: String, directory: URL, arguments: [String] = [], tokenFile: Bool = true) throws {
        self.directory = directory
        let tokenPath = directory.appendingPathComponent("token").path
        process.executableURL = Products.appstateGateway
        process.arguments =
            ["--socket", socket] + (tokenFile ? ["--token-file", tokenPath] : [])
            + (arguments.contains("--listen") ? [] : ["--listen", "127.0.0.1:0"])
            + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.runAsTestChild()
        let line = try Self.firstLine(of: output.fileHandleForReading.fileDescriptor)
        guard !line.isEmpty else {
            process.terminate()
            throw TestFailure("appstate-gateway printed no URL")
        }
        url = line
        port = line.hasPrefix("http://") ? Int(line.split(separator: ":").last?.split(separator: "/").first ?? "") ?? 0 : 0
        if tokenFile {
            token = try String(contentsOfFile: tokenPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        } else {
            token = line.components(separatedBy: "?token=").last ?? ""
        }
    }

    /// The first line a child writes, read byte by byte so that nothing after it is consumed.
    static func firstLine(of descriptor: Int32, timeout: TimeInterval = 20) throws -> String {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, received.last != UInt8(ascii: "\n") {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 1000) >= 0 else { break }
            var byte: UInt8 = 0
            if poller.revents != 0 { if read(descriptor, &byte, 1) == 1 { received.append(byte) } else { break } }
        }
        return String(decoding: received, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A new connection to it.
    func connection(receiveBuffer: Int32? = nil) throws -> HTTPTestConnection {
        try HTTPTestConnection(port: port, receiveBuffer: receiveBuffer)
    }

    /// The `Authorization` header with its token.
    var bearer: (String, String) { ("Authorization", "Bearer \(token)") }

    /// Sends SIGTERM and waits for it to exit.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
