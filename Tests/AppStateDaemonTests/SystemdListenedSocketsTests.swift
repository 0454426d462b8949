import Foundation
import TestSupport
import XCTest

@testable import AppStateDaemon

final class SystemdListenedSocketsTests: AppStateTestCase {
    /// Set by the parent tests in the environment of the child they start under
    /// `systemd-socket-activate`; its value is the report prefix.
    private static let childMarker = "APPSTATE_TEST_ACTIVATION_CHILD"
    private static let childTest = "AppStateDaemonTests.SystemdListenedSocketsTests/testActivationChild"

    // MARK: Choosing the descriptor

    func testSelectVarlinkIndex_whenNothingPassed_thenIsNil() throws {
        XCTAssertNil(try ListenedSockets.selectVarlinkIndex(names: []))
    }

    func testSelectVarlinkIndex_whenVarlinkNamed_thenPicksItAmongOthers() throws {
        XCTAssertEqual(try ListenedSockets.selectVarlinkIndex(names: ["varlink"]), 0)
        XCTAssertEqual(try ListenedSockets.selectVarlinkIndex(names: ["metrics", "varlink"]), 1)
        XCTAssertEqual(try ListenedSockets.selectVarlinkIndex(names: ["a", "b", "varlink", "c"]), 2)
    }

    func testSelectVarlinkIndex_whenSingleUnnamedDescriptor_thenPicksIt() throws {
        // libsystemd reports "unknown" without LISTEN_FDNAMES; a socket unit without
        // FileDescriptorName= passes its own unit name.
        XCTAssertEqual(try ListenedSockets.selectVarlinkIndex(names: ["unknown"]), 0)
        XCTAssertEqual(try ListenedSockets.selectVarlinkIndex(names: ["appstated.socket"]), 0)
    }

    func testSelectVarlinkIndex_whenSeveralAndNoneIsVarlink_thenThrowsAmbiguous() {
        XCTAssertThrowsError(try ListenedSockets.selectVarlinkIndex(names: ["unknown", "unknown"])) { error in
            XCTAssertEqual((error as? SystemdError)?.code, .ambiguousListenFileDescriptors)
            XCTAssertTrue("\(error)".contains("none is named \"varlink\""), "\(error)")
        }
    }

    // MARK: The environment

    func testTakeVarlinkSocket_whenNotActivated_thenIsNil() throws {
        try withEnvironment(["LISTEN_PID": nil, "LISTEN_FDS": nil, "LISTEN_FDNAMES": nil]) {
            XCTAssertNil(try ListenedSockets.takeVarlinkSocket())
        }
    }

    func testTakeVarlinkSocket_whenPassedToAnotherPid_thenIsNilAndUnsetsEnvironment() throws {
        try withEnvironment(["LISTEN_PID": "\(getpid() + 1)", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "varlink"]) {
            XCTAssertNil(try ListenedSockets.takeVarlinkSocket())
            XCTAssertNil(getenv("LISTEN_FDS"))
        }
    }

    func testTakeVarlinkSocket_whenListenFdsMalformed_thenThrows() throws {
        try withEnvironment(["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "many", "LISTEN_FDNAMES": nil]) {
            XCTAssertThrowsError(try ListenedSockets.takeVarlinkSocket()) { error in
                XCTAssertEqual((error as? SystemdError)?.code, .listenFileDescriptorsFailed)
            }
        }
    }

    // MARK: Real socket activation

    func testTakeVarlinkSocket_whenActivatedWithOneNamedSocket_thenReturnsIt() throws {
        let report = try activateChild(sockets: ["varlink"], connectTo: "varlink", fdnames: "varlink")
        XCTAssertEqual(report, "fd=3 listening-unix-stream=1 cloexec=1 environment-unset=1 second-take=nil")
    }

    func testTakeVarlinkSocket_whenActivatedWithOneUnnamedSocket_thenReturnsIt() throws {
        let report = try activateChild(sockets: ["only"], connectTo: "only", fdnames: nil)
        XCTAssertEqual(report, "fd=3 listening-unix-stream=1 cloexec=1 environment-unset=1 second-take=nil")
    }

    func testTakeVarlinkSocket_whenActivatedWithSeveralSockets_thenReturnsTheOneNamedVarlink() throws {
        // The child accepts on the descriptor it was given; had it picked fd 3 it would wait
        // for a connection that never comes to that socket, and the test would time out.
        let report = try activateChild(sockets: ["metrics", "varlink"], connectTo: "varlink", fdnames: "metrics:varlink")
        XCTAssertEqual(report, "fd=4 listening-unix-stream=1 cloexec=1 environment-unset=1 second-take=nil")
    }

    /// Runs only as the child of the tests above: takes the passed socket, accepts the
    /// parent's connection on it and writes what it found.
    func testActivationChild() throws {
        guard getenv(Self.childMarker) != nil else {
            throw XCTSkip("runs only under systemd-socket-activate, started by the socket activation tests")
        }
        guard let descriptor = try ListenedSockets.takeVarlinkSocket() else {
            XCTFail("no socket passed")
            return
        }
        var type: CInt = 0
        var length = socklen_t(MemoryLayout<CInt>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &type, &length)
        var accepting: CInt = 0
        getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length)
        let cloexec = fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0
        let activationVariables: [String] = ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"]
        let environmentUnset = activationVariables.allSatisfy { getenv($0) == nil }
        let second = try ListenedSockets.takeVarlinkSocket()
        let isUnixStream = type == CInt(SOCK_STREAM.rawValue) && accepting == 1
        var report =
            "fd=\(descriptor) listening-unix-stream=\(isUnixStream ? 1 : 0) cloexec=\(cloexec ? 1 : 0)"
            + " environment-unset=\(environmentUnset ? 1 : 0) second-take=\(second.map(String.init) ?? "nil")"
        let connection = accept(descriptor, nil, nil)
        XCTAssertGreaterThanOrEqual(connection, 0)
        report.withUTF8 { _ = write(connection, $0.baseAddress, $0.count) }
        close(connection)
    }

    /// Starts this test executable's ``testActivationChild()`` under
    /// `systemd-socket-activate` listening on the named sockets, connects to one of them
    /// (which makes `systemd-socket-activate` exec the child), and returns the child's report.
    private func activateChild(sockets: [String], connectTo target: String, fdnames: String?) throws -> String {
        let directory = try TemporaryDirectory()
        var arguments: [String] = []
        for name in sockets { arguments += ["--listen=\(directory.path)/\(name).sock"] }
        if let fdnames { arguments.append("--fdname=\(fdnames)") }
        arguments += ["--setenv=\(Self.childMarker)=1", try TestPaths.testExecutable, Self.childTest]

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try resolveExecutable("systemd-socket-activate"))
        process.arguments = arguments
        let logPath = directory.path + "/child.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardOutput = log
        process.standardError = log
        try process.runAsTestChild()
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        func childLog() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

        let connection = try connect(to: "\(directory.path)/\(target).sock", timeout: .seconds(10))
        defer { close(connection) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while waitReadable(connection, timeout: .seconds(30)) {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { break }
            received += buffer.prefix(count)
        }
        let report = String(decoding: received, as: UTF8.self)
        if report.isEmpty { XCTFail("no report from the activated child; its output:\n\(childLog())") }
        return report
    }

    /// Connects to a stream socket that `systemd-socket-activate` is about to create.
    private func connect(to path: String, timeout: Duration) throws -> CInt {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let descriptor = try? unixSocket(connectedTo: path) { return descriptor }
            guard ContinuousClock.now < deadline else { throw TestFailure("\(path) never accepted a connection") }
            usleep(20_000)
        }
    }
}
