import Foundation

/// Where the built executables are: next to the test executable, in the build directory
/// it was built into.
///
/// Only there: a sanitized build (`scripts/sanitize`, `--scratch-path .build-asan`) must run
/// its own sanitized `appstated`, so a missing product fails the tests that start it instead
/// of quietly running one from another build directory.
enum Products {
    static var directory: URL {
        // On Linux the `.xctest` bundle is the executable itself.
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    static var appstated: URL { directory.appendingPathComponent("appstated") }
    static var appstatectl: URL { directory.appendingPathComponent("appstatectl") }
    static var appstateInspect: URL { directory.appendingPathComponent("appstate-inspect") }
    static var appstateGateway: URL { directory.appendingPathComponent("appstate-gateway") }
    static var appstateKiosk: URL { directory.appendingPathComponent("appstate-kiosk") }

    /// The repository's root, for files the tests read (examples, unit files).
    static var repository: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The Python interpreter of the venv `make test` creates, with the `varlink` package.
    static var python: URL {
        let venv =
            ProcessInfo.processInfo.environment["APPSTATE_VENV"].map(URL.init(fileURLWithPath:))
            ?? repository.appendingPathComponent(".venv")
        return venv.appendingPathComponent("bin/python")
    }
}
