import Foundation

/// Reads the repository's Markdown documents for the tests that keep them true: which there are,
/// the links each makes, and the anchors its headings give.
public enum MarkdownDocuments {
    /// A link of a document: its target as written, and the line it is on.
    public struct Link: Equatable, Sendable {
        public let target: String
        public let line: Int

        public init(target: String, line: Int) {
            self.target = target
            self.line = line
        }
    }

    /// Every `.md` file under `root`, as paths relative to it, sorted. Directories whose name
    /// starts with a dot are left out: build products (`.build*`), the Python venv and git's
    /// own hold copies and caches, not documents.
    public static func paths(under root: URL) -> [String] {
        let base = root.standardizedFileURL.path
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isDirectoryKey, .isSymbolicLinkKey], options: [.skipsHiddenFiles])
        while let url = enumerator?.nextObject() as? URL {
            let values = try? url.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey])
            // A link to a directory elsewhere in the checkout (the gateway's copy of the kiosk
            // example) would list its documents twice.
            if values?.isSymbolicLink == true {
                enumerator?.skipDescendants()
                continue
            }
            guard url.pathExtension == "md", values?.isDirectory != true else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(base + "/") else { continue }
            found.append(String(path.dropFirst(base.count + 1)))
        }
        return found.sorted()
    }

    /// The text with fenced code blocks and code spans blanked out, lines kept, so that what
    /// looks like a link or a heading in an example is not taken for one.
    public static func prose(_ text: String) -> String {
        var lines: [String] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
                lines.append("")
            } else {
                lines.append(fenced ? "" : String(line).replacing(#/`[^`]*`/#, with: ""))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The inline links and images of a document's prose (`[text](target)`, `![alt](target)`).
    public static func links(in text: String) -> [Link] {
        prose(text).split(separator: "\n", omittingEmptySubsequences: false).enumerated().flatMap { index, line in
            line.matches(of: #/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/#).map { Link(target: String($0.1), line: index + 1) }
        }
    }

    /// Whether a link leaves the repository (a web address, mail).
    public static func isExternal(_ target: String) -> Bool {
        target.contains("://") || target.hasPrefix("mailto:")
    }

    /// The anchors a document's headings give, as GitHub makes them: lower case, punctuation
    /// dropped, spaces as hyphens, a repeated one numbered.
    public static func anchors(in text: String) -> Set<String> {
        var anchors: Set<String> = []
        var counts: [String: Int] = [:]
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle() }
            guard !fenced, let heading = line.wholeMatch(of: #/#{1,6}\s+(.*?)\s*#*\s*/#) else { continue }
            let slug = self.slug(String(heading.1))
            let seen = counts[slug, default: 0]
            counts[slug] = seen + 1
            anchors.insert(seen == 0 ? slug : "\(slug)-\(seen)")
        }
        return anchors
    }

    /// A heading's anchor, as GitHub makes it.
    public static func slug(_ heading: String) -> String {
        let text = heading.replacing(#/\[([^\]]*)\]\([^)]*\)/#) { String($0.1) }.lowercased()
        return String(
            text.unicodeScalars.compactMap { scalar -> Character? in
                if scalar == " " { return "-" }
                if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) { return Character(scalar) }
                return nil
            })
    }
}
