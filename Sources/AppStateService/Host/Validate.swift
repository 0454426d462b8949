import AppStateIPC

/// Checks on names that have the right type and are non-empty (the parameter types check
/// that) but would still be unreadable in a snapshot, a log line or a terminal.
enum Validate {
    /// The longest user or notification name accepted, in bytes.
    static let maximumNameLength = 256
    /// A user or notification name: bounded and printable.
    /// - Throws: `io.appstate.InvalidValue` naming `parameter`.
    static func name(_ value: String, parameter: String) throws(VarlinkError) {
        guard value.utf8.count <= maximumNameLength else {
            throw .invalidValue(parameter: parameter, reason: "must be at most \(maximumNameLength) bytes")
        }
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidValue(parameter: parameter, reason: "must not contain control characters")
        }
    }
}
