import StateContainers

/// The floor: what a post must do at least, without a bus. It builds the notification the
/// observers take, as a post does, and calls the bus workload's observer closures in a loop.
@MainActor
final class DirectCalls: BusWorkload {
    private let observers: [@MainActor (BusNotification) -> Void]

    init(observers: Int, counter: Counter) {
        self.observers = (0..<observers).map { _ in countingObserver(counter) }
    }

    func post(times: Int) {
        for _ in 0..<times {
            let notification = BusNotification(name: workloadName)
            for observer in observers {
                observer(notification)
            }
        }
    }
}
