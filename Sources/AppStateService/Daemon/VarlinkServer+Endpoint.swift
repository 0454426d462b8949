#if canImport(Glibc)
import Glibc
#endif

extension VarlinkServer.Endpoint {
    /// Where the daemon listens: the socket systemd passed, unless a path is configured, else
    /// the configured or default path.
    /// - Parameters:
    ///   - configuration: The daemon's configuration.
    ///   - group: The group of a socket the daemon creates: the first allowed group that exists.
    /// - Throws: ``SystemdError`` when the passed sockets are unusable or no default path exists.
    init(_ configuration: DaemonConfiguration, group: gid_t?) throws {
        if configuration.socketPath == nil, let descriptor = try ListenedSockets.takeVarlinkSocket() {
            self = .descriptor(descriptor)
            return
        }
        let path = try configuration.socketPath ?? SocketPaths.defaultSocketPath()
        self = .path(path, mode: configuration.socketMode, group: group)
    }
}
