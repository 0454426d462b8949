import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The real `appstate-inspect`, following a test daemon; ready once it printed its URL.
final class InspectorProcess {
    let process = Process()
    /// The URL it printed, with the token.
    let url: String

    init(socket: String, arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws {
        process.executableURL = Products.appstateInspect
        process.arguments = ["--socket", socket] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.runAsTestChild()
        // The URL is the first line; read it byte by byte, so nothing after it is consumed.
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(20)
        let descriptor = output.fileHandleForReading.fileDescriptor
        while Date() < deadline, received.last != UInt8(ascii: "\n") {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 1000) >= 0 else { break }
            var byte: UInt8 = 0
            if poller.revents != 0 { if read(descriptor, &byte, 1) == 1 { received.append(byte) } else { break } }
        }
        url = String(decoding: received, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !url.isEmpty else {
            process.terminate()
            XCTFail("appstate-inspect printed no URL", file: file, line: line)
            throw POSIXError(.ETIMEDOUT)
        }
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
