import CWaylandClient
import Glibc
import WaylandProtocols

/// One connection to the Wayland compositor, used only by the thread that opened it, as
/// libwayland's event queue is. It binds every `wl_output` the registry announces (and
/// xdg-output's manager where the compositor offers it), keeps an ``OutputState`` of each from
/// their events, and hands the ``OutputLayout`` over through ``takeChange()`` once the
/// compositor's first state is all in and after each change. Made to control power, it also
/// binds wlr-output-power-management's manager, takes each output's power control, and
/// switches outputs off and on (``setPower(on:output:)``).
///
/// The first state is complete after two `wl_display.sync` rounds: the first ends after the
/// registry announced its globals (and so after the outputs are bound), the second after the
/// outputs sent their first events.
package final class WaylandConnection {
    /// The highest `wl_output` version read: 4 names the output.
    static let outputVersion: UInt32 = 4
    /// The highest xdg-output manager version read.
    static let xdgOutputManagerVersion: UInt32 = 3
    /// The protocol's name, for what the kiosk says when the compositor lacks it.
    static let powerProtocol = "wlr-output-power-management-unstable-v1"

    /// The values of wlr-output-power-management's `mode` enum.
    private enum PowerMode {
        static let off: UInt32 = 0
        static let on: UInt32 = 1
    }

    /// One output the compositor announced.
    private final class Output {
        let global: UInt32
        let proxy: OpaquePointer
        let version: UInt32
        var xdgOutput: OpaquePointer?
        var state = OutputState()
        /// Its `zwlr_output_power_v1`, while the compositor lets this client control its power.
        var power: OpaquePointer?
        /// Its power mode as the compositor last reported it.
        var powerMode: UInt32?
        /// Whether the compositor took the power control back (its `failed` event).
        var powerFailed = false
        /// Whether the compositor answered the last `set_mode` without switching the output.
        var powerKept = false

        init(global: UInt32, proxy: OpaquePointer, version: UInt32) {
            self.global = global
            self.proxy = proxy
            self.version = version
        }
    }

    /// The compositor's socket.
    package let socket: String
    private let display: OpaquePointer
    private var registry: OpaquePointer?
    private var manager: OpaquePointer?
    private var outputs: [Output] = []
    private var sync: OpaquePointer?
    private var syncRounds = 0
    private var changed = false
    private let controlsPower: Bool
    private var powerManager: OpaquePointer?
    /// The mode asked for the outputs ``wantedOutput`` selects; nil until asked.
    private var wantedMode: UInt32?
    private var wantedOutput: String?
    /// The round trip after `set_mode`: by its end, a compositor that switched the output has
    /// sent its `mode` event, since both answer the request at once.
    private var powerSync: OpaquePointer?

    /// Connects and asks for the registry and the first sync round; the answers arrive
    /// through the event loop.
    /// - Parameters:
    ///   - controlsPower: Whether to take the outputs' power control too.
    ///   - searching: Whether, without `WAYLAND_DISPLAY`, the first compositor's socket in
    ///     `XDG_RUNTIME_DIR` is taken (see ``WaylandSocket``).
    /// - Throws: ``OutputError`` when no compositor can be reached.
    package init(controlsPower: Bool = false, searching: Bool = true) throws(OutputError) {
        self.controlsPower = controlsPower
        socket = try WaylandSocket.path(searching: searching)
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
        if let manager { destroy(manager, request: ZxdgOutputManagerV1.Request.destroy.rawValue, alive: alive) }
        if let powerManager { destroy(powerManager, request: ZwlrOutputPowerManagerV1.Request.destroy.rawValue, alive: alive) }
        if let sync { wl_callback_destroy(sync) }
        if let powerSync { wl_callback_destroy(powerSync) }
        if let registry { wl_registry_destroy(registry) }
        wl_display_disconnect(display)
    }

    /// The connection's file descriptor, to wait on.
    var fileDescriptor: CInt { wl_display_get_fd(display) }

    /// Whether the compositor's first state is all in: its globals bound and their first events read.
    package var isReady: Bool { syncRounds >= 2 }

    /// The outputs as they are, when they changed since the last call and the first state is
    /// all in; else nil.
    package func takeChange() -> OutputLayout? {
        guard syncRounds >= 2, changed else { return nil }
        changed = false
        return OutputLayout(outputs.compactMap { output in output.state.logicalSize.map { .init(name: output.state.current.name, size: $0) } })
    }

    /// Asks the compositor to switch outputs on or off, now and (for the outputs it selects)
    /// whenever one appears; a connection made without power control ignores it.
    /// - Parameters:
    ///   - on: Whether the outputs are on.
    ///   - output: The output's name; nil for every output.
    package func setPower(on: Bool, output: String?) {
        wantedMode = on ? PowerMode.on : PowerMode.off
        wantedOutput = output
        for output in outputs where selected(output) { applyWantedMode(to: output) }
        if let powerSync { wl_callback_destroy(powerSync) }
        powerSync = wl_display_sync(display)
        wl_callback_add_listener(powerSync, Self.powerSyncListener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The power of the outputs as the compositor reports it.
    /// - Parameter output: The output's name; nil for every output.
    /// - Returns: Off when every selected output is off, on when one is on, and why not when
    ///   the compositor offers no power control over them.
    package func power(output: String?) -> OutputPower {
        guard isReady else { return .unknown }
        guard powerManager != nil else {
            return .unsupported("the compositor at \(socket) does not offer \(Self.powerProtocol)")
        }
        let chosen = outputs.filter { output == nil || $0.state.current.name == output }
        guard !chosen.isEmpty else {
            return .unsupported("the compositor at \(socket) has no output\(output.map { " \($0)" } ?? "")")
        }
        if let failed = chosen.first(where: \.powerFailed) {
            return .unsupported("the compositor refused the power control of \(failed.state.current.name ?? "an output")")
        }
        if let kept = chosen.first(where: \.powerKept) {
            let mode = kept.powerMode == PowerMode.off ? "off" : "on"
            return .unsupported("the compositor at \(socket) kept \(kept.state.current.name ?? "an output") \(mode)")
        }
        let modes = chosen.map(\.powerMode)
        if modes.contains(nil) { return .unknown }
        return modes.allSatisfy { $0 == PowerMode.off } ? .off : .on
    }

    /// Runs libwayland's event loop: calls `turn` after each batch of events, and waits in
    /// `poll` on the connection and on `wake`.
    /// - Parameters:
    ///   - wake: A descriptor another thread makes readable to be heard.
    ///   - turn: Acts on what the events changed; false ends the loop.
    ///   - woken: Called when `wake` is readable; false ends the loop.
    /// - Throws: ``OutputError`` when the connection broke or cannot be waited for.
    package func run(waking wake: CInt, turn: () -> Bool, woken: () -> Bool) throws(OutputError) {
        while true {
            try dispatchPending()
            guard turn() else { return }
            try prepareRead()
            let unsent: Bool
            do {
                unsent = try flush()
            } catch {
                cancelRead()
                throw error
            }
            var descriptors = [
                pollfd(fd: fileDescriptor, events: Int16(POLLIN) | (unsent ? Int16(POLLOUT) : 0), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&descriptors, 2, -1) >= 0 else {
                cancelRead()
                if errno == EINTR { continue }
                throw OutputError("cannot wait for the compositor (\(String(cString: strerror(errno))))")
            }
            if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                try readEvents()
            } else {
                cancelRead()
            }
            if descriptors[1].revents != 0, !woken() { return }
        }
    }

    /// Runs the callbacks of the events already read.
    /// - Throws: ``OutputError`` when the connection broke.
    private func dispatchPending() throws(OutputError) {
        if wl_display_dispatch_pending(display) < 0 { throw failure() }
    }

    /// Announces that this thread is about to read, as libwayland asks: events read before
    /// are dispatched first.
    /// - Throws: ``OutputError`` when the connection broke.
    private func prepareRead() throws(OutputError) {
        while wl_display_prepare_read(display) != 0 {
            try dispatchPending()
        }
    }

    /// Sends what is queued.
    /// - Returns: Whether some is left to send once the socket takes more.
    /// - Throws: ``OutputError`` when the connection broke.
    private func flush() throws(OutputError) -> Bool {
        if wl_display_flush(display) >= 0 { return false }
        if errno == EAGAIN { return true }
        throw failure()
    }

    /// Reads what arrived, after ``prepareRead()``.
    /// - Throws: ``OutputError`` when the connection broke.
    private func readEvents() throws(OutputError) {
        if wl_display_read_events(display) < 0 { throw failure() }
    }

    /// Gives up a read announced with ``prepareRead()``.
    private func cancelRead() {
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
            makePower(for: output)
        case "zwlr_output_power_manager_v1" where controlsPower && powerManager == nil:
            guard let proxy = wl_registry_bind(registry, name, ZwlrOutputPowerManagerV1.interface, 1) else { return }
            powerManager = OpaquePointer(proxy)
            for output in outputs { makePower(for: output) }
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

    private func makePower(for output: Output) {
        guard let powerManager, output.power == nil, !output.powerFailed else { return }
        var arguments = [wl_argument(n: 0), wl_argument(o: output.proxy)]
        guard
            let proxy = wl_proxy_marshal_array_flags(
                powerManager, ZwlrOutputPowerManagerV1.Request.getOutputPower.rawValue, ZwlrOutputPowerV1.interface,
                wl_proxy_get_version(powerManager), 0, &arguments)
        else { return }
        wl_proxy_add_dispatcher(proxy, Self.powerDispatcher, Unmanaged.passUnretained(self).toOpaque(), nil)
        output.power = proxy
        if selected(output) { applyWantedMode(to: output) }
    }

    /// Whether ``setPower(on:output:)`` chose the output; its name arrives after it is bound,
    /// so a named output is matched again when asked.
    private func selected(_ output: Output) -> Bool {
        wantedOutput == nil || output.state.current.name == wantedOutput || output.state.pending.name == wantedOutput
    }

    private func applyWantedMode(to output: Output) {
        output.powerKept = false
        guard let power = output.power, let wantedMode, output.powerMode != wantedMode else { return }
        var arguments = [wl_argument(u: wantedMode)]
        wl_proxy_marshal_array_flags(power, ZwlrOutputPowerV1.Request.setMode.rawValue, nil, wl_proxy_get_version(power), 0, &arguments)
    }

    private func powerEvent(_ proxy: OpaquePointer, opcode: UInt32, arguments: UnsafeMutablePointer<wl_argument>?) {
        guard let output = outputs.first(where: { $0.power == proxy }), let event = ZwlrOutputPowerV1.Event(rawValue: opcode) else { return }
        switch event {
        case .mode:
            guard let arguments else { return }
            output.powerMode = arguments[0].u
            output.powerKept = false
        case .failed:
            // The protocol asks the client to destroy the control, which has become inert.
            destroy(proxy, request: ZwlrOutputPowerV1.Request.destroy.rawValue, alive: true)
            output.power = nil
            output.powerFailed = true
        }
    }

    private func powerSyncDone() {
        if let powerSync { wl_callback_destroy(powerSync) }
        powerSync = nil
        for output in outputs where selected(output) && output.power != nil {
            output.powerKept = output.powerMode != wantedMode
        }
    }

    /// Destroys an object of a protocol beyond the core through its destructor request, or
    /// only frees it when the connection broke.
    private func destroy(_ proxy: OpaquePointer, request: UInt32, alive: Bool) {
        if alive {
            wl_proxy_marshal_array_flags(proxy, request, nil, wl_proxy_get_version(proxy), UInt32(WL_MARSHAL_FLAG_DESTROY), nil)
        } else {
            wl_proxy_destroy(proxy)
        }
    }

    private func destroy(_ output: Output, alive: Bool) {
        if let power = output.power { destroy(power, request: ZwlrOutputPowerV1.Request.destroy.rawValue, alive: alive) }
        if let xdgOutput = output.xdgOutput { destroy(xdgOutput, request: ZxdgOutputV1.Request.destroy.rawValue, alive: alive) }
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

    private nonisolated(unsafe) static let powerSyncListener: UnsafePointer<wl_callback_listener> = {
        let listener = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
        listener.initialize(
            to: wl_callback_listener(done: { data, _, _ in
                guard let data else { return }
                connection(data).powerSyncDone()
            }))
        return UnsafePointer(listener)
    }()

    private static let powerDispatcher: wl_dispatcher_func_t = { implementation, target, opcode, _, arguments in
        guard let implementation, let target else { return 0 }
        connection(implementation).powerEvent(OpaquePointer(target), opcode: opcode, arguments: arguments)
        return 0
    }

    private static let xdgOutputDispatcher: wl_dispatcher_func_t = { implementation, target, opcode, _, arguments in
        guard let implementation, let target else { return 0 }
        connection(implementation).xdgOutputEvent(OpaquePointer(target), opcode: opcode, arguments: arguments)
        return 0
    }
}
