import Foundation

/// The inputs committed beside the fuzz targets in Fuzz/TARGET.
///
/// One copy for every test target that replays a fuzz target's inputs (the frame decoder's in
/// AppStateIPCTests, the dispatcher's in AppStateHostTests, the tree files' in TreeFilesTests), so that
/// they all read the corpus and the regressions from the same place in the same order.
public enum FuzzInputs {
    /// A fuzz target's seed corpus (Fuzz/TARGET/corpus) and the inputs it found that once
    /// broke an invariant (Fuzz/TARGET/regressions).
    /// - Parameter target: The target's folder name in Fuzz/.
    /// - Returns: Each input's path below the target's folder and its bytes.
    /// - Throws: When a folder that exists cannot be read.
    public static func committed(to target: String) throws -> [(name: String, bytes: [UInt8])] {
        try files(in: "corpus", of: target) + regressions(of: target)
    }

    /// The inputs a fuzz target found that once broke an invariant (Fuzz/TARGET/regressions).
    /// - Parameter target: The target's folder name in Fuzz/.
    /// - Returns: Each input's path below the target's folder and its bytes; none when the
    ///   target never found anything.
    /// - Throws: When the folder exists but cannot be read.
    public static func regressions(of target: String) throws -> [(name: String, bytes: [UInt8])] {
        try files(in: "regressions", of: target)
    }

    private static func files(in folder: String, of target: String) throws -> [(name: String, bytes: [UInt8])] {
        let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/\(target)/\(folder)")
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map { name in
            ("\(folder)/\(name)", try [UInt8](Data(contentsOf: directory.appendingPathComponent(name))))
        }
    }
}
