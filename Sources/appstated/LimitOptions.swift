import ArgumentParser
import VarlinkServer

/// The bounds on connections and messages: `--max-connections`, `--max-connections-per-user`,
/// `--idle-timeout`, `--max-message-size` and the hidden `--partial-message-timeout`.
struct LimitOptions: ParsableArguments {
    @Option(name: .customLong("max-connections"), help: "Connections beyond this many are refused.")
    var maxConnections = ServerLimits().maximumConnections

    @Option(
        name: .customLong("max-connections-per-user"),
        help: "Connections of one user beyond this many are refused; root and the daemon's own user are not counted.")
    var maxConnectionsPerUser = ServerLimits().maximumConnectionsPerUser

    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp(
            "Close a connection that sends nothing for this many seconds while nothing is in flight; 0 never does. Watch streams are never idle.",
            valueName: "seconds"))
    var idleTimeout = 300.0

    @Option(name: .customLong("max-message-size"), help: "The largest message accepted, in bytes.")
    var maxMessageSize = ServerLimits().maximumMessageSize

    // For tests: how long a half-sent message may wait for the rest (ServerLimits' default
    // when absent). Hidden, because nothing but a test needs another value.
    @Option(name: .customLong("partial-message-timeout"), help: ArgumentHelp(visibility: .hidden))
    var partialMessageTimeout: Double?

    func validate() throws {
        guard maxConnections > 0, maxConnectionsPerUser > 0, maxMessageSize > 0 else {
            throw ValidationError("--max-connections, --max-connections-per-user and --max-message-size must be positive")
        }
        guard idleTimeout >= 0, idleTimeout <= 86400 else {
            throw ValidationError("--idle-timeout must be between 0 and 86400 seconds")
        }
        if let partialMessageTimeout, !(partialMessageTimeout > 0 && partialMessageTimeout <= 3600) {
            throw ValidationError("--partial-message-timeout must be between 0 and 3600 seconds")
        }
    }

    /// The limits these options say, the others at their defaults.
    var limits: ServerLimits {
        var limits = ServerLimits()
        limits.maximumConnections = maxConnections
        limits.maximumConnectionsPerUser = maxConnectionsPerUser
        limits.idleTimeout = idleTimeout > 0 ? .milliseconds(Int(idleTimeout * 1000)) : nil
        limits.maximumMessageSize = maxMessageSize
        if let partialMessageTimeout { limits.partialMessageTimeout = .milliseconds(Int(partialMessageTimeout * 1000)) }
        return limits
    }
}
