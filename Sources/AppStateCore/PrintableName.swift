/// The rule for names that people read on one line — user names, notification names — in
/// snapshots, the journal and a terminal: bounded, and unable to hide or rewrite the line
/// they are printed on.
public enum PrintableName {
    /// The longest name accepted, in UTF-8 bytes.
    public static let maximumLength = 256

    /// Why `name` cannot be printed on one line, as a phrase that completes "the name …",
    /// or nil when it can.
    /// - Parameter name: The candidate name.
    public static func problem(with name: String) -> String? {
        guard name.utf8.count <= maximumLength else {
            return "must be at most \(maximumLength) bytes"
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return "must not contain control characters"
        }
        // Bidirectional overrides and line breaks let a name rewrite the line it is shown on;
        // a name of only invisible characters shows as nothing.
        guard
            !name.unicodeScalars.contains(where: { scalar in
                scalar.properties.isBidiControl
                    || [.lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory)
            })
        else {
            return "must not contain bidirectional controls or line separators"
        }
        guard name.unicodeScalars.contains(where: { !$0.properties.isWhitespace && !$0.properties.isDefaultIgnorableCodePoint }) else {
            return "must contain a visible character"
        }
        return nil
    }
}
