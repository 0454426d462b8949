import AppStateGatewayKit
import Foundation
import TestSupport
import XCTest

final class TokenFileTests: AppStateTestCase {
    func testLoad_whenTheFileIsAbsent_thenCreatesIt0640WithANewTokenWhateverTheUmask() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/token"
        let previous = umask(0o000)
        defer { umask(previous) }
        let token = try TokenFile.load(path)
        XCTAssertEqual(token.text.count, 32)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o640)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), token.text + "\n")
        XCTAssertEqual(try TokenFile.load(path), token, "read again, not drawn again")
    }

    func testLoad_whenTheFileHoldsATokenWithSpaceAround_thenReadsIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/token"
        try "  kiosk-token-0123456789\n\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(try TokenFile.load(path).text, "kiosk-token-0123456789")
    }

    func testLoad_whenTheFileHoldsNoTokenOrCannotBeCreated_thenThrowsASentence() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/token"
        try "short\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try TokenFile.load(path)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(path) holds no token"), "\(error)")
        }
        XCTAssertThrowsError(try TokenFile.load(directory.path + "/missing/token")) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot create the token file"), "\(error)")
        }
    }
}
