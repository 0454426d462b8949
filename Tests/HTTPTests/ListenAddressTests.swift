import AppStateHTTP
import TestSupport
import XCTest

final class ListenAddressTests: AppStateTestCase {
    func testParsing_whenHostAndPort_thenReadsThem() throws {
        XCTAssertEqual(try ListenAddress(parsing: "127.0.0.1:8080"), ListenAddress(host: "127.0.0.1", port: 8080))
        XCTAssertEqual(try ListenAddress(parsing: "[::1]:0"), ListenAddress(host: "::1", port: 0))
        XCTAssertEqual(try ListenAddress(parsing: "localhost:65535").port, 65_535)
    }

    func testParsing_whenNotHostAndPort_thenThrowsASentence() {
        for text in ["127.0.0.1", ":80", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:http", ""] {
            XCTAssertThrowsError(try ListenAddress(parsing: text), text) { error in
                XCTAssertTrue("\(error)".hasPrefix("--listen takes HOST:PORT"), "\(error)")
            }
        }
    }

    func testLoopbackAndURLHost_whenIPv4IPv6OrOther_thenTellThemApart() {
        XCTAssertTrue(ListenAddress(host: "127.0.0.1", port: 0).isLoopback)
        XCTAssertTrue(ListenAddress(host: "::1", port: 0).isLoopback)
        XCTAssertFalse(ListenAddress(host: "0.0.0.0", port: 0).isLoopback)
        XCTAssertEqual(ListenAddress(host: "::1", port: 0).urlHost, "[::1]")
        XCTAssertEqual(ListenAddress(host: "127.0.0.1", port: 0).urlHost, "127.0.0.1")
    }

    func testEndpoint_whenUnixOrHostAndPort_thenReadsEither() throws {
        XCTAssertEqual(try HTTPEndpoint(parsing: "unix:/run/appstate-gateway/http.sock"), .unixSocket(path: "/run/appstate-gateway/http.sock"))
        XCTAssertEqual(try HTTPEndpoint(parsing: "127.0.0.1:8470"), .tcp(ListenAddress(host: "127.0.0.1", port: 8470)))
        for text in ["unix:", "unix:relative/path", "unix:/" + String(repeating: "x", count: 120), "127.0.0.1", "8080"] {
            XCTAssertThrowsError(try HTTPEndpoint(parsing: text), text) { error in
                XCTAssertTrue("\(error)".contains("or unix:PATH with an absolute path"), "\(error)")
            }
        }
    }

    func testLoopbackOrigins_whenLoopbackTCPOtherTCPOrUnix_thenOnlyLoopbackHasOrigins() {
        XCTAssertEqual(HTTPListenerAddress.tcp(host: "127.0.0.1", port: 8470).loopbackOrigins, ["http://127.0.0.1:8470", "http://localhost:8470"])
        XCTAssertEqual(HTTPListenerAddress.tcp(host: "::1", port: 8470).loopbackOrigins, ["http://[::1]:8470", "http://localhost:8470"])
        XCTAssertEqual(HTTPListenerAddress.tcp(host: "192.0.2.1", port: 8470).loopbackOrigins, [])
        XCTAssertEqual(HTTPListenerAddress.unixSocket(path: "/run/x.sock").loopbackOrigins, [])
        XCTAssertEqual(HTTPListenerAddress.tcp(host: "::1", port: 80).url, "http://[::1]:80")
    }
}
