import Glibc

/// Whether and how output is coloured: only for a person at a terminal, never when
/// `NO_COLOR` is set (https://no-color.org) or the terminal says it cannot.
public struct TerminalStyle: Hashable, Sendable {
    /// Whether ANSI colour and weight codes are written.
    public let isColored: Bool

    /// Creates a style.
    /// - Parameter isColored: Whether ANSI codes are written.
    public init(isColored: Bool) {
        self.isColored = isColored
    }

    /// No escape codes: for pipes, files, tests and `NO_COLOR`.
    public static let plain = TerminalStyle(isColored: false)

    /// The style for standard output as this process finds it.
    public static var standardOutput: TerminalStyle {
        TerminalStyle(
            isColored: usesColor(
                isTerminal: isatty(STDOUT_FILENO) == 1,
                noColor: getenv("NO_COLOR").map { String(cString: $0) },
                term: getenv("TERM").map { String(cString: $0) }
            ))
    }

    /// Decides whether to colour.
    /// - Parameters:
    ///   - isTerminal: Whether the output goes to a terminal.
    ///   - noColor: The value of `NO_COLOR`; any non-empty value turns colour off, as its
    ///     convention says.
    ///   - term: The value of `TERM`; `dumb` terminals get no escape codes.
    /// - Returns: Whether to write ANSI codes.
    public static func usesColor(isTerminal: Bool, noColor: String?, term: String?) -> Bool {
        guard isTerminal else { return false }
        if let noColor, !noColor.isEmpty { return false }
        return term != "dumb"
    }

    /// Text in bold, for names.
    public func bold(_ text: String) -> String { wrap(text, "1") }
    /// Dimmed text, for what is not on screen.
    public func dim(_ text: String) -> String { wrap(text, "2") }
    /// Green text, for what is current.
    public func green(_ text: String) -> String { wrap(text, "32") }
    /// Yellow text, for insets and keyboard overlap.
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    /// Cyan text, for controller kinds.
    public func cyan(_ text: String) -> String { wrap(text, "36") }

    private func wrap(_ text: String, _ code: String) -> String {
        isColored ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
