/// Everything wrong with a tree file, each problem named by its place in the file.
///
/// Decoding, validation and building all report through this one type, so that
/// `appstated --check` prints every problem of a file in one run, in the form
/// `trees[0].root.children[1]: unknown type "Pager" (expected one of …)`.
public struct TreeFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One step of a path into the file: a key of a mapping or an index into a list.
    public enum PathComponent: Hashable, Sendable {
        /// A key of a mapping (an object, in JSON).
        case key(String)
        /// A position in a list, from 0.
        case index(Int)
    }

    /// One problem and where it is.
    public struct Issue: Hashable, Sendable, CustomStringConvertible {
        /// The place in the file, from its top: `[.key("trees"), .index(0), .key("root")]`;
        /// empty for the file as a whole.
        public let path: [PathComponent]
        /// What is wrong, in words, quoting the offending value.
        public let message: String
        /// The line of the place in the file, from 1, when the reader knows it (YAML does).
        public var line: Int?
        /// The column of the place in its line, from 1, when the reader knows it (YAML does
        /// for a place its document holds).
        public var column: Int?

        /// Creates an issue.
        /// - Parameters:
        ///   - path: The place in the file; empty for the file as a whole.
        ///   - message: What is wrong.
        ///   - line: The line of the place, from 1, when known.
        ///   - column: The column of the place, from 1, when known.
        public init(path: [PathComponent], message: String, line: Int? = nil, column: Int? = nil) {
            self.path = path
            self.message = message
            self.line = line
            self.column = column
        }

        /// The place in the file as written in messages: `trees[0].root.children[1]`;
        /// empty for the file as a whole.
        public var location: String {
            var text = ""
            for component in path {
                switch component {
                case .key(let key): text += text.isEmpty ? key : ".\(key)"
                case .index(let index): text += "[\(index)]"
                }
            }
            return text
        }

        /// `line 12, column 5: trees[0].root: message`, leaving out what is unknown or empty.
        public var description: String {
            let position = line.map { line in "line \(line)" + (column.map { ", column \($0)" } ?? "") }
            let place = [position, location.isEmpty ? nil : location].compactMap(\.self)
            return (place + [message]).joined(separator: ": ")
        }
    }

    /// The problems, in the order of the file.
    public var issues: [Issue]
    /// The file the problems are in, when it was read from one; prefixes each line of ``description``.
    public var file: String?

    /// Creates an error.
    /// - Parameters:
    ///   - issues: The problems, at least one.
    ///   - file: The file they are in, when there is one.
    public init(issues: [Issue], file: String? = nil) {
        self.issues = issues
        self.file = file
    }

    /// An error with a single problem of the file as a whole (it cannot be read, it is empty, …).
    /// - Parameter message: What is wrong.
    public init(_ message: String) {
        self.init(issues: [Issue(path: [], message: message)])
    }

    /// One problem a line, each prefixed with the file name when there is one, as compilers
    /// print them: `kiosk.yaml: line 12, column 5: trees[0].root: unknown type "Pager" (…)`.
    public var description: String {
        issues.map { issue in file.map { "\($0): \(issue)" } ?? issue.description }.joined(separator: "\n")
    }
}

extension TreeFileError.PathComponent {
    /// A coding key as a path component: an index when the decoder gave it an integer
    /// value (decoders do so for list positions), else a key.
    init(_ key: any CodingKey) {
        self = key.intValue.map(Self.index) ?? .key(key.stringValue)
    }
}

extension [TreeFileError.PathComponent] {
    /// A decoder's coding path as a path into the file.
    init(_ codingPath: [any CodingKey]) {
        self = codingPath.map(TreeFileError.PathComponent.init)
    }
}
