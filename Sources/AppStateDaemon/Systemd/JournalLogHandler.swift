import CSystemd
import Glibc
import Logging

/// A swift-log handler writing structured entries to the systemd journal with
/// `sd_journal_sendv(3)`.
///
/// Each entry carries `MESSAGE`, `PRIORITY` (the syslog level), `SYSLOG_IDENTIFIER`,
/// `CODE_FILE`, `CODE_LINE`, `CODE_FUNC`, the logger's label as `APPSTATE_LOGGER`, and every
/// metadata item as its own field: the key upper-cased, anything outside `[A-Z0-9_]` turned
/// into `_`, prefixed `APPSTATE_` (so `tree` becomes `APPSTATE_TREE`, and
/// `journalctl APPSTATE_TREE=main` finds it). An error attached to the event becomes
/// `APPSTATE_ERROR_MESSAGE` and `APPSTATE_ERROR_TYPE`, as `StreamLogHandler` names them.
package struct JournalLogHandler: LogHandler {
    /// The logger's label, sent as `APPSTATE_LOGGER`.
    package let label: String
    /// The `SYSLOG_IDENTIFIER` of every entry, the name `journalctl -t` filters on.
    package let identifier: String
    /// The lowest level this handler emits.
    package var logLevel: Logger.Level
    /// Metadata sent with every entry; per-call metadata wins over it.
    package var metadata: Logger.Metadata = [:]
    /// Contextual metadata (for example task-local values) sent with every entry.
    package var metadataProvider: Logger.MetadataProvider?

    /// Creates a handler.
    ///
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - identifier: The `SYSLOG_IDENTIFIER`.
    ///   - logLevel: The lowest level to emit.
    ///   - metadataProvider: Contextual metadata; by default the one given to `LoggingSystem`.
    package init(
        label: String,
        identifier: String = "appstated",
        logLevel: Logger.Level = .info,
        metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider
    ) {
        self.label = label
        self.identifier = identifier
        self.logLevel = logLevel
        self.metadataProvider = metadataProvider
    }

    /// Gets or sets one metadata item of this handler.
    ///
    /// - Parameters:
    ///   - metadataKey: The key, sent as `APPSTATE_` followed by its sanitised form.
    package subscript(metadataKey metadataKey: String) -> Logger.Metadata.Value? {
        get { metadata[metadataKey] }
        set { metadata[metadataKey] = newValue }
    }

    /// Sends one entry to the journal. If the journal refuses it, the message goes to
    /// stderr instead (which the journal also collects when this handler is chosen).
    ///
    /// - Parameters:
    ///   - event: The log statement.
    package func log(event: LogEvent) {
        if Self.send(fields(for: event)) < 0 {
            // The `<N>` prefix is the priority syntax the journal's stream reader understands.
            var line = "<\(Self.priority(of: event.level))>\(label): \(event.message)\n"
            line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
    }

    /// The journal fields of an entry, each `NAME=value`, in a stable order: the fixed
    /// fields, then metadata sorted by key.
    ///
    /// - Parameters:
    ///   - event: The log statement.
    /// - Returns: The fields, ready for `sd_journal_sendv`.
    func fields(for event: LogEvent) -> [String] {
        var merged = metadata
        if let provided = metadataProvider?.get() {
            merged.merge(provided) { _, provided in provided }
        }
        if let explicit = event.metadata {
            merged.merge(explicit) { _, explicit in explicit }
        }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        var fields = [
            "MESSAGE=\(event.message)",
            "PRIORITY=\(Self.priority(of: event.level))",
            "SYSLOG_IDENTIFIER=\(identifier)",
            "CODE_FILE=\(event.file)",
            "CODE_LINE=\(event.line)",
            "CODE_FUNC=\(event.function)",
            "APPSTATE_LOGGER=\(label)",
        ]
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            fields.append("\(Self.fieldName(forMetadataKey: key))=\(value)")
        }
        return fields
    }

    /// The journal field name of a metadata key: `APPSTATE_` and the key upper-cased, with
    /// every character outside `[A-Z0-9_]` replaced by `_`, cut to the journal's limit of
    /// 64 characters. The prefix keeps names from starting with a digit or an underscore
    /// (which the journal reserves for trusted fields).
    ///
    /// - Parameters:
    ///   - key: A swift-log metadata key.
    /// - Returns: A valid journal field name.
    static func fieldName(forMetadataKey key: String) -> String {
        var name = "APPSTATE_"
        for scalar in key.unicodeScalars {
            switch scalar {
            case "A"..."Z", "0"..."9", "_":
                name.unicodeScalars.append(scalar)
            case "a"..."z":
                name.unicodeScalars.append(Unicode.Scalar(UInt8(scalar.value) - 0x20))
            default:
                name.unicodeScalars.append("_")
            }
        }
        return String(name.prefix(64))
    }

    /// The syslog priority of a swift-log level (`PRIORITY=`, as `journalctl -p` filters).
    ///
    /// - Parameters:
    ///   - level: A swift-log level; trace and debug share syslog's debug level.
    /// - Returns: 2 (critical) to 7 (debug).
    static func priority(of level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// Sends fields with `sd_journal_sendv`, copying them into one buffer for the iovecs.
    private static func send(_ fields: [String]) -> CInt {
        let total = fields.reduce(0) { $0 + $1.utf8.count }
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(total, 1), alignment: 1)
        defer { storage.deallocate() }
        var vectors: [iovec] = []
        vectors.reserveCapacity(fields.count)
        var offset = 0
        for field in fields {
            let bytes = UnsafeMutableRawBufferPointer(rebasing: storage[offset..<offset + field.utf8.count])
            bytes.copyBytes(from: field.utf8)
            vectors.append(iovec(iov_base: bytes.baseAddress, iov_len: bytes.count))
            offset += bytes.count
        }
        return vectors.withUnsafeBufferPointer { sd_journal_sendv($0.baseAddress, CInt($0.count)) }
    }
}
