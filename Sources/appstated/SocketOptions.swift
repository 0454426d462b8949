import AppStateDaemon
import ArgumentParser

/// Where `appstated` listens, and who may change state: `--socket`, `--socket-mode`, `--allow-group`.
struct SocketOptions: ParsableArguments {
    @Option(help: "The socket to listen on (default: /run/appstate/io.appstate as root, else $XDG_RUNTIME_DIR/appstate/io.appstate).")
    var socket: String?

    @Option(name: .customLong("socket-mode"), help: "The octal mode of the socket the daemon creates.")
    var socketMode = "0660"

    @Option(name: .customLong("allow-group"), help: "A group whose members may change state (repeatable; default: appstate).")
    var allowGroups: [String] = []

    func validate() throws {
        guard mode != nil else {
            throw ValidationError("--socket-mode must be an octal mode such as 0660, not \(socketMode)")
        }
    }

    private var mode: UInt32? {
        UInt32(socketMode, radix: 8).flatMap { $0 <= 0o777 ? $0 : nil }
    }

    /// The part of the daemon's configuration these options say.
    var configuration: DaemonConfiguration.Socket {
        var socket = DaemonConfiguration.Socket(path: self.socket, mode: mode ?? 0o660)
        if !allowGroups.isEmpty { socket.allowedGroups = allowGroups }
        return socket
    }
}
