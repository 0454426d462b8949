import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A python-dbusmock service on a ``PrivateBus``: logind from dbusmock's `logind` template
/// on a bus standing in for the system bus, or an on-screen keyboard's object (squeekboard's
/// `sm.puri.OSK0`, KWin's `/VirtualKeyboard`, Onboard's `/org/onboard/Onboard/Keyboard`) on
/// one standing in for the session bus. It is driven with `gdbus`, through dbusmock's
/// `org.freedesktop.DBus.Mock` interface and the mocked objects' own methods.
///
/// dbusmock is Debian's `python3-dbusmock`, for the system's Python (`/usr/bin/python3`),
/// not the venv's.
final class BusMock {
    /// Which service is mocked.
    enum Service {
        /// systemd-logind, on the system bus.
        case logind
        /// squeekboard's on-screen keyboard, on the session bus.
        case keyboard
        /// KWin's virtual keyboard, on the session bus.
        case kwin
        /// Onboard, on the session bus.
        case onboard
    }

    static let python = "/usr/bin/python3"

    let bus: PrivateBus
    let service: Service
    /// A keyboard's properties at start, in GVariant text; nil for the keyboard's own
    /// (its visibility property, false).
    private let properties: [String: String]?
    private var process: Process?

    /// Starts the mock and waits until its name is on the bus.
    /// - Parameters:
    ///   - service: What to mock.
    ///   - bus: The bus.
    ///   - properties: For a keyboard, its object's properties in GVariant text instead of its
    ///     visibility property set to false.
    init(_ service: Service, on bus: PrivateBus, properties: [String: String]? = nil) throws {
        self.bus = bus
        self.service = service
        self.properties = properties
        try start()
    }

    var busName: String {
        switch service {
        case .logind: "org.freedesktop.login1"
        case .keyboard: "sm.puri.OSK0"
        case .kwin: "org.kde.KWin"
        case .onboard: "org.onboard.Onboard"
        }
    }

    /// A keyboard's object, interface and visibility property.
    var keyboardObject: (path: String, interface: String, property: String) {
        switch service {
        case .logind, .keyboard: ("/sm/puri/OSK0", "sm.puri.OSK0", "Visible")
        case .kwin: ("/VirtualKeyboard", "org.kde.kwin.VirtualKeyboard", "visible")
        case .onboard: ("/org/onboard/Onboard/Keyboard", "org.onboard.Onboard.Keyboard", "Visible")
        }
    }
    private var busOption: String { service == .logind ? "--system" : "--session" }

    /// Shows or hides a mocked keyboard: sets its property, which dbusmock follows with
    /// `PropertiesChanged`.
    func setVisible(_ visible: Bool) throws {
        let object = keyboardObject
        try set(object.path, object.interface, object.property, visible ? "<true>" : "<false>")
    }
    private var environment: [String: String] {
        service == .logind ? ["DBUS_SYSTEM_BUS_ADDRESS": bus.address] : ["DBUS_SESSION_BUS_ADDRESS": bus.address]
    }

    /// Starts the mock (again, after ``stop()``: a fresh service with nothing in it).
    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        let object = keyboardObject
        process.arguments =
            service == .logind
            ? ["-m", "dbusmock", "--system", "--template", "logind"]
            : ["-m", "dbusmock", "--session", busName, object.path, object.interface]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runAsTestChild()
        self.process = process
        let deadline = Date().addingTimeInterval(15)
        while try !hasOwner() {
            guard Date() < deadline, process.isRunning else {
                throw TestFailure("python3 -m dbusmock did not take \(busName) (is python3-dbusmock installed? `scripts/install-deps --test`)")
            }
            usleep(20_000)
        }
        if service != .logind {
            for (name, value) in (properties ?? [object.property: "<false>"]).sorted(by: { $0.key < $1.key }) {
                try gdbus(object.path, "org.freedesktop.DBus.Mock.AddProperty", "", name, value)
            }
        }
    }

    /// Stops the mock: its name leaves the bus.
    func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
        self.process = nil
    }

    private func hasOwner() throws -> Bool {
        let reply = try Command.run(
            try resolveExecutable("gdbus"),
            [
                "call", busOption, "-d", "org.freedesktop.DBus", "-o", "/org/freedesktop/DBus", "-m", "org.freedesktop.DBus.NameHasOwner", busName,
            ], environment: environment)
        return reply.stdout.contains("true")
    }

    /// Calls a method of the mocked service with `gdbus call`, arguments in GVariant text.
    /// - Returns: What gdbus printed.
    /// - Throws: ``TestFailure`` when the call fails.
    @discardableResult
    func gdbus(_ path: String, _ method: String, _ arguments: String...) throws -> String {
        let result = try Command.run(
            try resolveExecutable("gdbus"),
            ["call", busOption, "-d", busName, "-o", path, "-m", method] + arguments,
            environment: environment)
        guard result.status == 0 else { throw TestFailure("gdbus \(method) \(arguments) failed: \(result.stderr)") }
        return result.stdout
    }

    /// Emits a signal from the mocked service's own connection (`org.freedesktop.DBus.Mock.EmitSignal`).
    func emit(from path: String, _ interface: String, _ name: String, signature: String, _ arguments: String) throws {
        try gdbus(path, "org.freedesktop.DBus.Mock.EmitSignal", interface, name, signature, arguments)
    }

    /// Emits a signal from another connection than the service's (`gdbus emit`), as any
    /// peer on the bus may.
    func emitAsStranger(from path: String, _ signal: String, _ arguments: String...) throws {
        let result = try Command.run(
            try resolveExecutable("gdbus"), ["emit", busOption, "-o", path, "-s", signal] + arguments,
            environment: environment)
        guard result.status == 0 else { throw TestFailure("gdbus emit \(signal) failed: \(result.stderr)") }
    }

    deinit { stop() }
}

extension BusMock {
    /// logind's object paths, as the template makes them.
    static let manager = "/org/freedesktop/login1"
    static let seat0 = "/org/freedesktop/login1/seat/seat0"
    static func session(_ id: String) -> String { "/org/freedesktop/login1/session/\(id)" }

    /// Adds a session of `user` on seat0 and makes it the seat's active session, as the
    /// template's `AddSession` does.
    func addSession(_ id: String, user: String, uid: Int) throws {
        try gdbus(Self.manager, "org.freedesktop.DBus.Mock.AddSession", id, "seat0", "\(uid)", user, "true")
    }

    /// Sets a property of a mocked object with `org.freedesktop.DBus.Properties.Set`, which
    /// dbusmock follows with `PropertiesChanged`.
    func set(_ path: String, _ interface: String, _ property: String, _ value: String) throws {
        try gdbus(path, "org.freedesktop.DBus.Properties.Set", interface, property, value)
    }

    /// Makes a session the seat's active one; nil for none (`("", "/")`), a logout.
    func activate(_ id: String?) throws {
        let value = id.map { "<('\($0)', objectpath '\(Self.session($0))')>" } ?? "<('', objectpath '/')>"
        try set(Self.seat0, "org.freedesktop.login1.Seat", "ActiveSession", value)
    }
}
