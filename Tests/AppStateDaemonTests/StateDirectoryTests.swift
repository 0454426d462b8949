import Foundation
import TestSupport
import XCTest

@testable import AppStateDaemon

final class StateDirectoryTests: AppStateTestCase {
    func testResolveStateDirectory_whenUnderSystemd_thenIsFirstStateDirectoryEntryEvenWithExplicit() throws {
        XCTAssertEqual(
            try StateDirectory.resolve(explicit: "/srv/mine", environment: ["STATE_DIRECTORY": "/var/lib/appstate:/var/lib/other"], uid: 999),
            "/var/lib/appstate"
        )
        XCTAssertEqual(
            try StateDirectory.resolve(explicit: nil, environment: ["STATE_DIRECTORY": "/var/lib/appstate"], uid: 0),
            "/var/lib/appstate"
        )
    }

    func testResolveStateDirectory_whenExplicitAndNotUnderSystemd_thenIsExplicit() throws {
        XCTAssertEqual(
            try StateDirectory.resolve(explicit: "/srv/mine", environment: ["HOME": "/home/u", "XDG_STATE_HOME": "/x"], uid: 1000),
            "/srv/mine"
        )
    }

    func testResolveStateDirectory_whenRootByHand_thenIsVarLibAppstate() throws {
        XCTAssertEqual(try StateDirectory.resolve(explicit: nil, environment: ["HOME": "/root"], uid: 0), "/var/lib/appstate")
    }

    func testResolveStateDirectory_whenUserWithXdgStateHome_thenIsUnderIt() throws {
        XCTAssertEqual(
            try StateDirectory.resolve(explicit: nil, environment: ["XDG_STATE_HOME": "/home/u/state", "HOME": "/home/u"], uid: 1000),
            "/home/u/state/appstate"
        )
    }

    func testResolveStateDirectory_whenUserWithoutXdgStateHome_thenIsUnderHomeLocalState() throws {
        XCTAssertEqual(
            try StateDirectory.resolve(explicit: nil, environment: ["HOME": "/home/u"], uid: 1000),
            "/home/u/.local/state/appstate"
        )
        // A relative XDG_STATE_HOME is invalid per the XDG specification and ignored.
        XCTAssertEqual(
            try StateDirectory.resolve(explicit: nil, environment: ["HOME": "/home/u", "XDG_STATE_HOME": "state"], uid: 1000),
            "/home/u/.local/state/appstate"
        )
    }

    func testResolveStateDirectory_whenHomeUnset_thenUsesPasswordDatabase() throws {
        // uid 1 ("daemon" on Debian) exists on every Linux system this runs on.
        let entry = try XCTUnwrap(getpwuid(1), "uid 1 has no password entry here")
        let home = String(cString: entry.pointee.pw_dir)
        XCTAssertEqual(
            try StateDirectory.resolve(explicit: nil, environment: [:], uid: 1),
            (home as NSString).appendingPathComponent(".local/state/appstate")
        )
    }

    func testResolveStateDirectory_whenNoHomeAnywhere_thenThrowsHomeDirectoryUnknown() throws {
        let stranger: uid_t = 3_999_999_999
        XCTAssertNil(getpwuid(stranger))
        XCTAssertThrowsError(try StateDirectory.resolve(explicit: nil, environment: [:], uid: stranger)) { error in
            XCTAssertEqual((error as? SystemdError)?.code, .homeDirectoryUnknown)
            XCTAssertTrue("\(error)".contains("--state-dir"), "the error should say how to proceed: \(error)")
        }
    }

    func testCreateStateDirectory_whenMissing_thenCreatesPrivateDirectoryWithParents() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/home/.local/state/appstate"
        try StateDirectory.createIfNeeded(at: path)
        var status = stat()
        XCTAssertEqual(stat(path, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFDIR)
        XCTAssertEqual(status.st_mode & 0o777, 0o700)
        try StateDirectory.createIfNeeded(at: path)
    }

    func testCreateStateDirectory_whenFileInTheWay_thenThrows() throws {
        let directory = try TemporaryDirectory()
        _ = FileManager.default.createFile(atPath: directory.path + "/file", contents: Data())
        XCTAssertThrowsError(try StateDirectory.createIfNeeded(at: directory.path + "/file/appstate")) { error in
            XCTAssertEqual((error as? SystemdError)?.code, .directoryCreationFailed)
        }
    }
}
