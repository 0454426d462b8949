import Foundation

/// Foundation's `NotificationCenter` doing the bus's work: `observers` block observers of one
/// name, each counting the notification, on a private centre (the default centre may have
/// observers of its own).
@MainActor
final class CenterPosting: BusWorkload {
    private let center = NotificationCenter()
    private let name = Notification.Name(workloadName.rawValue)
    private var tokens: [any NSObjectProtocol] = []

    init(observers: Int, counter: Counter) {
        tokens = (0..<observers).map { _ in
            center.addObserver(forName: name, object: nil, queue: nil) { _ in counter.value &+= 1 }
        }
    }

    func post(times: Int) {
        for _ in 0..<times {
            center.post(name: name, object: nil)
        }
    }
}
