import Foundation

/// What a disk may hold after a power cut: the state directory's files and their bytes, or
/// no state directory at all.
struct CrashState: Hashable, Sendable, CustomStringConvertible {
    /// Each file of the state directory by name; nil when the directory itself was lost.
    let files: [String: [UInt8]]?

    /// Makes the state directory at `path` hold exactly this (nothing when it was lost).
    /// - Throws: What creating the directory or a file throws.
    func materialize(at path: String) throws {
        guard let files else { return }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        for (name, bytes) in files {
            guard FileManager.default.createFile(atPath: path + "/" + name, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
                throw CrashTestError("cannot create \(path)/\(name)")
            }
        }
    }

    var description: String {
        guard let files else { return "no state directory" }
        if files.isEmpty { return "an empty state directory" }
        return files.sorted { $0.key < $1.key }.map { name, bytes in
            // Printable ASCII as is, anything else (the zeros of a torn write) as a dot.
            let text = String(bytes.prefix(60).map { (0x20..<0x7F).contains($0) ? Character(UnicodeScalar($0)) : "." })
            return "\(name) (\(bytes.count) bytes: \(text)\(bytes.count > 60 ? "…" : ""))"
        }.joined(separator: ", ")
    }
}
