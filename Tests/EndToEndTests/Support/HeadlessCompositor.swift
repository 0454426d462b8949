import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A real Wayland compositor without a screen, for the output follower: sway or cage from
/// Debian on wlroots' headless backend, with the pixman renderer and no input devices. sway
/// refuses to run as root, so as root both run as an unprivileged user (``user``) through
/// `setpriv`, in a runtime directory of their own that the user owns with mode 0700, as
/// `XDG_RUNTIME_DIR` must be; the daemon, as root, reaches the socket there and nobody else
/// can. The compositor is stopped and killed by its PID only.
final class HeadlessCompositor {
    /// Which compositor.
    enum Kind: String {
        /// sway 1.7: its outputs are changed with `swaymsg`; `create_output` adds one.
        case sway
        /// cage, the kiosk compositor: one output it never changes.
        case cage
    }

    /// The unprivileged user the compositor runs as when the tests run as root.
    static let user: uid_t = 4711

    let kind: Kind
    /// `XDG_RUNTIME_DIR` of the compositor, where its sockets are.
    let runtimeDirectory: URL
    private let directory: URL
    private var process: Process?

    /// cage's one client: it holds a connection to cage and ends when cage closes it, so that
    /// it never outlives cage (cage does not end its client when it is killed).
    private static let cageClient =
        "import os, socket; s = socket.socket(socket.AF_UNIX); s.connect(os.path.join(os.environ['XDG_RUNTIME_DIR'], os.environ['WAYLAND_DISPLAY'])); s.recv(1)"

    /// Starts the compositor and waits for its socket.
    /// - Parameters:
    ///   - kind: sway or cage.
    ///   - directory: A directory for its runtime directory and configuration.
    init(_ kind: Kind, in directory: URL) throws {
        self.kind = kind
        self.directory = directory
        runtimeDirectory = directory.appendingPathComponent("runtime-\(kind.rawValue)", isDirectory: true)
        try start()
    }

    deinit { kill() }

    /// The compositor's Wayland socket (sway takes `wayland-1`, cage `wayland-0`).
    var socketPath: String {
        get throws {
            let names = try FileManager.default.contentsOfDirectory(atPath: runtimeDirectory.path)
            guard let name = names.sorted().first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }) else {
                throw TestFailure("\(kind) has no socket in \(runtimeDirectory.path)")
            }
            return runtimeDirectory.appendingPathComponent(name).path
        }
    }

    /// Starts the compositor (again, after ``kill()``: a new one with its first output only).
    func start() throws {
        try Self.prepareX11SocketDirectory()
        try? FileManager.default.removeItem(at: runtimeDirectory)
        try FileManager.default.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true)
        let asRoot = getuid() == 0
        if asRoot { XCTAssertEqual(chown(runtimeDirectory.path, Self.user, Self.user), 0) }
        XCTAssertEqual(chmod(runtimeDirectory.path, 0o700), 0)
        let process = Process()
        var command: [String]
        switch kind {
        case .sway:
            let config = directory.appendingPathComponent("sway-config")
            try "".write(to: config, atomically: true, encoding: .utf8)
            XCTAssertEqual(chmod(config.path, 0o644), 0)
            command = [try resolveExecutable("sway"), "--config", config.path]
        case .cage:
            command = [try resolveExecutable("cage"), "--", BusMock.python, "-c", Self.cageClient]
        }
        if asRoot {
            command = [try resolveExecutable("setpriv"), "--reuid=\(Self.user)", "--regid=\(Self.user)", "--clear-groups", "--"] + command
        }
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": runtimeDirectory.path,
            "XDG_RUNTIME_DIR": runtimeDirectory.path,
            "WLR_BACKENDS": "headless",
            "WLR_LIBINPUT_NO_DEVICES": "1",
            "WLR_RENDERER": "pixman",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runAsTestChild()
        self.process = process
        // An external process: polled, with a deadline.
        let deadline = Date().addingTimeInterval(15)
        while (try? socketPath) == nil || (kind == .sway && (try? ipcSocket) == nil) {
            guard Date() < deadline, process.isRunning else {
                throw TestFailure("\(kind) did not start (is it installed? `scripts/install-deps --test`)")
            }
            usleep(20_000)
        }
    }

    /// Makes `/tmp/.X11-unix` as systemd-tmpfiles does (`x11.conf`: root's, mode 1777) before a
    /// compositor starts Xwayland. Left to Xwayland, the first compositor to start (as
    /// ``user``) makes it its own, mode 0755, and from then on every Xwayland of another user,
    /// cage's included, fails with "Cannot create XWayland server".
    static func prepareX11SocketDirectory() throws {
        guard getuid() == 0 else { return }
        let path = "/tmp/.X11-unix"
        if mkdir(path, 0o1777) != 0, errno != EEXIST { throw TestFailure("cannot make \(path): \(String(cString: strerror(errno)))") }
        guard chown(path, 0, 0) == 0, chmod(path, 0o1777) == 0 else {
            throw TestFailure("cannot give \(path) to root with mode 1777: \(String(cString: strerror(errno)))")
        }
    }

    /// Kills the compositor at once (SIGKILL): its clients' connections break.
    func kill() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    private var ipcSocket: String {
        get throws {
            let names = try FileManager.default.contentsOfDirectory(atPath: runtimeDirectory.path)
            guard let name = names.first(where: { $0.hasPrefix("sway-ipc.") }) else { throw TestFailure("sway has no IPC socket") }
            return runtimeDirectory.appendingPathComponent(name).path
        }
    }

    /// Sends sway a command, e.g. `output HEADLESS-1 transform 90`.
    /// - Throws: ``TestFailure`` when sway refuses it.
    func swaymsg(_ command: String...) throws {
        var arguments = [try resolveExecutable("swaymsg"), "--socket", try ipcSocket] + command
        if getuid() == 0 {
            arguments = [try resolveExecutable("setpriv"), "--reuid=\(Self.user)", "--regid=\(Self.user)", "--clear-groups", "--"] + arguments
        }
        let result = try Command.run(arguments[0], Array(arguments.dropFirst()))
        guard result.status == 0 else { throw TestFailure("swaymsg \(command.joined(separator: " ")) failed: \(result.stdout)\(result.stderr)") }
    }
}
