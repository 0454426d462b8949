import Logging
import NIOConcurrencyHelpers

/// A log handler that keeps the messages logged through it, for tests that check what the
/// daemon tells the journal.
struct RecordingLogHandler: LogHandler {
    /// The messages logged, oldest first, shared by every copy of the handler.
    final class Messages: Sendable {
        private let entries = NIOLockedValueBox<[(level: Logger.Level, message: String)]>([])

        /// The messages logged at `level`.
        func at(_ level: Logger.Level) -> [String] {
            entries.withLockedValue { $0.filter { $0.level == level }.map(\.message) }
        }

        fileprivate func append(_ level: Logger.Level, _ message: String) {
            entries.withLockedValue { $0.append((level, message)) }
        }
    }

    let messages: Messages
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        messages.append(event.level, "\(event.message)")
    }

    /// A logger whose messages end up in the returned list.
    static func logger() -> (Logger, Messages) {
        let messages = Messages()
        return (Logger(label: "test", factory: { _ in RecordingLogHandler(messages: messages) }), messages)
    }
}
