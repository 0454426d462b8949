@testable import AppStateService
import Glibc
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import XCTest

/// The daemon's acceptor: each connection reaches an event loop with its own descriptor, a
/// stopped acceptor accepts nothing more, and running out of descriptors pauses accepting
/// instead of spinning on a socket that stays readable.
final class VarlinkAcceptorTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
    }

    override func tearDown() {
        directory = nil
    }

    /// Calls `body` with the address of the Unix socket at `path`.
    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> CInt) -> CInt {
        var unix = sockaddr_un()
        unix.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &unix.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        return withUnsafePointer(to: &unix) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// A listening, non-blocking socket at `path`.
    private static func listen(at path: String) -> CInt {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue), 0)
        XCTAssertEqual(withAddress(path) { bind(fd, $0, $1) }, 0)
        XCTAssertEqual(Glibc.listen(fd, 16), 0)
        return fd
    }

    /// A client connected to `path`, or -1 with errno set.
    private static func connect(to path: String) -> CInt {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard withAddress(path, { Glibc.connect(fd, $0, $1) }) == 0 else {
            let error = errno
            close(fd)
            errno = error
            return -1
        }
        return fd
    }

    /// An acceptor on `listener` whose connections each send their own descriptor's number
    /// down that descriptor, and are counted.
    private static func greetingAcceptor(_ listener: CInt, count: NIOLockedValueBox<Int>) throws -> VarlinkAcceptor {
        try VarlinkAcceptor(descriptor: listener, eventLoops: MultiThreadedEventLoopGroup.singleton, initializer: { _, descriptor in
            let greeting = Array("\(descriptor)\n".utf8)
            XCTAssertEqual(Glibc.send(descriptor, greeting, greeting.count, 0), greeting.count)
            count.withLockedValue { $0 += 1 }
        }, logger: Logger(label: "test"))
    }

    /// What arrives on `fd` up to a newline, within 5 s.
    private static func line(from fd: CInt) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.last != UInt8(ascii: "\n") {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 5000) == 1, read(fd, &byte, 1) == 1 else { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Waits up to 5 s for `condition`.
    private static func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    func testStart_whenClientsConnect_thenEachConnectionIsSetUpWithItsOwnDescriptor() async throws {
        let path = directory.path + "/socket"
        let count = NIOLockedValueBox(0)
        let acceptor = try Self.greetingAcceptor(Self.listen(at: path), count: count)
        acceptor.start()

        let clients = (0..<5).map { _ in Self.connect(to: path) }
        let greetings = clients.map { Self.line(from: $0) }

        XCTAssertEqual(Set(greetings).count, 5, "\(greetings)")
        XCTAssertTrue(greetings.allSatisfy { Int($0.dropLast()) != nil }, "each client is greeted down its own descriptor: \(greetings)")
        await acceptor.stop()
        clients.forEach { close($0) }
    }

    func testStop_thenNothingMoreIsAccepted() async throws {
        let path = directory.path + "/socket"
        let count = NIOLockedValueBox(0)
        let acceptor = try Self.greetingAcceptor(Self.listen(at: path), count: count)
        acceptor.start()

        await acceptor.stop()

        XCTAssertEqual(Self.connect(to: path), -1)
        XCTAssertEqual(errno, ECONNREFUSED, "the listening socket is closed")
        await acceptor.stop()
    }

    func testAccept_whenTheProcessIsOutOfDescriptors_thenPausesInsteadOfSpinningAndAcceptsOnceSomeAreFree() async throws {
        let path = directory.path + "/socket"
        let count = NIOLockedValueBox(0)
        // accept(2) as in a process with no descriptor left, until told otherwise. (Running
        // the test process itself out of descriptors traps libdispatch, which opens files of
        // /proc to watch its threads.)
        let exhausted = NIOLockedValueBox(true)
        let attempts = NIOLockedValueBox(0)
        let acceptor = try VarlinkAcceptor(descriptor: Self.listen(at: path), eventLoops: MultiThreadedEventLoopGroup.singleton,
                                           initializer: { _, _ in count.withLockedValue { $0 += 1 } }, logger: Logger(label: "test"),
                                           accept: { listener in
            attempts.withLockedValue { $0 += 1 }
            guard !exhausted.withLockedValue({ $0 }) else {
                errno = EMFILE
                return -1
            }
            return Glibc.accept(listener, nil, nil)
        })
        acceptor.start()
        let clients = (0..<3).map { _ in Self.connect(to: path) }
        defer { clients.forEach { close($0) } }

        try await Task.sleep(for: .seconds(1))
        let attemptsWhileExhausted = attempts.withLockedValue { $0 }
        XCTAssertEqual(count.withLockedValue { $0 }, 0)
        XCTAssertGreaterThan(attemptsWhileExhausted, 1, "accepting was not tried again")
        XCTAssertLessThanOrEqual(attemptsWhileExhausted, 15, "accepting spun on the readable socket instead of pausing 100 ms")

        exhausted.withLockedValue { $0 = false }
        let accepted = try await Self.eventually { count.withLockedValue { $0 } == 3 }
        XCTAssertTrue(accepted, "accepted \(count.withLockedValue { $0 }) of 3 once descriptors were free")
        await acceptor.stop()
    }
}
