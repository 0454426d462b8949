import AppStateIPC
import NIOConcurrencyHelpers
import ServicePorts

/// An on-screen keyboard that records what it is asked and answers when the test says, for
/// tests of `RequestKeyboard` without a bus.
package final class RecordingKeyboard: SystemKeyboard {
    private struct State {
        var asked: [Bool] = []
        var unanswered: [@Sendable (Result<Void, VarlinkError>) -> Void] = []
    }

    private let state = NIOLockedValueBox(State())

    /// A keyboard asked nothing yet.
    package init() {}

    /// What it was asked, in order: true to show, false to hide.
    package var asked: [Bool] { state.withLockedValue { $0.asked } }

    /// How many requests wait for their answer.
    package var waiting: Int { state.withLockedValue { $0.unanswered.count } }

    package func request(visible: Bool, answer: @escaping @Sendable (Result<Void, VarlinkError>) -> Void) {
        state.withLockedValue { state in
            state.asked.append(visible)
            state.unanswered.append(answer)
        }
    }

    /// Answers the oldest request that waits, as the keyboard would.
    /// - Parameter outcome: What the keyboard answers.
    /// - Returns: Whether a request waited.
    @discardableResult
    package func answer(_ outcome: Result<Void, VarlinkError>) -> Bool {
        let answer = state.withLockedValue { $0.unanswered.isEmpty ? nil : $0.unanswered.removeFirst() }
        answer?(outcome)
        return answer != nil
    }
}
