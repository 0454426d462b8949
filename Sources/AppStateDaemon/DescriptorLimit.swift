import Logging
import VarlinkServer

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon's file descriptor limit, which bounds how many connections it can hold.
///
/// systemd starts services with a soft `RLIMIT_NOFILE` of 1024 (and a much higher hard
/// limit), expecting programs that need more to raise the soft limit themselves. A daemon
/// that accepts beyond its limit fails `accept` with `EMFILE`, and clients then wait in the
/// listen backlog instead of being told anything. So the daemon raises its soft limit to the
/// hard one and keeps its connection limit below what the descriptors allow, so that a
/// connection over the limit is refused with `io.appstate.TooManyConnections`.
enum DescriptorLimit {
    /// Descriptors kept for everything but connections: the listening socket, epoll and
    /// eventfds, the state file and its directory, the journal, a refused connection.
    static let reserve = 64

    /// Raises the soft limit to the hard limit (a forbidden `setrlimit`, as under
    /// `SystemCallFilter=~@resources`, leaves it as it is) and fits `connections` below it.
    /// - Parameter connections: The configured maximum number of connections.
    /// - Returns: The number of connections the descriptors allow, at most `connections`,
    ///   and the soft limit in force.
    static func raise(fitting connections: Int) -> (connections: Int, limit: Int) {
        var limit = rlimit()
        guard getrlimit(fileLimitResource, &limit) == 0 else { return (connections, -1) }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(fileLimitResource, &raised) == 0 { limit = raised }
        }
        guard limit.rlim_cur != rlim_t.max else { return (connections, Int.max) }
        let soft = Int(clamping: limit.rlim_cur)
        return (max(1, min(connections, soft - reserve)), soft)
    }

    /// Raises the soft limit and fits the connection limit below it, with a warning when the
    /// descriptors allow fewer connections than configured.
    /// - Parameters:
    ///   - limits: The configured limits.
    ///   - logger: Where the warning goes.
    /// - Returns: The limits to serve with.
    static func fit(_ limits: ServerLimits, logger: Logger) -> ServerLimits {
        var limits = limits
        let descriptors = raise(fitting: limits.maximumConnections)
        if descriptors.connections < limits.maximumConnections {
            logger.warning(
                "\(descriptors.limit) file descriptors allow \(descriptors.connections) connections, not \(limits.maximumConnections); raise LimitNOFILE= to hold more"
            )
            limits.maximumConnections = descriptors.connections
        }
        return limits
    }

    private static var fileLimitResource: __rlimit_resource_t {
        __rlimit_resource_t(UInt32(RLIMIT_NOFILE.rawValue))
    }
}
