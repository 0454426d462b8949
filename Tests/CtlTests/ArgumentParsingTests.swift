import AppStateCtlKit
import AppStateIPC
import TestSupport
import XCTest

final class ArgumentParsingTests: AppStateTestCase {
    func testUserInfoValuesAreJSONWhenValidElseStrings() throws {
        let userInfo = try UserInfoArguments.parse([
            "height=336", "ratio=0.5", "animated=true", "hidden=false", "owner=null", "name=\"007\"",
            #"frame={"x":0,"y":464}"#, "tags=[1,\"a\"]", "user=ada", "code=007", "empty=", "equation=a=b",
        ])
        XCTAssertEqual(
            userInfo,
            [
                "height": 336, "ratio": 0.5, "animated": true, "hidden": false, "owner": nil, "name": "007",
                "frame": ["x": 0, "y": 464], "tags": [1, "a"], "user": "ada", "code": "007", "empty": "",
                "equation": "a=b",
            ])
    }

    func testUserInfoRejectsWordsWithoutAKey() {
        XCTAssertThrowsError(try UserInfoArguments.parse(["ada"])) {
            XCTAssertEqual(($0 as? ArgumentError)?.description, "\"ada\" is not KEY=VALUE")
        }
        XCTAssertThrowsError(try UserInfoArguments.parse(["=1"])) {
            XCTAssertEqual(($0 as? ArgumentError)?.description, "\"=1\" has no key before =")
        }
        XCTAssertThrowsError(try UserInfoArguments.parse(["a=1", "a=2"])) {
            XCTAssertEqual(($0 as? ArgumentError)?.description, "the key \"a\" is given twice")
        }
    }

    func testWindowSizeAcceptsTheWaysPeopleWriteScreenSizes() throws {
        XCTAssertEqual(try WindowSize(parsing: "1280x800"), WindowSize(width: 1280, height: 800))
        XCTAssertEqual(try WindowSize(parsing: "800X1280"), WindowSize(width: 800, height: 1280))
        XCTAssertEqual(try WindowSize(parsing: "1280×800"), WindowSize(width: 1280, height: 800))
        XCTAssertEqual(try WindowSize(parsing: "1366.5x768"), WindowSize(width: 1366.5, height: 768))
    }

    func testWindowSizeRejectsMalformedAndImpossibleSizes() {
        for text in ["1280", "1280x", "x800", "axb", "1280x800x2", "", "1280 x 800"] {
            XCTAssertThrowsError(try WindowSize(parsing: text), text) {
                XCTAssertEqual(($0 as? ArgumentError)?.description, "\"\(text)\" is not WIDTHxHEIGHT, e.g. 1280x800")
            }
        }
        XCTAssertThrowsError(try WindowSize(parsing: "0x800")) {
            XCTAssertEqual(($0 as? ArgumentError)?.description, "the width must be above 0 and at most 1000000, not 0")
        }
        XCTAssertThrowsError(try WindowSize(parsing: "1280x-5")) {
            XCTAssertEqual(($0 as? ArgumentError)?.description, "the height must be above 0 and at most 1000000, not -5")
        }
        XCTAssertThrowsError(try WindowSize(parsing: "1280x2000000"))
        XCTAssertThrowsError(try WindowSize(parsing: "nanx800"))
    }

    func testPageTargets() throws {
        XCTAssertEqual(try PageTarget.parse("next"), .step(1))
        XCTAssertEqual(try PageTarget.parse("previous"), .step(-1))
        XCTAssertEqual(try PageTarget.parse("prev"), .step(-1))
        XCTAssertEqual(try PageTarget.parse("2"), .index(2))
        XCTAssertEqual(try PageTarget.parse("settings"), .id("settings"))
        XCTAssertThrowsError(try PageTarget.parse("-1")) {
            XCTAssertEqual(($0 as? ArgumentError)?.description, "page indexes start at 0, so -1 is not one")
        }
        XCTAssertThrowsError(try PageTarget.parse(""))
    }

    func testSocketLocationPrefersTheOptionThenTheEnvironment() throws {
        XCTAssertEqual(try SocketLocation.resolve(option: "/a", environment: "/b", fallback: { "/c" }), "/a")
        XCTAssertEqual(try SocketLocation.resolve(option: nil, environment: "/b", fallback: { "/c" }), "/b")
        XCTAssertEqual(try SocketLocation.resolve(option: nil, environment: "", fallback: { "/c" }), "/c")
        XCTAssertEqual(try SocketLocation.resolve(option: nil, environment: nil, fallback: { "/c" }), "/c")
    }

    /// The default is asked for only when it is needed, so a missing `XDG_RUNTIME_DIR` is no
    /// error for a command given a socket.
    func testSocketLocation_whenASocketIsGiven_thenTheDefaultIsNotAskedFor() throws {
        let noDefault = { () throws(DefaultSocketPathError) -> String in
            throw DefaultSocketPathError(effectiveUserID: 1000, runtimeDirectory: nil)
        }
        XCTAssertEqual(try SocketLocation.resolve(option: "/a", environment: nil, fallback: noDefault), "/a")
        XCTAssertEqual(try SocketLocation.resolve(option: nil, environment: "/b", fallback: noDefault), "/b")
    }

    func testSocketLocation_whenThereIsNoDefault_thenAUsageErrorSayingWhatToPass() {
        for (runtimeDirectory, reason) in [
            (nil, "XDG_RUNTIME_DIR is not set"), ("run/user", #"XDG_RUNTIME_DIR is "run/user", not an absolute path"#),
        ] {
            let noDefault = { () throws(DefaultSocketPathError) -> String in
                throw DefaultSocketPathError(effectiveUserID: 1000, runtimeDirectory: runtimeDirectory)
            }
            XCTAssertThrowsError(try SocketLocation.resolve(option: nil, environment: "", fallback: noDefault)) { error in
                XCTAssertEqual(
                    error as? CtlError,
                    CtlError(
                        message: "no socket given, and \(reason), so uid 1000 has no default socket; pass --socket PATH or set APPSTATE_SOCKET",
                        exitCode: 64
                    ))
            }
        }
    }
}
