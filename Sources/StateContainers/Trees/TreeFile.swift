import FoundationEssentials

/// A tree file, like a storyboard: named trees of controllers.
///
/// ```yaml
/// version: 1          # optional; the only version there is
/// trees:
///   - name: default
///     window: { width: 1280, height: 800 }
///     root: { type: Controller, id: main }
/// ```
/// Read one with ``decode(json:)-([UInt8])`` or ``decode(using:)``: both decode and validate,
/// and report every problem of the file at once in a ``TreeFileError``. The daemon reads its
/// tree files, whose trees may hold keys of the daemon's own as well (see <doc:TreeFiles>),
/// through the same decoding and checks.
public struct TreeFile: Hashable, Sendable {
    /// The format version this build reads.
    public static let currentVersion = 1

    /// The format version of the file.
    public var version: Int
    /// The trees, the first being the one clients get when they name none.
    public var trees: [TreeSpec]

    /// Creates a tree file.
    /// - Parameters:
    ///   - version: The format version.
    ///   - trees: The trees.
    public init(version: Int = TreeFile.currentVersion, trees: [TreeSpec]) {
        self.version = version
        self.trees = trees
    }

    /// The embedded default tree, `default-tree.json` (drawn in <doc:TreeFiles>): the tree the
    /// daemon runs without a tree file, showing every container.
    /// - Throws: ``TreeFileError`` if the embedded file is invalid, which the package's tests rule out.
    public static var `default`: TreeFile {
        get throws(TreeFileError) { try decode(json: PackageResources.default_tree_json) }
    }

    /// Decodes and validates a JSON tree file.
    /// - Parameter json: The file's bytes.
    /// - Returns: The valid tree file.
    /// - Throws: ``TreeFileError`` with every unknown key and validation problem, or the
    ///   first structural problem (invalid JSON, a value of the wrong type, a missing key).
    public static func decode(json: [UInt8]) throws(TreeFileError) -> TreeFile {
        try decode(json: Data(json))
    }

    /// Decodes and validates a JSON tree file.
    /// - Parameter json: The file's bytes.
    /// - Returns: The valid tree file.
    /// - Throws: ``TreeFileError`` with every unknown key and validation problem, or the
    ///   first structural problem (invalid JSON, a value of the wrong type, a missing key).
    public static func decode(json: Data) throws(TreeFileError) -> TreeFile {
        try decode { userInfo in try decodeJSON(TreeFile.self, from: json, userInfo: userInfo) }
    }

    /// Decodes JSON with Foundation's decoder as ``decode(json:)-(Data)`` does, into the model's
    /// tree file or another reader's: the daemon's, whose trees hold keys of its own.
    /// - Parameters:
    ///   - type: The type of the file.
    ///   - json: The file's bytes.
    ///   - userInfo: What ``decode(using:)`` passes to the decoder.
    /// - Returns: The file, not yet validated.
    /// - Throws: `DecodingError`, for a NUL byte too.
    package static func decodeJSON<File: Decodable>(
        _ type: File.Type, from json: Data, userInfo: [CodingUserInfoKey: any Sendable]
    ) throws -> File {
        // Foundation takes text with NUL bytes for UTF-16 or UTF-32, or ends it at one, and
        // then reports nonsense without a place; in UTF-8 JSON a NUL is never valid.
        if let nul = json.firstIndex(of: 0) {
            let message = "not valid JSON: NUL byte around character \(json.distance(from: json.startIndex, to: nul))."
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: message))
        }
        let decoder = JSONDecoder()
        decoder.userInfo = userInfo
        return try decoder.decode(File.self, from: json)
    }

    /// Decodes with a decoder of the caller's choosing (the service reads YAML with libyaml this
    /// way), then validates.
    /// - Parameter decode: Decodes a ``TreeFile``, passing `userInfo` to the decoder: it lets
    ///   the spec types collect every unknown key instead of throwing at the first.
    /// - Returns: The valid tree file.
    /// - Throws: ``TreeFileError`` with every unknown key and validation problem, or the first
    ///   `DecodingError` as an issue at its coding path (with the unknown keys met before it).
    ///   Other errors `decode` throws become an issue for the whole file.
    public static func decode(using decode: (_ userInfo: [CodingUserInfoKey: any Sendable]) throws -> TreeFile) throws(TreeFileError) -> TreeFile {
        let collector = UnknownKeyCollector()
        let file: TreeFile
        do {
            file = try decode([UnknownKeyCollector.key: collector])
        } catch let error as DecodingError {
            throw TreeFileError(issues: TreeValidator.inFileOrder(collector.issues + [TreeFileError.Issue(error)]))
        } catch {
            throw TreeFileError("\(error)")
        }
        var validator = TreeValidator()
        validator.validate(file)
        let issues = TreeValidator.inFileOrder(collector.issues + validator.issues)
        guard issues.isEmpty else { throw TreeFileError(issues: issues) }
        return file
    }

    /// Checks a tree file made in code (decoding checks those it reads): versions, names,
    /// identifiers, children for each type, and the keys each type accepts.
    /// - Throws: ``TreeFileError`` with every problem, by its place in the file.
    public func validate() throws(TreeFileError) {
        var validator = TreeValidator()
        validator.validate(self)
        guard validator.issues.isEmpty else { throw TreeFileError(issues: validator.issues) }
    }
}

extension TreeFile: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case version, trees
    }

    /// Decodes a tree file, rejecting unknown keys; a missing `version` is ``currentVersion``.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a value of the wrong type, a missing `trees`, or an unknown
    ///   key when the decoder collects none (see ``decode(using:)``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        version = try container.decodeIntegerIfPresent(forKey: .version) ?? Self.currentVersion
        trees = try container.decode([TreeSpec].self, forKey: .trees)
    }

    /// Encodes the tree file.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(trees, forKey: .trees)
    }
}
