import AppStateIPC
import Foundation
import Glibc
import TestSupport

/// A tiny real Varlink server on a Unix socket in /tmp, answering on its own thread with
/// whatever the test's handler returns. One connection is served at a time, in order.
final class TestVarlinkServer: @unchecked Sendable {
    /// What the server does in answer to a call.
    enum Action: Sendable {
        case reply(VarlinkReply)
        case raw([UInt8])
        case closeConnection
    }

    let path: String
    private let listener: Int32
    private let lock = NSLock()
    private var receivedCalls: [VarlinkCall] = []
    private var connection: Int32 = -1
    private let finished = DispatchSemaphore(value: 0)

    /// Starts listening.
    /// - Parameter handler: The actions for each received call (none for oneway calls is
    ///   enforced by the server, so that handlers can stay simple).
    init(handler: @escaping @Sendable (VarlinkCall) -> [Action]) throws {
        path = "/tmp/appstate-ipc-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        listener = try TestVarlinkServer.bindSocket(at: path, listen: true)
        let thread = Thread { [self] in
            serve(handler)
            finished.signal()
        }
        thread.start()
    }

    /// The calls received so far, in order.
    var calls: [VarlinkCall] {
        lock.withLock { receivedCalls }
    }

    /// Stops the server, closing the listener and any open connection, and removes the socket.
    func stop() {
        _ = shutdown(listener, Int32(SHUT_RDWR))
        lock.withLock {
            if connection >= 0 { _ = shutdown(connection, Int32(SHUT_RDWR)) }
        }
        finished.wait()
        close(listener)
        unlink(path)
    }

    private func serve(_ handler: @Sendable (VarlinkCall) -> [Action]) {
        while true {
            let accepted = accept(listener, nil, nil)
            guard accepted >= 0 else { return }
            lock.withLock { connection = accepted }
            handle(accepted, handler)
            lock.withLock { connection = -1 }
            close(accepted)
        }
    }

    private func handle(_ descriptor: Int32, _ handler: @Sendable (VarlinkCall) -> [Action]) {
        var decoder = VarlinkFrameDecoder()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            chunk.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            while let call = try? decoder.nextCall() {
                lock.withLock { receivedCalls.append(call) }
                if call.oneway { continue }
                for action in handler(call) {
                    switch action {
                    case .reply(let reply): write(reply.encoded, to: descriptor)
                    case .raw(let bytes): write(bytes, to: descriptor)
                    case .closeConnection: return
                    }
                }
            }
        }
    }

    private func write(_ bytes: [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Creates a Unix stream socket bound to `path`, listening or not.
    static func bindSocket(at path: String, listen shouldListen: Bool) throws -> Int32 {
        unlink(path)
        let descriptor = try unixSocket(SOCK_STREAM, boundTo: path)
        guard !shouldListen || listen(descriptor, 16) == 0 else {
            let number = errno
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: number) ?? .EIO)
        }
        return descriptor
    }
}
