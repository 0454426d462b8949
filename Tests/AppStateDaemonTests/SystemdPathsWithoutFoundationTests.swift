import Glibc
import TestSupport
import XCTest

@testable import AppStateDaemon

/// The POSIX code the daemon uses in place of Foundation: path strings joined and split as
/// `NSString` does it, the environment read as `ProcessInfo` reads it, and the state directory
/// made as `mkdir -p` makes it.
final class SystemdPathsWithoutFoundationTests: AppStateTestCase {
    func testPathText_whenJoining_thenOneSlash() {
        XCTAssertEqual(PathText.appending("appstate", to: "/run/user/1000"), "/run/user/1000/appstate")
        XCTAssertEqual(PathText.appending("appstate", to: "/run/user/1000/"), "/run/user/1000/appstate")
        XCTAssertEqual(PathText.appending("appstate", to: "/"), "/appstate")
    }

    func testPathText_whenParent_thenAsNSStringDeletingLastPathComponent() {
        XCTAssertEqual(PathText.parent(of: "/run/appstate/io.appstate"), "/run/appstate")
        XCTAssertEqual(PathText.parent(of: "/run/appstate/"), "/run")
        XCTAssertEqual(PathText.parent(of: "/io.appstate"), "/")
        XCTAssertEqual(PathText.parent(of: "io.appstate"), "")
        XCTAssertEqual(PathText.parent(of: "dir/io.appstate"), "dir")
    }

    func testProcessEnvironment_whenRead_thenHoldsWhatGetenvSays() throws {
        XCTAssertEqual(setenv("APPSTATE_ENVIRONMENT_TEST", "a=b", 1), 0)
        defer { unsetenv("APPSTATE_ENVIRONMENT_TEST") }

        let environment = ProcessEnvironment.current

        XCTAssertEqual(environment["APPSTATE_ENVIRONMENT_TEST"], "a=b")
        XCTAssertEqual(environment["PATH"], String(cString: try XCTUnwrap(getenv("PATH"))))
    }

    func testCreateIfNeeded_whenParentsMissing_thenCreatesEachWithMode0700() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/state/appstate"

        try StateDirectory.createIfNeeded(at: path)
        try StateDirectory.createIfNeeded(at: path)

        for created in [directory.path + "/state", path] {
            var status = stat()
            XCTAssertEqual(stat(created, &status), 0, created)
            XCTAssertEqual(status.st_mode & S_IFMT, S_IFDIR, created)
            XCTAssertEqual(status.st_mode & 0o777, 0o700, created)
        }
    }

    func testCreateIfNeeded_whenAFileIsInTheWay_thenDirectoryCreationFailedWithTheReason() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/file"
        let descriptor = open(file, O_CREAT | O_WRONLY, 0o600)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        close(descriptor)

        XCTAssertThrowsError(try StateDirectory.createIfNeeded(at: file + "/appstate")) { error in
            XCTAssertEqual((error as? SystemdError)?.code, .directoryCreationFailed)
            XCTAssertEqual("\(error)", "cannot create state directory \(file)/appstate: File exists")
        }
    }
}
