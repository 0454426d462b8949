import AppStateIPC
import Glibc
import TestSupport
import XCTest

/// The one rule for where the daemon listens when given no socket, which the daemon,
/// `appstatectl`, `appstate-inspect` and Swift clients share.
final class DefaultSocketPathTests: AppStateTestCase {
    func testDefaultSocketPath_whenRoot_thenTheSystemSocketWhateverTheRuntimeDirectory() throws {
        for runtimeDirectory in [nil, "", "run/user/0", "/run/user/0", "/run/user/0/"] {
            XCTAssertEqual(
                try AppStateInterface.defaultSocketPath(effectiveUserID: 0, runtimeDirectory: runtimeDirectory),
                "/run/appstate/io.appstate", "\(runtimeDirectory ?? "unset")"
            )
        }
        XCTAssertEqual(AppStateInterface.systemSocketPath, "/run/appstate/io.appstate")
    }

    func testDefaultSocketPath_whenUserWithAnAbsoluteRuntimeDirectory_thenUnderIt() throws {
        XCTAssertEqual(
            try AppStateInterface.defaultSocketPath(effectiveUserID: 1000, runtimeDirectory: "/run/user/1000"),
            "/run/user/1000/appstate/io.appstate"
        )
    }

    func testDefaultSocketPath_whenTheRuntimeDirectoryEndsInSlashes_thenTheyAreNotRepeated() throws {
        for runtimeDirectory in ["/run/user/1000/", "/run/user/1000//"] {
            XCTAssertEqual(
                try AppStateInterface.defaultSocketPath(effectiveUserID: 1000, runtimeDirectory: runtimeDirectory),
                "/run/user/1000/appstate/io.appstate", runtimeDirectory
            )
        }
        XCTAssertEqual(try AppStateInterface.defaultSocketPath(effectiveUserID: 1000, runtimeDirectory: "/"), "/appstate/io.appstate")
    }

    func testDefaultSocketPath_whenUserWithoutRuntimeDirectory_thenThrowsSayingToPassSocket() {
        for runtimeDirectory in [nil, ""] {
            XCTAssertThrowsError(try AppStateInterface.defaultSocketPath(effectiveUserID: 1000, runtimeDirectory: runtimeDirectory)) { error in
                XCTAssertEqual(error as? DefaultSocketPathError, DefaultSocketPathError(effectiveUserID: 1000, runtimeDirectory: runtimeDirectory))
                XCTAssertEqual(
                    "\(error)",
                    "XDG_RUNTIME_DIR is not set, so there is no default socket for uid 1000; pass --socket PATH"
                )
            }
        }
    }

    /// The XDG Base Directory Specification: a relative path in one of its variables is to be
    /// ignored, so it is no more a runtime directory than an unset variable.
    func testDefaultSocketPath_whenUserWithARelativeRuntimeDirectory_thenThrowsNamingIt() {
        for runtimeDirectory in ["run/user/1000", "./run", "~/run"] {
            XCTAssertThrowsError(try AppStateInterface.defaultSocketPath(effectiveUserID: 1000, runtimeDirectory: runtimeDirectory)) { error in
                XCTAssertEqual(
                    "\(error)",
                    "XDG_RUNTIME_DIR is \"\(runtimeDirectory)\", not an absolute path, so there is no default socket for uid 1000; pass --socket PATH"
                )
            }
        }
    }

    /// Without arguments the rule reads the process's effective user and its environment.
    func testDefaultSocketPath_whenGivenNothing_thenAnswersForThisProcess() throws {
        let runtimeDirectory = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
        switch Result(catching: { () throws(DefaultSocketPathError) in try AppStateInterface.defaultSocketPath() }) {
        case .success(let path):
            XCTAssertEqual(path, try AppStateInterface.defaultSocketPath(effectiveUserID: geteuid(), runtimeDirectory: runtimeDirectory))
        case .failure(let error):
            XCTAssertEqual(error, DefaultSocketPathError(effectiveUserID: geteuid(), runtimeDirectory: runtimeDirectory))
        }
    }
}
