import Foundation

/// Reads the tables of the Markdown documents (DocC articles, the README) that tests hold to
/// the declarations they describe.
public enum MarkdownTable {
    /// The body rows of the first table after `heading`, each as its trimmed cells.
    public static func rows(under heading: String, in text: String) throws -> [[String]] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: heading) else { throw TestFailure("no \(heading) heading") }
        let table = lines[(start + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        guard table.count >= 2 else { throw TestFailure("no table under \(heading)") }
        return table.dropFirst(2).map { line in
            line.dropFirst().dropLast(line.hasSuffix("|") ? 1 : 0)
                .split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// `Name` for a cell that is just the symbol link ``Name``.
    public static func symbolLink(_ cell: String) -> String? {
        cell.wholeMatch(of: #/``(\w+)``/#).map { String($0.1) }
    }

    /// The names in code voice (single backticks) in a cell, in order; symbol links
    /// (double backticks) are not names of members.
    public static func codeNames(in cell: String) -> [String] {
        cell.replacing(#/``[^`]*``/#, with: "").matches(of: #/`([\w.]+)`/#).map { String($0.1) }
    }
}
