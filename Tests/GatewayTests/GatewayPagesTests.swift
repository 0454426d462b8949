import AppStateGatewayKit
import AppStateHTTP
import Foundation
import TestSupport
import XCTest

final class GatewayPagesTests: AppStateTestCase {
    private func contentType(_ response: HTTPResponse) -> String? {
        response.headers.first { $0.name == "Content-Type" }?.value
    }

    func testEmbedded_whenTheKioskFiles_thenServesThemWithTheirTypesAndBytes() throws {
        let kiosk = TestPaths.repositoryRoot.appendingPathComponent("Sources/AppStateGatewayKit/Kiosk")
        for (file, type) in [("index.html", "text/html"), ("kiosk.css", "text/css"), ("kiosk.js", "text/javascript")] {
            let response = GatewayPages.embedded.response(for: file)
            XCTAssertEqual(response.status, 200, file)
            XCTAssertEqual(contentType(response)?.hasPrefix(type), true, file)
            XCTAssertEqual(response.body, Array(try Data(contentsOf: kiosk.appendingPathComponent(file))), file)
        }
        XCTAssertEqual(GatewayPages.embedded.response(for: "README.md").status, 404)
        XCTAssertTrue(String(decoding: GatewayPages.module, as: UTF8.self).contains("export function connect("))
    }

    func testDirectory_whenAFileIsBelowIt_thenServesItAndNothingOutside() throws {
        let directory = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/sub", withIntermediateDirectories: true)
        try "<p>own</p>".write(toFile: directory.path + "/index.html", atomically: true, encoding: .utf8)
        try "body{}".write(toFile: directory.path + "/sub/site.css", atomically: true, encoding: .utf8)
        try "secret".write(toFile: outside.path + "/secret.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory.path + "/escape.txt", withDestinationPath: outside.path + "/secret.txt")
        let pages = GatewayPages.directory(directory.path)
        XCTAssertEqual(pages.response(for: "index.html").body, Array("<p>own</p>".utf8))
        XCTAssertEqual(contentType(pages.response(for: "sub/site.css")), "text/css; charset=utf-8")
        XCTAssertEqual(pages.response(for: "escape.txt").status, 404, "a link out of the directory")
        XCTAssertEqual(pages.response(for: "sub").status, 404, "a directory")
        XCTAssertEqual(pages.response(for: "absent.html").status, 404)
    }

    func testContentType_whenKnownOrUnknownExtension_thenMediaTypeOrOctetStream() {
        XCTAssertEqual(GatewayPages.contentType(of: "a/b.SVG"), "image/svg+xml")
        XCTAssertEqual(GatewayPages.contentType(of: "app.mjs"), "text/javascript; charset=utf-8")
        XCTAssertEqual(GatewayPages.contentType(of: "data.bin"), "application/octet-stream")
        XCTAssertEqual(GatewayPages.contentType(of: "Makefile"), "application/octet-stream")
    }
}
