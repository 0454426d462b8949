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

    /// A client ends a line at CR, LF or CRLF: a line the server kept whole across a CR would
    /// reach the client as a line without `data:`, and be dropped.
    func testBytes_whenTheDataHasCRAndCRLF_thenEachEndsADataLineAndOtherCharactersStay() {
        XCTAssertEqual(ServerSentEvent(data: "a\r\nb\rc").text, "data: a\ndata: b\ndata: c\n\n")
        XCTAssertEqual(ServerSentEvent(data: "\r\n\n").text, "data: \ndata: \ndata: \n\n")
        XCTAssertEqual(ServerSentEvent(name: "é", data: "ça 🙂").bytes, Array("event: é\ndata: ça 🙂\n\n".utf8))
        XCTAssertEqual(ServerSentEvent(data: "").text, "data: \n\n")
    }

    func testKeepAliveAndRetry_whenWritten_thenAreACommentAndARetryField() {
        XCTAssertEqual(ServerSentEvent.keepAlive, ": keep-alive\n\n")
        XCTAssertEqual(ServerSentEvent.retry(milliseconds: 1000), "retry: 1000\n\n")
    }
}
