import FoundationEssentials
import StateContainers

/// A tree file as the daemon hosts it: the model's trees (a ``TreeFile``), each with the
/// daemon's policy beside it (``HostedTreeSpec``).
///
/// ```yaml
/// version: 1
/// trees:
///   - name: kiosk
///     root: { type: LoginStateController, id: session, children: [...] }
///     logindSeat: seat0
///     idle: [{ after: 300, lock: true }]
/// ```
/// Decoding and validation are the model's (``TreeFile/decode(using:)``), with the daemon's
/// keys read and checked beside the model's: every problem of the file comes at once, in the
/// order of the file.
package struct HostedTreeFile: Hashable, Sendable {
    /// The format version of the file.
    package var version: Int
    /// The trees, the first being the one clients get when they name none.
    package var trees: [HostedTreeSpec]

    /// Creates a tree file.
    /// - Parameters:
    ///   - version: The format version.
    ///   - trees: The trees.
    package init(version: Int = TreeFile.currentVersion, trees: [HostedTreeSpec]) {
        self.version = version
        self.trees = trees
    }

    /// Hosts the model's trees as they are: following nothing, with no idle steps.
    /// - Parameter file: The trees.
    package init(_ file: TreeFile) {
        self.init(version: file.version, trees: file.trees.map { HostedTreeSpec($0) })
    }

    /// The trees the model builds.
    package var model: TreeFile {
        TreeFile(version: version, trees: trees.map(\.spec))
    }

    /// The embedded default tree (``TreeFile/default``): the trees the daemon runs without a
    /// tree file.
    /// - Throws: ``TreeFileError`` if the embedded file is invalid, which the package's tests rule out.
    package static var `default`: HostedTreeFile {
        get throws(TreeFileError) { HostedTreeFile(try TreeFile.default) }
    }

    /// Decodes and validates a JSON tree file.
    /// - Parameter json: The file's bytes.
    /// - Returns: The valid tree file.
    /// - Throws: ``TreeFileError`` with every unknown key and validation problem, or the
    ///   first structural problem (invalid JSON, a value of the wrong type, a missing key).
    package static func decode(json: [UInt8]) throws(TreeFileError) -> HostedTreeFile {
        try decode { userInfo in try TreeFile.decodeJSON(HostedTreeFile.self, from: Data(json), userInfo: userInfo) }
    }

    /// Decodes with a decoder of the caller's choosing (libyaml's, for YAML), then validates,
    /// as ``TreeFile/decode(using:)`` does for the model's trees.
    /// - Parameter decode: Decodes a ``HostedTreeFile``, passing `userInfo` to the decoder.
    /// - Returns: The valid tree file.
    /// - Throws: ``TreeFileError`` with every unknown key and validation problem, or the first
    ///   `DecodingError` as an issue at its coding path (with the unknown keys met before it).
    package static func decode(
        using decode: (_ userInfo: [CodingUserInfoKey: any Sendable]) throws -> HostedTreeFile
    ) throws(TreeFileError) -> HostedTreeFile {
        var decoded: HostedTreeFile?
        var issues: [TreeFileError.Issue] = []
        do {
            _ = try TreeFile.decode { userInfo in
                let file = try decode(userInfo)
                decoded = file
                return file.model
            }
        } catch {
            issues = error.issues
        }
        issues += decoded?.policyProblems ?? []
        guard let decoded, issues.isEmpty else { throw TreeFileError(issues: TreeValidator.inFileOrder(issues, keys: keyNames)) }
        return decoded
    }

    /// Checks a tree file made in code (decoding checks those it reads): the model's trees and
    /// the daemon's keys.
    /// - Throws: ``TreeFileError`` with every problem, by its place in the file.
    package func validate() throws(TreeFileError) {
        var issues: [TreeFileError.Issue] = []
        do {
            try model.validate()
        } catch {
            issues = error.issues
        }
        issues += policyProblems
        guard issues.isEmpty else { throw TreeFileError(issues: TreeValidator.inFileOrder(issues, keys: Self.keyNames)) }
    }

    /// The problems of the daemon's keys of every tree.
    private var policyProblems: [TreeFileError.Issue] {
        trees.enumerated().flatMap { index, tree in tree.problems(at: [.key("trees"), .index(index)]) }
    }
}

extension HostedTreeFile: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case version, trees
    }

    /// The keys of the file that are not the model's alone, with the model's beside them, in
    /// the order the format documents them: how problems are put in the order of the file.
    static let keyNames =
        CodingKeys.allCases.map(\.stringValue) + HostedTreeSpec.keyNames + IdleStep.CodingKeys.allCases.map(\.stringValue)

    /// Decodes a tree file, rejecting unknown keys; a missing `version` is
    /// ``TreeFile/currentVersion``.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a value of the wrong type, a missing `trees`, or an unknown
    ///   key when the decoder collects none (see ``decode(using:)``).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        version = try container.decodeIntegerIfPresent(forKey: .version) ?? TreeFile.currentVersion
        trees = try container.decode([HostedTreeSpec].self, forKey: .trees)
    }

    /// Encodes the tree file.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(trees, forKey: .trees)
    }
}
