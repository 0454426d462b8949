import AppStateIPC
import VarlinkServer

#if canImport(Glibc)
    import Glibc
#endif

extension VarlinkServer.Endpoint {
    /// Where the daemon listens: the socket systemd passed, unless a path is configured, else
    /// the configured or default path.
    /// - Parameters:
    ///   - configuration: The daemon's configuration.
    ///   - group: The group of a socket the daemon creates: the first allowed group that exists.
    /// - Throws: ``SystemdError`` when the passed sockets are unusable, `DefaultSocketPathError`
    ///   when no default path exists.
    init(_ configuration: DaemonConfiguration, group: gid_t?) throws {
        if configuration.socket.path == nil, let descriptor = try ListenedSockets.takeVarlinkSocket() {
            self = .descriptor(descriptor)
            return
        }
        let path = try configuration.socket.path ?? AppStateInterface.defaultSocketPath()
        self = .path(path, mode: configuration.socket.mode, group: group)
    }
}

extension VarlinkServer.Configuration {
    /// The daemon's server: `GetInfo` names appstated, and the connection errors are
    /// `io.appstate`'s.
    /// - Parameter limits: The bounds on messages, connections and watchers.
    static func appState(limits: ServerLimits) -> Self {
        Self(
            info: ServiceInfo(
                vendor: "appstate", product: "appstated", version: AppStateVersion.current,
                url: "https://github.com/appstate/appstate"),
            limits: limits,
            errors: .appState
        )
    }
}
