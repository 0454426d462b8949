import Foundation

/// Where the built executables are: next to the test bundle, in the build directory.
enum Products {
    static var directory: URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var candidate = bundle.deletingLastPathComponent()
        while candidate.path != "/" {
            if FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent("appstated").path) { return candidate }
            candidate = candidate.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug")
    }

    static var appstated: URL { directory.appendingPathComponent("appstated") }
    static var appstatectl: URL { directory.appendingPathComponent("appstatectl") }

    /// The repository's root, for files the tests read (examples, unit files).
    static var repository: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The Python interpreter of the venv `make test` creates, with the `varlink` package.
    static var python: URL {
        let venv = ProcessInfo.processInfo.environment["APPSTATE_VENV"].map(URL.init(fileURLWithPath:))
            ?? repository.appendingPathComponent(".venv")
        return venv.appendingPathComponent("bin/python")
    }
}
