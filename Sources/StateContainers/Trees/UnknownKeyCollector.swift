import Synchronization

/// Gathers the unknown keys the spec decoders meet, so that a file with several typos gets
/// them all reported, together with the validation problems, instead of one per run.
///
/// Spec decoders find it in the decoder's `userInfo` under ``key``; without one they throw at
/// the first unknown key, so that a spec decoded by a plain decoder is never silently lenient.
final class UnknownKeyCollector: Sendable {
    /// Where the decoders look for the collector.
    static let key = CodingUserInfoKey(rawValue: "io.appstate.trees.unknownKeys")!

    // Decoders hold `userInfo` as Sendable values; the lock is what makes this one Sendable.
    private let found = Mutex<[TreeFileError.Issue]>([])

    /// The issues gathered so far.
    var issues: [TreeFileError.Issue] { found.withLock { $0 } }

    func add(_ issue: TreeFileError.Issue) {
        found.withLock { $0.append(issue) }
    }
}

extension Decoder {
    /// The keyed container of a spec mapping, after reporting each key of the mapping that
    /// `Key` does not know: to the ``UnknownKeyCollector`` in `userInfo` when there is one,
    /// else by throwing.
    /// - Parameter type: The keys the mapping may hold.
    /// - Throws: `DecodingError` when the value is not a mapping, or has an unknown key and
    ///   no collector is installed.
    package func strictContainer<Key: CodingKey & CaseIterable>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        _ = try strictContainer(expecting: Key.allCases.map(\.stringValue))
        return try container(keyedBy: Key.self)
    }

    /// The keyed container of a spec mapping whose keys are known by name only (a node's, whose
    /// kinds declare some), after reporting each key of the mapping not in `expected` as
    /// ``strictContainer(keyedBy:)`` does.
    /// - Parameters:
    ///   - expected: The keys the mapping may hold, in the order messages list them.
    ///   - known: `expected` as a set, when the caller keeps one.
    /// - Throws: `DecodingError` when the value is not a mapping, or has an unknown key and
    ///   no collector is installed.
    func strictContainer(expecting expected: [String], known: Set<String>? = nil) throws -> KeyedDecodingContainer<AnyCodingKey> {
        let container = try container(keyedBy: AnyCodingKey.self)
        let known = known ?? Set(expected)
        let unknownKeys = container.allKeys.filter { !known.contains($0.stringValue) }.sorted { $0.stringValue < $1.stringValue }
        for key in unknownKeys {
            let message = "unknown key \"\(key.stringValue)\" (expected one of \(expected.joined(separator: ", ")))"
            guard let collector = userInfo[UnknownKeyCollector.key] as? UnknownKeyCollector else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [key], debugDescription: message))
            }
            collector.add(TreeFileError.Issue(path: [TreeFileError.PathComponent](codingPath + [key]), message: message))
        }
        return container
    }
}
