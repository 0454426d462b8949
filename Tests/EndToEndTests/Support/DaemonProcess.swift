import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The `appstated` built beside the tests, started on a temporary socket and state directory.
typealias DaemonProcess = TestDaemon

extension TestDaemon {
    /// Starts the `appstated` built beside the tests and waits for `READY=1`.
    /// - Parameters:
    ///   - arguments: Extra options (e.g. `--tree-file`).
    ///   - environment: Extra environment variables.
    ///   - directory: Reuse a directory (and so the state) of an earlier daemon.
    convenience init(arguments: [String] = [], environment: [String: String] = [:], directory: URL? = nil) throws {
        try self.init(executable: Products.appstated, arguments: arguments, environment: environment, directory: directory)
    }

    /// Starts it through a wrapper command (`setpriv`, `prlimit`, `unshare`…): for privilege
    /// tests the daemon runs as another user or with another group database, for load tests
    /// with other resource limits. The wrapper must `exec` the daemon.
    /// - Parameters:
    ///   - wrapper: The command line to put in front of `appstated …`.
    ///   - arguments: Extra daemon options.
    ///   - owner: A uid and gid to give the directory to, for a daemon that is not root.
    convenience init(wrapper: [String], arguments: [String] = [], owner: (uid: uid_t, gid: gid_t)? = nil) throws {
        try self.init(executable: Products.appstated, wrapper: wrapper, arguments: arguments, owner: owner)
    }
}

extension URL {
    func creatingDirectory() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}
