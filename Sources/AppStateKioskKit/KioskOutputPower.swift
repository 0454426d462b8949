import AppStateIPC
import Synchronization
import WaylandOutputs

/// Switches the outputs off while the screen is blanked and on when it wakes, through the
/// compositor's wlr-output-power-management, as a Wayland client on a thread of its own.
///
/// The black cover over the page does not depend on it: where `WAYLAND_DISPLAY` is unset, the
/// compositor lacks the protocol, refuses the control (its `failed` event) or goes away, the
/// power stays as it is, ``power`` says why, the log says it once, and the next blank or wake
/// tries again.
final class KioskOutputPower: Sendable {
    private struct State {
        var blanked: Bool?
        var power = OutputPower.unknown
        var stopping = false
    }

    private let output: String?
    private let log: KioskLog
    private let state = Mutex(State())
    private let wake = WakePipe()
    private let said = Mutex<String?>(nil)

    /// A controller; nothing runs before ``start()``.
    /// - Parameters:
    ///   - output: The output to switch; nil for every output.
    ///   - log: Where it says why the power cannot be switched.
    init(output: String?, log: KioskLog) {
        self.output = output
        self.log = log
    }

    /// The outputs' power as the compositor last reported it.
    var power: OutputPower { state.withLock { $0.power } }

    /// Connects to the compositor on the controller's thread.
    func start() {
        guard wake.isOpen else {
            publish(.unsupported("cannot make the pipe that wakes the output power's thread"))
            return
        }
        let result = DetachedThread.start { self.run() }
        if result != 0 { publish(.unsupported("cannot start the output power's thread")) }
    }

    /// Asks for the outputs off while the screen is blanked, on while it is not.
    /// - Parameter blanked: Whether the screen is blanked.
    func show(blanked: Bool) {
        let changed = state.withLock { state in
            defer { state.blanked = blanked }
            return state.blanked != blanked
        }
        if changed { wake.signal() }
    }

    /// Ends the thread; the outputs keep their power.
    func stop() {
        state.withLock { $0.stopping = true }
        wake.signal()
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    private func run() {
        while !isStopping {
            do throws(OutputError) {
                let connection = try WaylandConnection(controlsPower: true, searching: false)
                var applied: Bool?
                try connection.run(waking: wake.readEnd) {
                    let (blanked, stopping) = state.withLock { ($0.blanked, $0.stopping) }
                    if connection.isReady, let blanked, blanked != applied {
                        connection.setPower(on: !blanked, output: output)
                        applied = blanked
                    }
                    publish(connection.power(output: output))
                    return !stopping
                } woken: {
                    wake.drain()
                    return !isStopping
                }
            } catch {
                publish(.unsupported(error.description))
                // Tried again at the next blank or wake, not in a loop that finds the same.
                wake.waitForSignal()
                wake.drain()
            }
        }
    }

    private func publish(_ power: OutputPower) {
        state.withLock { $0.power = power }
        guard case .unsupported(let reason) = power else {
            said.withLock { $0 = nil }
            return
        }
        let new = said.withLock { said in
            defer { said = reason }
            return said != reason
        }
        if new { log.warn("cannot switch the output's power (\(reason)); a blanked screen is only covered with black") }
    }
}
