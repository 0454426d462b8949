import StateContainers

/// ``NotificationBus`` with `observers` observers of one name.
@MainActor
final class BusPosting: BusWorkload {
    private let bus = NotificationBus()
    private var tokens: [ObservationToken] = []

    init(observers: Int, counter: Counter) {
        tokens = (0..<observers).map { _ in
            bus.addObserver(forName: workloadName, using: countingObserver(counter))
        }
    }

    func post(times: Int) {
        for _ in 0..<times {
            bus.post(name: workloadName)
        }
    }
}
