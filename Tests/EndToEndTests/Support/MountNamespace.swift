import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A mount namespace of the test's own with a small tmpfs mounted in it, held open by a
/// child process, for a daemon whose state directory fills up or turns read-only.
///
/// The mount exists in that namespace only, so it cannot outlive the test: it goes with the
/// holder and the daemons inside, even when the test process dies, and no other process on
/// the machine sees it. Root makes the namespace with `unshare --mount`; any other user
/// with a user namespace mapping it to root in there (`unshare --user --map-root-user`), so
/// the tests run without real root. The test reaches the files through the holder's root,
/// `/proc/PID/root`, which resolves paths in its namespace.
final class MountNamespace {
    /// The process that holds the namespace: `cat`, until its input closes.
    private let holder = Process()
    private let input = Pipe()
    /// The `nsenter` options that enter the namespace.
    private let entering: [String]

    /// Makes the namespace and mounts a tmpfs of `size` on `path` in it.
    /// - Parameters:
    ///   - path: An existing empty directory.
    ///   - size: The tmpfs's size, e.g. `64k`.
    /// - Throws: ``TestFailure`` saying why, when no namespace can be made or the mount fails
    ///   (a container without CAP_SYS_ADMIN that forbids user namespaces too): a test that
    ///   needs a full or read-only disk fails then rather than pass without one.
    init(tmpfs path: String, size: String) throws {
        let asRoot = geteuid() == 0
        entering = asRoot ? ["--mount"] : ["--user", "--mount", "--preserve-credentials"]
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        holder.arguments =
            (asRoot ? [] : ["--user", "--map-root-user"]) + [
                "--mount", "--propagation", "private", "/bin/sh", "-c",
                #"mount -t tmpfs -o "size=$2,mode=0700" tmpfs "$1" && echo mounted && exec cat >/dev/null"#, "sh", path, size,
            ]
        let output = Pipe()
        let errors = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        holder.standardError = errors
        try holder.runAsTestChild()
        // The line comes once the mount is there; end of file when the shell gave up.
        let said = String(decoding: output.fileHandleForReading.readData(ofLength: 8), as: UTF8.self)
        guard said == "mounted\n" else {
            holder.waitUntilExit()
            let reason = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw TestFailure(
                "cannot mount a \(size) tmpfs on \(path) in a mount namespace of this test (root, or unprivileged user namespaces, needed): \(reason)"
            )
        }
    }

    deinit { close() }

    /// The options that start a daemon in the namespace, through `nsenter`, which `exec`s it.
    var wrapper: [String] { ["/usr/bin/nsenter", "--target", "\(holder.processIdentifier)"] + entering + ["--"] }

    /// Where the test reaches a path as the namespace sees it.
    /// - Parameter path: An absolute path.
    /// - Returns: The path through the holder's root.
    func outside(_ path: String) -> String { "/proc/\(holder.processIdentifier)/root\(path)" }

    /// Makes the mount on `path` read-only or writable again, as a read-only bind mount does
    /// (which a user namespace may change, unlike the tmpfs's own flags).
    /// - Parameters:
    ///   - path: The mount point.
    ///   - readOnly: Read-only, or writable.
    /// - Throws: ``TestFailure`` with `mount`'s error.
    func remount(_ path: String, readOnly: Bool) throws {
        let result = try Command.run(
            "/usr/bin/nsenter",
            ["--target", "\(holder.processIdentifier)"] + entering + ["--", "/usr/bin/mount", "-o", "remount,bind,\(readOnly ? "ro" : "rw")", path])
        guard result.status == 0 else { throw TestFailure("cannot remount \(path) \(readOnly ? "read-only" : "writable"): \(result.stderr)") }
    }

    /// Fills the file system holding `directory` until the kernel says ENOSPC.
    /// - Parameter directory: A directory on the tmpfs, as the namespace sees it.
    /// - Returns: The filler file, as the namespace sees it: removing it gives the space back.
    /// - Throws: ``TestFailure`` when a write fails otherwise, or nothing fills the disk.
    func fill(_ directory: String) throws -> String {
        let path = directory + "/filler"
        let fd = open(outside(path), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw TestFailure("cannot create \(outside(path)): \(String(cString: strerror(errno)))") }
        defer { Glibc.close(fd) }
        let block = [UInt8](repeating: 0xAA, count: 512)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        guard errno == ENOSPC else { throw TestFailure("filling \(path) failed otherwise: \(String(cString: strerror(errno)))") }
        return path
    }

    /// Ends the holder; the namespace, and the mount, go once the daemons in it have gone too.
    func close() {
        guard holder.isRunning else { return }
        try? input.fileHandleForWriting.close()
        holder.waitUntilExit()
    }
}
