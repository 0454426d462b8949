import AppStateHTTP
import TestSupport
import XCTest

final class ServerSentEventTests: AppStateTestCase {
    func testText_whenIdNameAndData_thenWritesTheFieldsAndABlankLine() {
        XCTAssertEqual(ServerSentEvent(name: "change", id: "e.1", data: #"{"a":1}"#).text, "id: e.1\nevent: change\ndata: {\"a\":1}\n\n")
        XCTAssertEqual(ServerSentEvent(data: "plain").text, "data: plain\n\n")
    }

    func testText_whenTheDataHasLineBreaks_thenEachLineIsADataLine() {
        XCTAssertEqual(ServerSentEvent(data: "one\ntwo\n").text, "data: one\ndata: two\ndata: \n\n")
    }

    func testKeepAliveAndRetry_whenWritten_thenAreACommentAndARetryField() {
        XCTAssertEqual(ServerSentEvent.keepAlive, ": keep-alive\n\n")
        XCTAssertEqual(ServerSentEvent.retry(milliseconds: 1000), "retry: 1000\n\n")
    }
}
