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
        // Bidirectional overrides and line breaks let a name rewrite the line it is shown on
        // (`appstatectl`, the journal); a name of only invisible characters shows as nothing.
        guard !value.unicodeScalars.contains(where: { scalar in
            scalar.properties.isBidiControl
                || [.lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory)
        }) else {
            throw .invalidValue(parameter: parameter, reason: "must not contain bidirectional controls or line separators")
        }
        guard value.unicodeScalars.contains(where: { !$0.properties.isWhitespace && !$0.properties.isDefaultIgnorableCodePoint }) else {
            throw .invalidValue(parameter: parameter, reason: "must contain a visible character")
        }
    }
}
