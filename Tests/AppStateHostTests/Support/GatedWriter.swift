import Dispatch
import NIOPosix

@testable import AppStateHost

/// A one-thread pool for a ``StateStore``'s writes whose thread a test can hold, so that a
/// write is known to be under way, and the commits behind it to be waiting, when the test
/// looks: a write that finished before a test looked would otherwise leave it waiting for
/// ever.
final class GatedWriter: Sendable {
    let pool = NIOThreadPool(numberOfThreads: 1)
    private let gate = DispatchSemaphore(value: 0)

    init() throws {
        pool.start()
    }

    deinit {
        pool.shutdownGracefully { _ in }
    }

    /// Holds the pool's thread: writes queue until ``open()``.
    func close() {
        let gate = self.gate
        pool.submit { _ in gate.wait() }
    }

    /// Lets the queued writes run.
    func open() {
        gate.signal()
    }

    /// Waits until the store has taken a write in hand, which the closed gate then holds.
    func waitUntilWriting(_ store: StateStore) async {
        while store.inFlight == 0 { await Task.yield() }
    }
}
