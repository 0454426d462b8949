import Foundation
import TestSupport
import XCTest

@testable import VarlinkServer

/// The directory a server's socket goes in: made when missing, as far as its parent exists.
final class SocketDirectoryTests: AppStateTestCase {
    func testCreateParentDirectory_whenMissing_thenCreatesItAndToleratesExisting() throws {
        let directory = try TemporaryDirectory()
        let socketPath = directory.path + "/appstate/io.appstate"
        try VarlinkServer.createParentDirectory(of: socketPath)
        var status = stat()
        XCTAssertEqual(stat(directory.path + "/appstate", &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFDIR)
        XCTAssertEqual(status.st_mode & 0o777, 0o755 & ~currentUmask())
        try VarlinkServer.createParentDirectory(of: socketPath)
    }

    func testCreateParentDirectory_whenGrandparentMissingOrFileInTheWay_thenThrows() throws {
        let directory = try TemporaryDirectory()
        XCTAssertThrowsError(try VarlinkServer.createParentDirectory(of: directory.path + "/a/b/io.appstate")) { error in
            XCTAssertTrue("\(error)".contains("No such file or directory"), "\(error)")
        }
        _ = FileManager.default.createFile(atPath: directory.path + "/file", contents: Data())
        XCTAssertThrowsError(try VarlinkServer.createParentDirectory(of: directory.path + "/file/io.appstate")) { error in
            XCTAssertTrue(error is ServerError, "\(error)")
        }
    }
}
