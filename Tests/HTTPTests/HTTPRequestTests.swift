import AppStateHTTP
import NIOHTTP1
import TestSupport
import XCTest

final class HTTPRequestTests: AppStateTestCase {
    func testPathAndQuery_whenTheTargetHasAQuery_thenSplitAtTheFirstQuestionMark() {
        let request = HTTPRequest(method: "GET", target: "/watch?path=a?b&x")
        XCTAssertEqual(request.path, "/watch")
        XCTAssertEqual(request.query, "path=a?b&x")
        XCTAssertEqual(HTTPRequest(method: "GET", target: "/").query, "")
    }

    func testQueryValue_whenEncoded_thenDecodesPercentAndPlusAndTakesTheFirst() {
        let request = HTTPRequest(method: "GET", target: "/watch?path=session%2Fhome+x&path=second&empty=&flag&bad=%zz")
        XCTAssertEqual(request.queryValue("path"), "session/home x")
        XCTAssertEqual(request.queryValue("empty"), "")
        XCTAssertEqual(request.queryValue("flag"), "")
        XCTAssertNil(request.queryValue("bad"))
        XCTAssertNil(request.queryValue("absent"))
    }

    func testCookies_whenSeveralHeadersAndPairs_thenFindsEveryValueOfTheName() {
        let headers = HTTPHeaders([("Cookie", "a=1; token = x ;b=2"), ("cookie", "token=y"), ("Cookie", "broken")])
        let request = HTTPRequest(method: "GET", target: "/", headers: headers)
        XCTAssertEqual(request.cookies(named: "token"), ["x", "y"])
        XCTAssertEqual(request.cookies(named: "b"), ["2"])
        XCTAssertEqual(request.cookies(named: "broken"), [])
    }

    func testPercentDecoded_whenMalformedOrNotUTF8_thenNil() {
        XCTAssertEqual(HTTPRequest.percentDecoded("a%20b+c", plusAsSpace: false), "a b+c")
        XCTAssertEqual(HTTPRequest.percentDecoded("%C3%A9", plusAsSpace: false), "é")
        XCTAssertNil(HTTPRequest.percentDecoded("%", plusAsSpace: false))
        XCTAssertNil(HTTPRequest.percentDecoded("%4", plusAsSpace: false))
        XCTAssertNil(HTTPRequest.percentDecoded("%FF", plusAsSpace: false))
    }
}
