import AppStateCore
import AppStateIPC
import Varlink

/// What `appstatectl status` says about the daemon: where it listens, which version it
/// is, how long it has run and how busy it is, like `systemctl status` for a unit.
///
/// ```
/// appstated 0.1.0 at /run/appstate/io.appstate
///      Uptime: 2h 7min
///       Trees: main (default), kiosk
/// Connections: 3
///    Watchers: 1
///    Requests: 1234
///       State: /var/lib/appstate
///        Idle: kiosk: 42s, lock held back by 1 inhibitor
///  Inhibitors: kiosk: card payment (uid 1000, pid 4242, 3s)
///  Front-ends: kiosk: kiosk appstate-kiosk 4242: live (2 reloads)
///              kiosk: page lobby-7f3a: offline (net::ERR_NAME_NOT_RESOLVED)
///   Following: logind seat0: following seat0: ada
///              osk: disconnected (sm.puri.OSK0 is not on the session bus; waiting for it)
/// ```
public struct StatusRenderer: Sendable {
    /// How to colour the text.
    public var style: TerminalStyle

    /// Creates a renderer.
    /// - Parameter style: How to colour the text; plain by default.
    public init(style: TerminalStyle = .plain) {
        self.style = style
    }

    /// What the command prints for a daemon with two trees that has run for two hours,
    /// indented for its help. Written out rather than drawn: every run of appstatectl builds
    /// every command's help, so drawing it would be paid by every command. The tests hold it to what
    /// ``render(stats:info:socketPath:)`` draws.
    public static let example = """
          appstated 0.1.0 at /run/appstate/io.appstate
               Uptime: 2h 7min
                Trees: main (default), kiosk
          Connections: 3
             Watchers: 1
             Requests: 1234
                State: /var/lib/appstate
                 Idle: kiosk: 42s, lock held back by 1 inhibitor
           Inhibitors: kiosk: card payment (uid 1000, pid 4242, 3s)
           Front-ends: kiosk: kiosk appstate-kiosk 4242: live (2 reloads)
                       kiosk: page lobby-7f3a: offline (net::ERR_NAME_NOT_RESOLVED)
        """

    /// Renders the status.
    /// - Parameters:
    ///   - stats: The daemon's `GetStats` reply.
    ///   - info: The daemon's `org.varlink.service.GetInfo` reply.
    ///   - socketPath: The socket this command reached the daemon on.
    /// - Returns: The lines, joined by newlines, without a final newline.
    public func render(stats: GetStats.Reply, info: GetInfo.Reply, socketPath: String) -> String {
        var trees = stats.trees
        // The first tree is the one commands use without --tree; with one tree that goes
        // without saying.
        if trees.count > 1 { trees[0] += " (default)" }
        var rows = [
            ("Uptime", Formatting.uptime(seconds: stats.uptimeSeconds)),
            ("Trees", trees.isEmpty ? "none" : trees.joined(separator: ", ")),
            ("Connections", String(stats.connections)),
            ("Watchers", String(stats.watchers)),
            ("Requests", String(stats.requests)),
            ("State", stats.stateDirectory ?? "not saved"),
        ]
        // Each tree with idle steps, and each inhibitor, on a line of its own.
        for (index, idle) in stats.idle.enumerated() {
            rows.append((index == 0 ? "Idle" : "", "\(idle.tree): \(Self.describe(idle))"))
        }
        for (index, inhibitor) in stats.inhibitors.enumerated() {
            let holder = "uid \(inhibitor.uid), pid \(inhibitor.pid), \(Formatting.uptime(seconds: inhibitor.heldSeconds))"
            rows.append((index == 0 ? "Inhibitors" : "", "\(inhibitor.tree): \(inhibitor.why) (\(holder))"))
        }
        for (index, frontEnd) in stats.frontEnds.enumerated() {
            rows.append((index == 0 ? "Front-ends" : "", "\(frontEnd.tree): \(describe(frontEnd))"))
        }
        // One follower a line, the later ones under the first, as systemctl lists a unit's processes.
        for (index, follower) in (stats.followers ?? []).enumerated() {
            let state = follower.connected ? follower.detail : style.yellow("disconnected") + " (\(follower.detail))"
            rows.append((index == 0 ? "Following" : "", "\(follower.name): \(state)"))
        }
        let width = rows.map(\.0.count).max() ?? 0
        let heading = style.bold("\(info.product) \(info.version)") + " at " + socketPath
        let lines = rows.map { label, value in
            label.isEmpty
                ? String(repeating: " ", count: width + 2) + value
                : String(repeating: " ", count: width - label.count) + label + ": " + value
        }
        return ([heading] + lines).joined(separator: "\n")
    }

    /// A front-end, its state and why, and how often it recovered:
    /// `kiosk appstate-kiosk 4242: recovering (renderer crashed; 2 reloads, 1 restart)`.
    private func describe(_ frontEnd: FrontEnd) -> String {
        let state =
            switch frontEnd.state {
            case "live": style.green(frontEnd.state)
            case "down": style.yellow(frontEnd.state)
            default: frontEnd.state
            }
        let recoveries = [(frontEnd.reloads, "reload"), (frontEnd.restarts, "restart")].filter { $0.0 > 0 }.map { Formatting.count($0, $1) }
        let details = [frontEnd.reason, recoveries.isEmpty ? nil : recoveries.joined(separator: ", ")].compactMap(\.self)
        return "\(frontEnd.kind) \(frontEnd.name): \(state)" + (details.isEmpty ? "" : " (\(details.joined(separator: "; ")))")
    }

    /// How long a tree has been idle and what comes next: `42s, lock in 18s`.
    private static func describe(_ idle: IdleState) -> String {
        let since = Formatting.uptime(seconds: idle.idleSeconds)
        guard let next = idle.nextStep else { return "\(since), every step done" }
        guard let seconds = idle.nextStepInSeconds else {
            return "\(since), \(next) held back by \(Formatting.count(idle.inhibitors, "inhibitor"))"
        }
        return "\(since), \(next) in \(Formatting.uptime(seconds: seconds.rounded(.up)))"
    }

    /// The `--json` form: both replies under their method's name, on one line.
    /// - Parameters:
    ///   - stats: The daemon's `GetStats` reply.
    ///   - info: The daemon's `GetInfo` reply.
    /// - Returns: `{"info":{…},"stats":{…}}`.
    public static func json(stats: GetStats.Reply, info: GetInfo.Reply) -> String {
        JSONValue.object(["info": .object(info.parameters), "stats": .object(stats.parameters)]).jsonText
    }
}
