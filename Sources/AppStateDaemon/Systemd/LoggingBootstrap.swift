import Glibc
import Logging

/// Chooses where the daemon's swift-log output goes: the journal's native protocol when
/// stderr is connected to the journal, else plain lines on stderr.
package enum LoggingBootstrap {
    /// Bootstraps swift-log for the process. swift-log allows this once per process, so the
    /// daemon calls it first thing in `main`.
    ///
    /// - Parameters:
    ///   - logLevel: The lowest level to emit.
    ///   - identifier: The journal's `SYSLOG_IDENTIFIER`.
    ///   - metadataProvider: Contextual metadata added to every entry.
    package static func bootstrap(
        logLevel: Logger.Level = .info,
        identifier: String = "appstated",
        metadataProvider: Logger.MetadataProvider? = nil
    ) {
        let useJournal = stderrIsJournal()
        LoggingSystem.bootstrap(
            { label, metadataProvider in
                makeHandler(
                    label: label,
                    metadataProvider: metadataProvider,
                    useJournal: useJournal,
                    logLevel: logLevel,
                    identifier: identifier
                )
            },
            metadataProvider: metadataProvider
        )
    }

    /// Whether stderr is a stream connected to the journal, which systemd announces in
    /// `JOURNAL_STREAM` as the stream's `device:inode`.
    ///
    /// Comparing with `fstat(2)` of stderr, rather than trusting the variable's presence,
    /// keeps a process that inherited the variable but whose stderr was redirected (a pipe,
    /// a file, `2>&1 | tee`) writing where its user looks, not into the journal.
    ///
    /// - Parameters:
    ///   - environment: The environment to read `JOURNAL_STREAM` from.
    /// - Returns: `true` when stderr's device and inode match `JOURNAL_STREAM`.
    package static func stderrIsJournal(
        environment: [String: String] = ProcessEnvironment.current
    ) -> Bool {
        isJournalStream(environment["JOURNAL_STREAM"], fileDescriptor: STDERR_FILENO)
    }

    /// Whether a descriptor is the journal stream named by a `JOURNAL_STREAM` value.
    ///
    /// - Parameters:
    ///   - value: The variable's value, `device:inode` in decimal; `nil` when unset.
    ///   - fileDescriptor: The descriptor to compare, normally stderr.
    /// - Returns: `true` when both numbers parse and match `fstat` of the descriptor.
    static func isJournalStream(_ value: String?, fileDescriptor: CInt) -> Bool {
        guard let value else { return false }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else {
            return false
        }
        var status = stat()
        guard fstat(fileDescriptor, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    /// Makes the handler for one logger.
    ///
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - metadataProvider: The provider given to `LoggingSystem`.
    ///   - useJournal: Whether to write to the journal rather than stderr.
    ///   - logLevel: The lowest level to emit.
    ///   - identifier: The journal's `SYSLOG_IDENTIFIER`.
    /// - Returns: A ``JournalLogHandler`` or a `StreamLogHandler` on stderr.
    static func makeHandler(
        label: String,
        metadataProvider: Logger.MetadataProvider?,
        useJournal: Bool,
        logLevel: Logger.Level,
        identifier: String
    ) -> any LogHandler {
        if useJournal {
            return JournalLogHandler(
                label: label,
                identifier: identifier,
                logLevel: logLevel,
                metadataProvider: metadataProvider
            )
        }
        var handler = StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider)
        handler.logLevel = logLevel
        return handler
    }
}
