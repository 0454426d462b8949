import Glibc

/// The browser's profile directory: the one the user gives with `--user-data-dir=`, else a
/// fresh one for this run, removed at its end. A fresh profile carries nothing over from an
/// earlier run, and never meets a browser the same user runs elsewhere (a browser whose
/// profile is in use hands its pages to that browser and exits).
struct KioskProfile {
    /// The argument to pass on; empty when the user gave a profile.
    let arguments: [String]
    private let temporary: String?

    /// Creates a temporary profile unless `arguments` name one.
    /// - Parameter arguments: The user's browser arguments.
    /// - Throws: ``KioskError`` when the directory cannot be made.
    init(arguments: [String]) throws(KioskError) {
        if arguments.contains(where: { $0.hasPrefix("--user-data-dir=") }) {
            self.arguments = []
            temporary = nil
            return
        }
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/appstate-kiosk.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw .browserNotStarted("a profile in \(base)", reason: String(cString: strerror(errno)))
        }
        let path = String(cString: made)
        self.arguments = ["--user-data-dir=\(path)"]
        temporary = path
    }

    /// Removes the temporary profile, if there is one.
    func remove() {
        guard let temporary else { return }
        Self.removeTree(temporary)
    }

    private static func removeTree(_ path: String) {
        guard let directory = opendir(path) else {
            unlink(path)
            return
        }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            let child = "\(path)/\(name)"
            if entry.pointee.d_type == UInt8(DT_DIR) { removeTree(child) } else { unlink(child) }
        }
        closedir(directory)
        rmdir(path)
    }
}
