import AppStateIPC

extension RequestProcessor {
    /// `GetStats`' reply.
    var stats: GetStats.Reply {
        GetStats.Reply(
            version: AppStateVersion.current,
            uptimeSeconds: Double((ContinuousClock.now - started).components.seconds),
            trees: host.treeNames,
            connections: environment.connections(),
            watchers: hub.count,
            requests: metrics.requestCount,
            stateDirectory: environment.stateDirectory,
            socket: environment.socket,
            followers: environment.followers(),
            idle: idle.states,
            inhibitors: idle.inhibitors
        )
    }

    /// The metrics in the Prometheus text exposition format, with the connections and
    /// watchers as they are now.
    var exposition: String {
        metrics.exposition(connections: environment.connections(), watchers: hub.count)
    }
}
