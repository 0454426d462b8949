import AppStateCore
import StateContainers

/// Reads tree files (the format: `Sources/StateContainers/StateContainers.docc/TreeFiles.md`)
/// from disk: YAML with libyaml, JSON with the package's own parser, both into a
/// ``HostedTreeFile`` (the spec types of `StateContainers` and the daemon's keys beside
/// them), decoded and validated, with every problem named by its place in the file and, where
/// the text can be parsed, its line.
///
/// ```swift
/// let file = try TreeFileLoader.load(path: "/etc/appstate/trees.yaml")
/// ```
package enum TreeFileLoader {
    /// The largest file read: tree files are a few kilobytes, and a wrong path (a device, a
    /// log) must fail rather than fill memory.
    package static let maximumFileSize = 1 << 20

    /// Reads, decodes and validates a tree file: JSON when its name ends in `.json`, else YAML.
    /// - Parameter path: The file's path.
    /// - Returns: The valid tree file.
    /// - Throws: ``TreeFileError`` naming `path`, with every problem found (or the one that
    ///   stopped the reading: an unreadable file, a syntax error, a value of the wrong type).
    package static func load(path: String) throws(TreeFileError) -> HostedTreeFile {
        do throws(TreeFileError) {
            let bytes = try TreeFileBytes.read(path: path, limit: maximumFileSize)
            guard let text = String(validating: bytes, as: UTF8.self) else { throw TreeFileError("not UTF-8 text") }
            return path.hasSuffix(".json") ? try decode(json: text) : try decode(yaml: text)
        } catch {
            var error = error
            error.file = path
            throw error
        }
    }

    /// Reads, decodes and validates the tree file at `path`, or the embedded default tree.
    /// - Parameter path: The file's path; nil for ``HostedTreeFile/default``.
    /// - Returns: The valid tree file.
    /// - Throws: ``TreeFileError``, as ``load(path:)`` throws it.
    package static func load(pathOrDefault path: String?) throws(TreeFileError) -> HostedTreeFile {
        guard let path else { return try HostedTreeFile.default }
        return try load(path: path)
    }

    /// Decodes and validates a YAML tree file, its scalars read as Yams reads them (YAML 1.1:
    /// `~` is null, `1:30` is 90), anchors, aliases and `<<` merge keys applied.
    /// - Parameter yaml: The file's text.
    /// - Returns: The valid tree file.
    /// - Throws: ``TreeFileError`` with every unknown key and validation problem, or the first
    ///   syntax or structural problem, each with its line.
    package static func decode(yaml: String) throws(TreeFileError) -> HostedTreeFile {
        let document = try compose(yaml)
        try checkExpandedSize(of: document)
        do throws(TreeFileError) {
            return try HostedTreeFile.decode { userInfo in
                try YAMLNodeDecoder.decode(HostedTreeFile.self, from: document, userInfo: userInfo)
            }
        } catch {
            throw withLines(error, from: document)
        }
    }

    /// Decodes and validates a JSON tree file with the package's own parser, to the spec and the
    /// problems `HostedTreeFile.decode(json:)` gives with Foundation's (JSON is read strictly:
    /// `"id": 3` is not a string), adding the lines YAML finds for the problems' places: JSON
    /// is YAML too.
    /// - Parameter json: The file's text.
    /// - Returns: The valid tree file.
    /// - Throws: ``TreeFileError`` with every unknown key and validation problem, or the first
    ///   syntax or structural problem.
    package static func decode(json: String) throws(TreeFileError) -> HostedTreeFile {
        // A NUL byte is left to `HostedTreeFile.decode(json:)`, which names it in its own
        // words; any other text is decoded from the value of the package's own strict parser,
        // which says what and where a syntax error is (Foundation's decoder says only that the
        // data is not JSON) and spares a second reading of the text.
        let value = try parse(json: json)
        do throws(TreeFileError) {
            guard let value else { return try HostedTreeFile.decode(json: Array(json.utf8)) }
            return try HostedTreeFile.decode { userInfo in try JSONValueDecoder.decode(HostedTreeFile.self, from: value, userInfo: userInfo) }
        } catch {
            // Lines are a help, not a need: JSON that libyaml cannot read keeps its issues
            // without them, so the syntax error is dropped here on purpose.
            guard let document = try? compose(json) else { throw error }
            throw withLines(error, from: document)
        }
    }

    /// The value of a JSON tree file, or nil when it holds a NUL byte.
    /// - Throws: ``TreeFileError`` "not valid JSON: " with what and where.
    private static func parse(json: String) throws(TreeFileError) -> JSONValue? {
        let bytes = Array(json.utf8)
        guard !bytes.contains(0) else { return nil }
        // Foundation's decoder skips a byte order mark, and so does this parse.
        let skipped = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // A key named twice is no syntax error to Foundation's decoder, which reads the
        // first: such a file loads, and a syntax error after one still has its place.
        let parser = JSONParser(maximumDepth: maximumJSONDepth, allowsDuplicateKeys: true)
        let parsed = bytes.withUnsafeBytes { text in
            Result { () throws(JSONParseError) in try parser.parse(UnsafeRawBufferPointer(rebasing: text[skipped...])) }
        }
        do {
            return try parsed.get()
        } catch {
            throw TreeFileError("not valid JSON: \(error.kind) around character \(error.offset + skipped)")
        }
    }

    /// How deep the syntax check lets JSON nest: a tree file at ``NodeSpec/maximumDepth``
    /// nests two levels a node, plus a few around the trees; deeper files are still refused,
    /// by the decoder, with the node's place.
    static let maximumJSONDepth = 4 * NodeSpec.maximumDepth + 8

    /// The YAML document of `text`, or its syntax error with the line.
    private static func compose(_ text: String) throws(TreeFileError) -> YAMLDocument {
        guard let document = try YAMLComposer.compose(text) else { throw TreeFileError("the file is empty") }
        return document
    }

    /// The most nodes a YAML document may hold once its aliases are expanded: far more than
    /// any screen hierarchy has, and few enough that decoding stays quick.
    static let maximumExpandedNodeCount = 100_000

    /// Refuses a document whose aliases expand it beyond ``maximumExpandedNodeCount`` nodes:
    /// the decoder visits an aliased node at every place that names it, so a kilobyte of
    /// anchors nesting aliases of aliases ("billion laughs") would otherwise take forever.
    private static func checkExpandedSize(of document: YAMLDocument) throws(TreeFileError) {
        guard document.fits(expandedNodeLimit: maximumExpandedNodeCount) else {
            let message = "the document holds more than \(maximumExpandedNodeCount) nodes once its aliases are expanded: not a tree file"
            throw TreeFileError(issues: [TreeFileError.Issue(path: [], message: message, line: document[document.root].line)])
        }
    }

    /// The error with each issue's line: where its place starts in the document.
    private static func withLines(_ error: TreeFileError, from document: YAMLDocument) -> TreeFileError {
        var error = error
        for index in error.issues.indices {
            let position = document.position(of: error.issues[index].path)
            error.issues[index].line = position.line
            error.issues[index].column = position.column
        }
        return error
    }
}
