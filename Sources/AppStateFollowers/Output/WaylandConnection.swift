import CWaylandClient
import Glibc
import WaylandProtocols

/// One connection to the Wayland compositor, used only by the thread that opened it, as
/// libwayland's event queue is. It binds every `wl_output` the registry announces (and
/// xdg-output's manager where the compositor offers it), keeps an ``OutputState`` of each from
/// their events, and hands the ``OutputLayout`` over through ``takeChange()`` once the
/// compositor's first state is all in and after each change.
///
/// The first state is complete after two `wl_display.sync` rounds: the first ends after the
/// registry announced its globals (and so after the outputs are bound), the second after the
/// outputs sent their first events.
final class WaylandConnection {
    /// The highest `wl_output` version read: 4 names the output.
    static let outputVersion: UInt32 = 4
    /// The highest xdg-output manager version read.
    static let xdgOutputManagerVersion: UInt32 = 3

    /// One output the compositor announced.
    private final class Output {
        let global: UInt32
        let proxy: OpaquePointer
        let version: UInt32
        var xdgOutput: OpaquePointer?
        var state = OutputState()

        init(global: UInt32, proxy: OpaquePointer, version: UInt32) {
            self.global = global
            self.proxy = proxy
            self.version = version
        }
    }

    /// The compositor's socket.
    let socket: String
    private let display: OpaquePointer
    private var registry: OpaquePointer?
    private var manager: OpaquePointer?
    private var outputs: [Output] = []
    private var sync: OpaquePointer?
    private var syncRounds = 0
    private var changed = false

    /// Connects and asks for the registry and the first sync round; the answers arrive
    /// through the event loop.
    /// - Throws: ``OutputError`` when no compositor can be reached.
    init() throws(OutputError) {
        socket = try WaylandSocket.path()
        guard let display = wl_display_connect(socket) else {
            throw OutputError("no Wayland compositor at \(socket) (\(String(cString: strerror(errno))))")
        }
        self.display = display
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, Self.registryListener, Unmanaged.passUnretained(self).toOpaque())
        requestSync()
    }

    deinit {
        // On a broken connection nothing can be sent: the proxies are only freed.
        let alive = wl_display_get_error(display) == 0
        for output in outputs { destroy(output, alive: alive) }
        if let manager {
            if alive {
                wl_proxy_marshal_array_flags(
                    manager, ZxdgOutputManagerV1.Request.destroy.rawValue, nil, wl_proxy_get_version(manager),
                    UInt32(WL_MARSHAL_FLAG_DESTROY), nil)
            } else {
                wl_proxy_destroy(manager)
            }
        }
        if let sync { wl_callback_destroy(sync) }
        if let registry { wl_registry_destroy(registry) }
        wl_display_disconnect(display)
    }

    /// The connection's file descriptor, to wait on.
    var fileDescriptor: CInt { wl_display_get_fd(display) }

    /// The outputs as they are, when they changed since the last call and the first state is
    /// all in; else nil.
    func takeChange() -> OutputLayout? {
        guard syncRounds >= 2, changed else { return nil }
        changed = false
        return OutputLayout(outputs.compactMap { output in output.state.logicalSize.map { .init(name: output.state.current.name, size: $0) } })
    }

    /// Runs the callbacks of the events already read.
    /// - Throws: ``OutputError`` when the connection broke.
    func dispatchPending() throws(OutputError) {
        if wl_display_dispatch_pending(display) < 0 { throw failure() }
    }

    /// Announces that this thread is about to read, as libwayland asks: events read before
    /// are dispatched first.
    /// - Throws: ``OutputError`` when the connection broke.
    func prepareRead() throws(OutputError) {
        while wl_display_prepare_read(display) != 0 {
            try dispatchPending()
        }
    }

    /// Sends what is queued.
    /// - Returns: Whether some is left to send once the socket takes more.
    /// - Throws: ``OutputError`` when the connection broke.
    func flush() throws(OutputError) -> Bool {
        if wl_display_flush(display) >= 0 { return false }
        if errno == EAGAIN { return true }
        throw failure()
    }

    /// Reads what arrived, after ``prepareRead()``.
    /// - Throws: ``OutputError`` when the connection broke.
    func readEvents() throws(OutputError) {
        if wl_display_read_events(display) < 0 { throw failure() }
    }

    /// Gives up a read announced with ``prepareRead()``.
    func cancelRead() {
        wl_display_cancel_read(display)
    }

    /// Why the connection failed, in words.
    private func failure() -> OutputError {
        let code = wl_display_get_error(display)
        switch code {
        case EPROTO:
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let error = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "an object"
            return OutputError("the compositor at \(socket) ended the connection with protocol error \(error) of \(name)")
        case 0, EPIPE, ECONNRESET:
            return OutputError("the compositor at \(socket) closed the connection")
        default:
            return OutputError("the connection to the compositor at \(socket) broke (\(String(cString: strerror(code))))")
        }
    }

    private func requestSync() {
        sync = wl_display_sync(display)
        wl_callback_add_listener(sync, Self.syncListener, Unmanaged.passUnretained(self).toOpaque())
    }

    private func syncDone() {
        if let sync { wl_callback_destroy(sync) }
        sync = nil
        syncRounds += 1
        if syncRounds == 1 {
            requestSync()
        } else {
            changed = true
        }
    }

    private func global(name: UInt32, interface: String, version: UInt32) {
        switch interface {
        case "wl_output":
            let bound = min(version, Self.outputVersion)
            guard let proxy = wl_registry_bind(registry, name, appstate_wl_output_interface(), bound) else { return }
            let output = Output(global: name, proxy: OpaquePointer(proxy), version: bound)
            wl_output_add_listener(output.proxy, Self.outputListener, Unmanaged.passUnretained(self).toOpaque())
            outputs.append(output)
            makeXDGOutput(for: output)
        case "zxdg_output_manager_v1" where manager == nil:
            let bound = min(version, Self.xdgOutputManagerVersion)
            guard let proxy = wl_registry_bind(registry, name, ZxdgOutputManagerV1.interface, bound) else { return }
            manager = OpaquePointer(proxy)
            for output in outputs { makeXDGOutput(for: output) }
        default:
            break
        }
    }

    private func globalRemove(name: UInt32) {
        guard let index = outputs.firstIndex(where: { $0.global == name }) else { return }
        destroy(outputs.remove(at: index), alive: true)
        changed = true
    }

    private func makeXDGOutput(for output: Output) {
        guard let manager, output.xdgOutput == nil else { return }
        var arguments = [wl_argument(n: 0), wl_argument(o: output.proxy)]
        guard
            let proxy = wl_proxy_marshal_array_flags(
                manager, ZxdgOutputManagerV1.Request.getXdgOutput.rawValue, ZxdgOutputV1.interface, wl_proxy_get_version(manager), 0,
                &arguments)
        else { return }
        wl_proxy_add_dispatcher(proxy, Self.xdgOutputDispatcher, Unmanaged.passUnretained(self).toOpaque(), nil)
        output.xdgOutput = proxy
    }

    private func destroy(_ output: Output, alive: Bool) {
        if let xdgOutput = output.xdgOutput {
            if alive {
                wl_proxy_marshal_array_flags(
                    xdgOutput, ZxdgOutputV1.Request.destroy.rawValue, nil, wl_proxy_get_version(xdgOutput), UInt32(WL_MARSHAL_FLAG_DESTROY),
                    nil)
            } else {
                wl_proxy_destroy(xdgOutput)
            }
        }
        // `release` (version 3) tells the compositor; before it the proxy can only be freed.
        if alive, output.version >= 3 {
            wl_output_release(output.proxy)
        } else {
            wl_output_destroy(output.proxy)
        }
    }

    /// Applies an event to the output of a `wl_output` proxy; a `wl_output` of version 1 has no
    /// `done`, so its events take effect at once.
    private func update(_ proxy: OpaquePointer?, _ change: (inout OutputState) -> Void) {
        guard let output = outputs.first(where: { $0.proxy == proxy }) else { return }
        change(&output.state)
        if output.version < 2 { done(output) }
    }

    private func done(_ output: Output) {
        output.state.done()
        changed = true
    }

    private func xdgOutputEvent(_ proxy: OpaquePointer, opcode: UInt32, arguments: UnsafeMutablePointer<wl_argument>?) {
        guard let output = outputs.first(where: { $0.xdgOutput == proxy }), let event = ZxdgOutputV1.Event(rawValue: opcode) else { return }
        switch event {
        case .logicalSize:
            guard let arguments else { return }
            output.state.applyLogicalSize(width: arguments[0].i, height: arguments[1].i)
        case .name:
            guard let text = arguments?[0].s else { return }
            // wl_output's own name (version 4) comes first where both are sent.
            if output.version < 4 { output.state.applyName(String(cString: text)) }
        case .done:
            done(output)
        case .logicalPosition, .description:
            break
        }
    }

    private static func connection(_ data: UnsafeRawPointer) -> WaylandConnection {
        Unmanaged<WaylandConnection>.fromOpaque(data).takeUnretainedValue()
    }

    // The listeners are libwayland's function tables: static, since proxies keep pointers to
    // them, and never changed after they are made.
    private nonisolated(unsafe) static let registryListener: UnsafePointer<wl_registry_listener> = {
        let listener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
        listener.initialize(
            to: wl_registry_listener(
                global: { data, _, name, interface, version in
                    guard let data, let interface else { return }
                    connection(data).global(name: name, interface: String(cString: interface), version: version)
                },
                global_remove: { data, _, name in
                    guard let data else { return }
                    connection(data).globalRemove(name: name)
                }))
        return UnsafePointer(listener)
    }()

    private nonisolated(unsafe) static let outputListener: UnsafePointer<wl_output_listener> = {
        let listener = UnsafeMutablePointer<wl_output_listener>.allocate(capacity: 1)
        listener.initialize(
            to: wl_output_listener(
                geometry: { data, proxy, _, _, _, _, _, _, _, transform in
                    guard let data else { return }
                    connection(data).update(proxy) { $0.applyGeometry(transform: transform) }
                },
                mode: { data, proxy, flags, width, height, _ in
                    guard let data else { return }
                    connection(data).update(proxy) { $0.applyMode(flags: flags, width: width, height: height) }
                },
                done: { data, proxy in
                    guard let data else { return }
                    let connection = connection(data)
                    if let output = connection.outputs.first(where: { $0.proxy == proxy }) { connection.done(output) }
                },
                scale: { data, proxy, factor in
                    guard let data else { return }
                    connection(data).update(proxy) { $0.applyScale(factor) }
                },
                name: { data, proxy, name in
                    guard let data, let name else { return }
                    connection(data).update(proxy) { $0.applyName(String(cString: name)) }
                },
                description: { _, _, _ in }))
        return UnsafePointer(listener)
    }()

    private nonisolated(unsafe) static let syncListener: UnsafePointer<wl_callback_listener> = {
        let listener = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
        listener.initialize(
            to: wl_callback_listener(done: { data, _, _ in
                guard let data else { return }
                connection(data).syncDone()
            }))
        return UnsafePointer(listener)
    }()

    private static let xdgOutputDispatcher: wl_dispatcher_func_t = { implementation, target, opcode, _, arguments in
        guard let implementation, let target else { return 0 }
        connection(implementation).xdgOutputEvent(OpaquePointer(target), opcode: opcode, arguments: arguments)
        return 0
    }
}
