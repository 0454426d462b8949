#if canImport(Glibc)
import Glibc
#endif

extension VarlinkServer.Endpoint {
    /// Where the daemon listens: the socket systemd passed, unless a path is configured, else
    /// the configured or default path, with the first allowed group that exists as its group.
    /// - Parameter configuration: The daemon's configuration.
    /// - Throws: ``SystemdError`` when the passed sockets are unusable or no default path exists.
    init(_ configuration: DaemonConfiguration) throws {
        if configuration.socketPath == nil, let descriptor = try ListenedSockets.takeVarlinkSocket() {
            self = .descriptor(descriptor)
            return
        }
        let path = try configuration.socketPath ?? SocketPaths.defaultSocketPath()
        let group = configuration.allowedGroups.lazy.compactMap(Self.groupID(named:)).first
        self = .path(path, mode: configuration.socketMode, group: group)
    }

    private static func groupID(named name: String) -> gid_t? {
        var group = Glibc.group()
        var result: UnsafeMutablePointer<Glibc.group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getgrnam_r(name, &group, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return group.gr_gid
    }
}
