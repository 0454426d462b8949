import CSystemd
import Glibc

/// One sd-bus connection to the system or the session bus, used only by the thread that
/// opened it (sd-bus connections are not thread-safe). Signals that match the rules added
/// with ``addMatch(_:)`` are read into ``BusSignal``s as ``process()`` dispatches them, and
/// handed back by it; method calls block this thread alone, bounded by ``callTimeout``.
final class BusConnection {
    /// Which bus to connect to. sd-bus takes the address from `DBUS_SYSTEM_BUS_ADDRESS` or
    /// `DBUS_SESSION_BUS_ADDRESS` when they are set, as the tests and `systemd --user` set them.
    enum Kind: String, Sendable {
        /// The system bus, where logind is.
        case system
        /// The user's session bus, where the on-screen keyboard is.
        case session
    }

    /// How long a method call may wait for its reply before it fails: a stalled service
    /// must not stall the follower for sd-bus's default of 25 s.
    static let callTimeout: Duration = .seconds(2)

    /// The most signals one ``process()`` dispatches: a flood is handed over in batches of
    /// bounded memory, and the thread looks at ``BusFollower/stop()`` between them.
    static let maximumSignalsPerBatch = 1024

    let kind: Kind
    private let bus: OpaquePointer
    private var slots: [OpaquePointer] = []
    private var pending: [BusSignal] = []
    /// Signals that could not be read, in the last ``process()``.
    private(set) var unreadableSignals = 0
    /// Whether the last ``process()`` stopped at its batch limit with more to dispatch.
    private(set) var hasMore = false

    /// Connects to a bus.
    /// - Parameter kind: The system or the session bus.
    /// - Throws: ``BusError/Code/connectionFailed`` when the bus cannot be reached.
    init(_ kind: Kind) throws(BusError) {
        self.kind = kind
        var bus: OpaquePointer?
        let result =
            switch kind {
            case .system: sd_bus_open_system(&bus)
            case .session: sd_bus_open_user(&bus)
            }
        guard result >= 0, let bus else {
            throw BusError(.connectionFailed, "cannot connect to the \(kind.rawValue) bus", result: result)
        }
        self.bus = bus
        sd_bus_set_method_call_timeout(bus, UInt64(Self.callTimeout.components.seconds) * 1_000_000)
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
        sd_bus_flush_close_unref(bus)
    }

    /// Asks the bus for the signals a match rule describes; they arrive through ``process()``.
    /// - Parameter rule: A D-Bus match rule, e.g. `type='signal',interface='…'`.
    /// - Throws: ``BusError/Code/disconnected`` when the rule cannot be installed on the connection.
    func addMatch(_ rule: String) throws(BusError) {
        var slot: OpaquePointer?
        let result = sd_bus_add_match(bus, &slot, rule, busConnectionReceive, Unmanaged.passUnretained(self).toOpaque())
        guard result >= 0, let slot else { throw BusError(.disconnected, "cannot watch \(rule)", result: result) }
        slots.append(slot)
    }

    /// Calls a method and reads its reply.
    /// - Parameters:
    ///   - destination: The bus name of the service.
    ///   - path: The object path.
    ///   - interface: The interface.
    ///   - member: The method.
    ///   - arguments: String arguments, in order (all the followers need).
    /// - Returns: The reply's values.
    /// - Throws: ``BusError/Code/callFailed`` when the service answers with an error,
    ///   ``BusError/Code/disconnected`` when no answer comes (the connection broke, or
    ///   ``callTimeout`` passed).
    func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String,
        _ arguments: [String] = []
    ) throws(BusError) -> [BusValue] {
        try call(destination, path, interface, member, arguments: arguments.map(BusArgument.string))
    }

    /// Calls a method with arguments of any type a follower sends, and reads its reply.
    /// - Parameters:
    ///   - destination: The bus name of the service.
    ///   - path: The object path.
    ///   - interface: The interface.
    ///   - member: The method.
    ///   - arguments: The arguments, in order.
    /// - Returns: The reply's values.
    /// - Throws: As ``call(_:_:_:_:_:)``.
    func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String, arguments: [BusArgument]
    ) throws(BusError) -> [BusValue] {
        try send(destination, path, interface, member, arguments) { reply throws(BusError) in
            var reader = BusMessageReader(message: reply)
            return try reader.readAll()
        }
    }

    /// Makes a call.
    /// - Parameter call: The call.
    /// - Returns: The reply's values.
    /// - Throws: As ``call(_:_:_:_:_:)``.
    func call(_ call: BusMethodCall) throws(BusError) -> [BusValue] {
        try self.call(call.destination, call.path, call.interface, call.member, arguments: call.arguments)
    }

    /// Calls a method and hands its reply to `read`, before the reply is freed.
    private func send<Value>(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [BusArgument],
        read: (OpaquePointer) throws(BusError) -> Value
    ) throws(BusError) -> Value {
        var call: OpaquePointer?
        var result = sd_bus_message_new_method_call(bus, &call, destination, path, interface, member)
        guard result >= 0, let call else { throw BusError(.disconnected, "cannot make a call of \(member)", result: result) }
        defer { sd_bus_message_unref(call) }
        for argument in arguments {
            result = Self.append(argument, to: call)
            guard result >= 0 else { throw BusError(.disconnected, "cannot add an argument to \(member)", result: result) }
        }
        var error = appstate_bus_error_null()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        result = sd_bus_call(bus, call, 0, &error, &reply)
        guard result >= 0, let reply else {
            // The service's answer is an error with a name; without one the call never got an
            // answer (the connection broke, or the timeout passed), which says nothing about
            // the service's state.
            guard let name = error.name.map({ String(cString: $0) }) else {
                throw BusError(.disconnected, "\(interface).\(member) on \(path) got no answer", result: result)
            }
            let text = error.message.map { ": " + String(cString: $0) } ?? ""
            throw BusError(.callFailed, "\(interface).\(member) on \(path) failed: \(name)\(text)")
        }
        defer { sd_bus_message_unref(reply) }
        return try read(reply)
    }

    /// Calls a method that returns a file descriptor (`h`), such as logind's `Inhibit`.
    /// - Parameters:
    ///   - destination: The bus name of the service.
    ///   - path: The object path.
    ///   - interface: The interface.
    ///   - member: The method.
    ///   - arguments: String arguments, in order.
    /// - Returns: A descriptor of the caller's own (close-on-exec), which it must close.
    /// - Throws: As ``call(_:_:_:_:_:)``; ``BusError/Code/unexpectedReply`` when the reply
    ///   holds no descriptor.
    func callReturningDescriptor(
        _ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [String]
    ) throws(BusError) -> Int32 {
        try send(destination, path, interface, member, arguments.map(BusArgument.string)) { reply throws(BusError) in
            var basic = appstate_bus_basic()
            let result = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "h")), &basic)
            guard result > 0 else { throw BusError(.unexpectedReply, "\(interface).\(member) did not return a file descriptor", result: result) }
            // The reply owns its descriptor and closes it when it is freed.
            let descriptor = fcntl(basic.fd, F_DUPFD_CLOEXEC, 3)
            guard descriptor >= 0 else { throw BusError(.unexpectedReply, "cannot keep the descriptor \(member) returned", result: -errno) }
            return descriptor
        }
    }

    /// Appends one argument to a message.
    /// - Returns: sd-bus's result: negative on failure.
    private static func append(_ argument: BusArgument, to message: OpaquePointer) -> CInt {
        switch argument {
        case .string(let text):
            return text.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
        case .boolean(let value):
            // sd-bus reads a `b` from an int.
            var flag: CInt = value ? 1 : 0
            return sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &flag)
        case .variant(let inner):
            var result = sd_bus_message_open_container(message, CChar(UInt8(ascii: "v")), inner.signature)
            guard result >= 0 else { return result }
            result = append(inner, to: message)
            guard result >= 0 else { return result }
            return sd_bus_message_close_container(message)
        }
    }

    /// Reads one property with `org.freedesktop.DBus.Properties.Get`.
    /// - Returns: The property's value, its variant unwrapped.
    /// - Throws: ``BusError`` when the call fails.
    func property(_ destination: String, _ path: String, _ interface: String, _ name: String) throws(BusError) -> BusValue {
        let reply = try call(destination, path, BusSignal.propertiesInterface, "Get", [interface, name])
        guard reply.count == 1 else { throw BusError(.unexpectedReply, "Get \(interface).\(name) returned \(reply.count) values") }
        return reply[0].unwrapped
    }

    /// Reads every property of an interface with `org.freedesktop.DBus.Properties.GetAll`.
    /// - Returns: The properties by name, their variants unwrapped.
    /// - Throws: ``BusError`` when the call fails or the reply is not `a{sv}`.
    func allProperties(_ destination: String, _ path: String, _ interface: String) throws(BusError) -> [String: BusValue] {
        let reply = try call(destination, path, BusSignal.propertiesInterface, "GetAll", [interface])
        guard reply.count == 1, let properties = reply[0].properties else {
            throw BusError(.unexpectedReply, "GetAll \(interface) on \(path) did not return a{sv}")
        }
        return properties
    }

    /// Whether the connection is still open: after a failed call, whether the service or the
    /// connection failed.
    var isOpen: Bool { sd_bus_is_open(bus) > 0 }

    /// Dispatches what arrived, without waiting, and returns the signals that matched: at
    /// most ``maximumSignalsPerBatch`` messages per call.
    /// - Throws: ``BusError/Code/disconnected`` when the connection is gone.
    func process() throws(BusError) -> [BusSignal] {
        unreadableSignals = 0
        hasMore = true
        for _ in 0..<Self.maximumSignalsPerBatch {
            let result = sd_bus_process(bus, nil)
            if result < 0 { throw BusError(.disconnected, "the \(kind.rawValue) bus connection broke", result: result) }
            if result == 0 {
                hasMore = false
                break
            }
        }
        guard sd_bus_is_open(bus) > 0 else { throw BusError(.disconnected, "the \(kind.rawValue) bus closed the connection") }
        defer { pending = [] }
        return pending
    }

    /// Waits until something arrives or `timeout` passes.
    /// - Throws: ``BusError/Code/disconnected`` when the connection is gone.
    func wait(_ timeout: Duration) throws(BusError) {
        let (seconds, attoseconds) = timeout.components
        let result = sd_bus_wait(bus, UInt64(seconds) * 1_000_000 + UInt64(attoseconds / 1_000_000_000_000))
        if result < 0, result != -EINTR {
            throw BusError(.disconnected, "the \(kind.rawValue) bus connection broke", result: result)
        }
    }

    /// Called by sd-bus for each signal a match rule selected.
    fileprivate func receive(_ message: OpaquePointer) {
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        var reader = BusMessageReader(message: message)
        do {
            let arguments = try reader.readAll()
            pending.append(
                BusSignal(
                    sender: text(sd_bus_message_get_sender(message)),
                    path: text(sd_bus_message_get_path(message)),
                    interface: text(sd_bus_message_get_interface(message)),
                    member: text(sd_bus_message_get_member(message)),
                    arguments: arguments
                ))
        } catch {
            // Counted, not kept: the follower logs how many it ignored.
            unreadableSignals += 1
        }
    }
}

/// sd-bus's match callback: a C function, so it finds its connection through `userdata`.
private func busConnectionReceive(
    _ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
    _ error: UnsafeMutablePointer<sd_bus_error>?
) -> CInt {
    guard let message, let userdata else { return 0 }
    Unmanaged<BusConnection>.fromOpaque(userdata).takeUnretainedValue().receive(message)
    return 0
}
