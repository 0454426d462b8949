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
            inhibitors: idle.inhibitors,
            frontEnds: frontEnds.frontEnds(in: host.treeNames)
        )
    }

    /// The metrics in the Prometheus text exposition format, with the connections, the
    /// watchers and the front-ends up as they are now.
    var exposition: String {
        metrics.exposition(connections: environment.connections(), watchers: hub.count, frontEndsUp: frontEnds.up(in: host.treeNames))
    }
}
