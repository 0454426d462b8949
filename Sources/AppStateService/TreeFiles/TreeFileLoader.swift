import Foundation
import StateContainers
import Yams

/// Reads tree files (the format: `Sources/StateContainers/StateContainers.docc/TreeFiles.md`)
/// from disk: YAML with Yams, JSON with Foundation, both into the
/// spec types of `StateContainers`, decoded and validated, with every problem named by its
/// place in the file and, where the text can be parsed, its line.
///
/// ```swift
/// let file = try TreeFileLoader.load(path: "/etc/appstate/trees.yaml")
/// ```
public enum TreeFileLoader {
    /// The largest file read: tree files are a few kilobytes, and a wrong path (a device, a
    /// log) must fail rather than fill memory.
    public static let maximumFileSize = 1 << 20

    /// Reads, decodes and validates a tree file: JSON when its name ends in `.json`, else YAML.
    /// - Parameter path: The file's path.
    /// - Returns: The valid tree file.
    /// - Throws: ``TreeFileError`` naming `path`, with every problem found (or the one that
    ///   stopped the reading: an unreadable file, a syntax error, a value of the wrong type).
    public static func load(path: String) throws(TreeFileError) -> TreeFile {
        do throws(TreeFileError) {
            let bytes = try read(path: path)
            guard let text = String(validating: bytes, as: UTF8.self) else { throw TreeFileError("not UTF-8 text") }
            return path.hasSuffix(".json") ? try decode(json: text) : try decode(yaml: text)
        } catch {
            var error = error
            error.file = path
            throw error
        }
    }

    /// Decodes and validates a YAML tree file.
    /// - Parameter yaml: The file's text.
    /// - Returns: The valid tree file.
    /// - Throws: ``TreeFileError`` with every unknown key and validation problem, or the first
    ///   syntax or structural problem, each with its line.
    public static func decode(yaml: String) throws(TreeFileError) -> TreeFile {
        let node = try compose(yaml)
        try checkExpandedSize(of: node)
        do throws(TreeFileError) {
            return try TreeFile.decode { userInfo in
                try YAMLDecoder().decode(TreeFile.self, from: node, userInfo: userInfo)
            }
        } catch {
            throw withLines(error, from: node)
        }
    }

    /// Decodes and validates a JSON tree file with Foundation, as `TreeFile.decode(json:)` does
    /// (JSON is read strictly: `"id": 3` is not a string), adding the lines Yams finds for the
    /// problems' places: JSON is YAML too.
    /// - Parameter json: The file's text.
    /// - Returns: The valid tree file.
    /// - Throws: ``TreeFileError`` with every unknown key and validation problem, or the first
    ///   syntax or structural problem.
    public static func decode(json: String) throws(TreeFileError) -> TreeFile {
        // Foundation's decoder says only that the data is not JSON, lets unescaped control
        // characters in strings through, or fails on them with no place; its serializer is
        // strict and says where.
        if let problem = syntaxProblem(in: json) { throw TreeFileError("not valid JSON: \(problem)") }
        do throws(TreeFileError) {
            return try TreeFile.decode(json: Data(json.utf8))
        } catch {
            // Lines are a help, not a need: JSON that Yams cannot parse keeps its issues without them.
            guard let node = try? compose(json) else { throw error }
            throw withLines(error, from: node)
        }
    }

    /// Where the JSON is broken, in the serializer's words ("Invalid value around character 11."),
    /// or nil when it is well-formed.
    private static func syntaxProblem(in json: String) -> String? {
        if json.utf8.contains(0) { return nil }
        do {
            _ = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
            return nil
        } catch {
            return (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
        }
    }

    private static func read(path: String) throws(TreeFileError) -> [UInt8] {
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            let data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
            guard data.count <= maximumFileSize else {
                throw TreeFileError("larger than \(maximumFileSize) bytes: not a tree file")
            }
            return [UInt8](data)
        } catch let error as TreeFileError {
            throw error
        } catch {
            throw TreeFileError("cannot read: \(reason(error))")
        }
    }

    /// Why a read failed, as `strerror` says it ("No such file or directory"): Foundation on
    /// Linux words most of these "The operation could not be completed".
    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        let posix = error.domain == NSPOSIXErrorDomain ? error : error.userInfo[NSUnderlyingErrorKey] as? NSError
        guard let posix, posix.domain == NSPOSIXErrorDomain, let code = Int32(exactly: posix.code) else { return error.localizedDescription }
        return String(cString: strerror(code))
    }

    /// The YAML document of `text`, or its syntax error with the line.
    private static func compose(_ text: String) throws(TreeFileError) -> Node {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw TreeFileError(issues: [issue(for: error)])
        } catch {
            throw TreeFileError("not valid YAML: \(error)")
        }
        guard let node else { throw TreeFileError("the file is empty") }
        return node
    }

    /// The most nodes a YAML document may hold once its aliases are expanded: far more than
    /// any screen hierarchy has, and few enough that decoding stays quick.
    static let maximumExpandedNodeCount = 100_000

    /// Refuses a document whose aliases expand it beyond ``maximumExpandedNodeCount`` nodes:
    /// the decoder visits an aliased node at every place that names it, so a kilobyte of
    /// anchors nesting aliases of aliases ("billion laughs") would otherwise take forever and
    /// all memory. Stops counting at the limit.
    private static func checkExpandedSize(of document: Node) throws(TreeFileError) {
        var remaining = maximumExpandedNodeCount
        func fits(_ node: Node) -> Bool {
            remaining -= 1
            guard remaining >= 0 else { return false }
            switch node {
            case .scalar, .alias: return true
            case .mapping(let mapping): return mapping.allSatisfy { fits($0.key) && fits($0.value) }
            case .sequence(let sequence): return sequence.allSatisfy(fits)
            }
        }
        guard fits(document) else {
            let message = "the document holds more than \(maximumExpandedNodeCount) nodes once its aliases are expanded: not a tree file"
            throw TreeFileError(issues: [TreeFileError.Issue(path: [], message: message, line: document.mark?.line)])
        }
    }

    /// A Yams syntax error in one line: its own description quotes the whole snippet, or for
    /// duplicate keys the whole file.
    private static func issue(for error: YamlError) -> TreeFileError.Issue {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _), .composer(let context, let problem, let mark, _):
            let during = context.map { " (\($0.text) on line \($0.mark.line))" } ?? ""
            return TreeFileError.Issue(path: [], message: "not valid YAML: \(problem)\(during)", line: mark.line)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "\"\($0)\"" }.joined(separator: ", ")
            return TreeFileError.Issue(path: [], message: "not valid YAML: duplicate key \(keys) in a mapping", line: context.mark.line)
        case .reader(let problem, let offset, _, let yaml):
            return TreeFileError.Issue(path: [], message: "not valid YAML: \(problem)", line: offset.map { line(at: $0, in: yaml) })
        default:
            return TreeFileError.Issue(path: [], message: "not valid YAML: \(error)")
        }
    }

    /// The line, from 1, of a character offset, as libyaml counts the lines of its other errors.
    private static func line(at offset: Int, in text: String) -> Int {
        1 + text.prefix(offset).count(where: \.isNewline)
    }

    /// The error with each issue's line: where its place starts in the document.
    private static func withLines(_ error: TreeFileError, from document: Node) -> TreeFileError {
        var error = error
        for index in error.issues.indices {
            error.issues[index].line = mark(of: error.issues[index].path, in: document)?.line
        }
        return error
    }

    /// Where a place starts: a key where the place is a mapping's value (so an unknown key's
    /// line is the key's), the item where it is a list's. A place the document does not hold
    /// as such (a key from a `<<` merge) gets its nearest enclosing place's mark.
    private static func mark(of path: [TreeFileError.PathComponent], in document: Node) -> Mark? {
        var node = document
        var mark = document.mark
        for component in path {
            switch (component, node) {
            case (.key(let key), .mapping(let mapping)):
                guard let pair = mapping.first(where: { $0.key.string == key }) else { return mark }
                mark = pair.key.mark
                node = pair.value
            case (.index(let index), .sequence(let sequence)) where sequence.indices.contains(index):
                node = sequence[index]
                mark = node.mark
            default:
                return mark
            }
        }
        return mark
    }
}
