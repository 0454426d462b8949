import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

/// The real `appstated` following buses that stand in for the system and the session bus,
/// with the means to wait for what it shows.
final class FollowedDaemon {
    let directory: URL
    let systemBus: PrivateBus
    let sessionBus: PrivateBus
    let daemon: DaemonProcess

    /// Starts both buses (unless told not to) and the daemon with `arguments`.
    /// - Parameters:
    ///   - arguments: The daemon's options, e.g. `--follow-logind`.
    ///   - environment: More of the daemon's environment, e.g. `WAYLAND_DISPLAY`.
    ///   - directory: The directory for the buses, when the test made one.
    ///   - startBuses: Whether the buses run when the daemon starts.
    ///   - beforeDaemon: What to set up on the buses before the daemon starts.
    init(
        arguments: [String], environment: [String: String] = [:], directory: URL? = nil, startBuses: Bool = true,
        beforeDaemon: (FollowedDaemon.Buses) throws -> Void = { _ in }
    ) throws {
        self.directory = try directory ?? DaemonProcess.makeTemporaryDirectory()
        systemBus = try PrivateBus(path: self.directory.appendingPathComponent("system").path)
        sessionBus = try PrivateBus(path: self.directory.appendingPathComponent("session").path)
        try beforeDaemon(Buses(system: systemBus, session: sessionBus))
        if !startBuses {
            systemBus.stop()
            sessionBus.stop()
        }
        daemon = try DaemonProcess(
            arguments: arguments,
            environment: environment.merging([
                "DBUS_SYSTEM_BUS_ADDRESS": systemBus.address,
                "DBUS_SESSION_BUS_ADDRESS": sessionBus.address,
            ]) { $1 })
    }

    /// The two buses, for set-up before the daemon starts.
    struct Buses {
        let system: PrivateBus
        let session: PrivateBus
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func client() throws -> VarlinkClient { try VarlinkClient(path: daemon.socketPath) }

    /// The root of the default tree.
    func root() throws -> JSONValue? { try client().call(method: GetTree.name)["root"] }

    /// The followers `GetStats` lists.
    func followers() throws -> [JSONValue] {
        guard case .array(let followers)? = try client().call(method: GetStats.name)["followers"] else { return [] }
        return followers
    }

    /// The root of a tree.
    func root(of tree: String) throws -> JSONValue? { try client().call(method: GetTree.name, parameters: ["tree": .string(tree)])["root"] }

    /// Waits until `condition` holds of a tree's root (the default tree's without `tree`),
    /// polling `GetTree`: the followed system is another process.
    /// - Throws: ``TestFailure`` naming `what` and the last root when it does not hold within `timeout`.
    func waitForRoot(_ what: String, tree: String? = nil, timeout: TimeInterval = 15, _ condition: (JSONValue?) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var root: JSONValue?
        repeat {
            root = try tree.map { try self.root(of: $0) } ?? self.root()
            if condition(root) { return }
            usleep(20_000)
        } while Date() < deadline
        throw TestFailure("\(what) did not happen within \(timeout) s; the session node is \(Self.summary(root)); daemon log:\n\(daemon.stderrText)")
    }

    /// Waits until the follower named `name` is connected, or disconnected (past its first
    /// try, whose detail is `connecting`).
    func waitForFollower(_ name: String, connected: Bool, timeout: TimeInterval = 15) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        var last: JSONValue?
        repeat {
            last = try followers().first { $0["name"] == .string(name) }
            if let last, last["connected"] == .bool(connected), last["detail"] != "connecting" { return last }
            usleep(20_000)
        } while Date() < deadline
        throw TestFailure(
            "follower \(name) is not \(connected ? "connected" : "disconnected") after \(timeout) s: \(last.map(\.jsonText) ?? "absent")")
    }

    /// Waits until the default tree's login container shows `user` (nil: nobody), locked or not.
    func waitForSession(user: String?, locked: Bool = false, timeout: TimeInterval = 15) throws {
        try waitForRoot(user.map { "\($0) \(locked ? "locked" : "logged in")" } ?? "log out", timeout: timeout) { root in
            root?["user"] == user.map(JSONValue.string) && root?["locked"] == .bool(user != nil && locked)
        }
    }

    private static func summary(_ root: JSONValue?) -> String {
        guard let root else { return "absent" }
        return "user \(root["user"]?.jsonText ?? "none"), locked \(root["locked"]?.jsonText ?? "?"), current \(root["current"]?.jsonText ?? "?")"
    }
}
