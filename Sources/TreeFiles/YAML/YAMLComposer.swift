import CYAML
import StateContainers

/// Reads one YAML document with libyaml's event parser into a ``YAMLDocument``: the
/// composition Yams makes (anchors and aliases resolved, duplicate keys refused, one document
/// only), without a call stack as deep as the document: collections nest on an array, up to
/// ``maximumDepth``.
struct YAMLComposer {
    /// The deepest collections may nest: ample for a tree file (its nodes may nest 32 deep, two
    /// collections each), and shallow enough for everything that walks the document recursively.
    static let maximumDepth = 256

    /// A collection whose end has not been read yet.
    private struct OpenCollection {
        let isMapping: Bool
        let anchor: String?
        let line: Int
        let column: Int
        var items: [Int] = []
    }

    private var nodes: [YAMLNode] = []
    private var anchors: [String: Int] = [:]
    private var open: [OpenCollection] = []
    private var root: Int?

    /// Reads the first and only document of `text`.
    /// - Parameter text: YAML text.
    /// - Returns: The document, or nil when the text holds none (nothing, or only comments).
    /// - Throws: ``TreeFileError`` with one issue, "not valid YAML: …" and its line: libyaml's
    ///   syntax errors in its words, an undefined alias, a duplicate key, a second document,
    ///   too deep a nesting.
    static func compose(_ text: String) throws(TreeFileError) -> YAMLDocument? {
        var composer = YAMLComposer()
        var utf8 = Array(text.utf8)
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else { throw TreeFileError("not valid YAML: out of memory") }
        defer { yaml_parser_delete(parser) }
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        // libyaml reads the input while it parses: the buffer stays pinned until the end.
        let result = utf8.withUnsafeMutableBufferPointer { bytes in
            yaml_parser_set_input_string(parser, bytes.baseAddress, bytes.count)
            return Result { () throws(TreeFileError) in try composer.run(parser, text: bytes) }
        }
        return try result.get()
    }

    private mutating func run(_ parser: UnsafeMutablePointer<yaml_parser_t>, text: UnsafeMutableBufferPointer<UInt8>) throws(TreeFileError)
        -> YAMLDocument?
    {
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(parser, &event) == 1 else { throw Self.syntaxError(parser.pointee, text: text) }
            defer { yaml_event_delete(&event) }
            let line = event.start_mark.line + 1
            let column = event.start_mark.column + 1
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return root.map { YAMLDocument(nodes: nodes, root: $0) }
            case YAML_DOCUMENT_START_EVENT where root != nil:
                throw TreeFileError(issues: [
                    .init(
                        path: [], message: "not valid YAML: but found another document (expected a single document in the stream on line 1)",
                        line: line)
                ])
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let tag = scalar.quoted_implicit == 1 ? YAMLTag.string : Self.string(scalar.tag)
                let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                let style = scalar.style
                add(
                    YAMLNode(
                        content: .scalar(.init(text: text, isPlain: style == YAML_PLAIN_SCALAR_STYLE || style == YAML_ANY_SCALAR_STYLE, tag: tag)),
                        line: line, column: column), anchor: Self.string(scalar.anchor))
            case YAML_ALIAS_EVENT:
                guard let name = Self.string(event.data.alias.anchor), let node = anchors[name] else {
                    throw TreeFileError(issues: [.init(path: [], message: "not valid YAML: found undefined alias", line: line)])
                }
                close(node)
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                guard open.count < Self.maximumDepth else {
                    throw TreeFileError(issues: [
                        .init(path: [], message: "not valid YAML: collections nest more than \(Self.maximumDepth) levels deep", line: line)
                    ])
                }
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
                open.append(OpenCollection(isMapping: isMapping, anchor: Self.string(anchor), line: line, column: column))
            case YAML_SEQUENCE_END_EVENT:
                let collection = open.removeLast()
                add(
                    YAMLNode(content: .sequence(.init(items: collection.items)), line: collection.line, column: collection.column),
                    anchor: collection.anchor)
            case YAML_MAPPING_END_EVENT:
                let collection = open.removeLast()
                let pairs = stride(from: 0, to: collection.items.count - 1, by: 2).map {
                    YAMLNode.Pair(key: collection.items[$0], value: collection.items[$0 + 1])
                }
                try checkDuplicates(pairs.map(\.key))
                add(YAMLNode(content: .mapping(.init(pairs: pairs)), line: collection.line, column: collection.column), anchor: collection.anchor)
            default:
                // Stream and document starts and document ends carry nothing to keep.
                continue
            }
        }
    }

    /// Stores a node whose events are all read, under its anchor if it has one (an alias
    /// names the last node of that anchor before it, so a collection cannot contain itself).
    private mutating func add(_ node: YAMLNode, anchor: String?) {
        nodes.append(node)
        if let anchor { anchors[anchor] = nodes.count - 1 }
        close(nodes.count - 1)
    }

    /// Puts a complete node in the collection being read, or makes it the document's.
    private mutating func close(_ node: Int) {
        if open.isEmpty {
            root = node
        } else {
            open[open.count - 1].items.append(node)
        }
    }

    /// Refuses a mapping with two equal scalar keys (same text and tag), as Yams does, naming
    /// them in order and the line of the first. Keys that are collections are never tree-file
    /// keys (decoding ignores them) and are not compared: comparing them could take as long as
    /// expanding their aliases.
    private func checkDuplicates(_ keys: [Int]) throws(TreeFileError) {
        var seen: [KeyIdentity: Int] = [:]
        var duplicates: [KeyIdentity: Int] = [:]
        for key in keys {
            guard let scalar = nodes[key].scalar else { continue }
            let identity = KeyIdentity(text: scalar.text, tag: scalar.resolvedTag)
            if let first = seen[identity] {
                duplicates[identity] = first
            } else {
                seen[identity] = key
            }
        }
        guard let firstKey = duplicates.keys.min(by: { $0.text < $1.text }), let first = duplicates[firstKey] else { return }
        let names = duplicates.keys.map(\.text).sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        throw TreeFileError(issues: [
            .init(path: [], message: "not valid YAML: duplicate key \(names) in a mapping", line: nodes[first].line, column: nodes[first].column)
        ])
    }

    private struct KeyIdentity: Hashable {
        let text: String
        let tag: String
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// libyaml's error in its own words, with the line (from 1) where it found it and the
    /// construct it was reading when that is known, as Yams words it.
    private static func syntaxError(_ parser: yaml_parser_t, text: UnsafeMutableBufferPointer<UInt8>) -> TreeFileError {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
        switch parser.error {
        case YAML_MEMORY_ERROR:
            return TreeFileError("not valid YAML: out of memory")
        case YAML_READER_ERROR:
            return TreeFileError(issues: [.init(path: [], message: "not valid YAML: \(problem)", line: line(atByte: parser.problem_offset, in: text))]
            )
        default:
            let during = parser.context.map { " (\(String(cString: $0)) on line \(parser.context_mark.line + 1))" } ?? ""
            return TreeFileError(issues: [
                .init(
                    path: [], message: "not valid YAML: \(problem)\(during)", line: parser.problem_mark.line + 1,
                    column: parser.problem_mark.column + 1)
            ])
        }
    }

    /// The line, from 1, of a byte offset, counting line breaks as libyaml does (`\r\n`, `\r`
    /// and `\n` each end one).
    private static func line(atByte offset: Int, in text: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var line = 1
        var index = 0
        let end = min(offset, text.count)
        while index < end {
            if text[index] == UInt8(ascii: "\n")
                || (text[index] == UInt8(ascii: "\r") && (index + 1 == text.count || text[index + 1] != UInt8(ascii: "\n")))
            {
                line += 1
            }
            index += 1
        }
        return line
    }
}
