import AppStateCore

/// Keeps one observer of a ``NotificationBus`` registered: the observer is removed when the
/// token is cancelled or released, so that an owner that drops its tokens leaves no observers.
///
/// The token holds its bus weakly: a token that outlives its bus does nothing.
@MainActor
public final class ObservationToken {
    private weak var bus: NotificationBus?
    private let name: NotificationName?
    private let id: UInt64

    init(bus: NotificationBus, name: NotificationName?, id: UInt64) {
        self.bus = bus
        self.name = name
        self.id = id
    }

    /// Whether the observer is still registered: false once cancelled or once the bus is gone.
    public var isActive: Bool { bus != nil }

    /// Removes the observer; calling it again does nothing.
    ///
    /// An observer removed while a notification is being delivered and not yet called does
    /// not receive that notification.
    public func cancel() {
        guard let bus else { return }
        self.bus = nil
        bus.removeObserver(id: id, name: name)
    }

    // Isolated so that a token released off the main actor (by an async stream's termination,
    // say) still removes its observer on the actor that owns the bus.
    isolated deinit {
        cancel()
    }
}
