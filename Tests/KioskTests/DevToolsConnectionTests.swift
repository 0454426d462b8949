import AppStateCore
import AppStateKioskKit
import Glibc
import TestSupport
import XCTest

/// The DevTools framing and matching, against the test playing the browser's end of the two
/// pipes (the real browser is in the end-to-end tests): what the browser may send in pieces,
/// out of order, wrong, or not at all.
final class DevToolsConnectionTests: AppStateTestCase {
    /// The browser's ends: it reads commands from `commands` and writes to `messages`.
    private var commands: Int32 = -1
    private var messages: Int32 = -1
    private var connection: DevToolsConnection!

    override func setUp() {
        var toBrowser: [Int32] = [0, 0]
        var fromBrowser: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&toBrowser), 0)
        XCTAssertEqual(pipe(&fromBrowser), 0)
        commands = toBrowser[0]
        messages = fromBrowser[1]
        connection = DevToolsConnection(commands: toBrowser[1], messages: fromBrowser[0])
    }

    override func tearDown() {
        connection = nil
        if messages >= 0 { close(messages) }
        close(commands)
    }

    /// Reads one command the connection wrote.
    private func readCommand() throws -> [String: JSONValue] {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(commands, &byte, 1) == 1, byte != 0 { bytes.append(byte) }
        guard case .object(let command) = try JSONValue(jsonBytes: bytes) else { throw DevToolsError.malformedMessage("test") }
        return command
    }

    private func browserWrites(_ text: String) {
        let bytes = Array(text.utf8)
        XCTAssertEqual(bytes.withUnsafeBytes { write(messages, $0.baseAddress, $0.count) }, bytes.count)
    }

    func testCall_whenTheReplyArrivesInPieces_thenItIsMatchedByIdentifier() async throws {
        let result = connection.send("Page.navigate", ["url": "https://k/"], session: "S1")
        let command = try readCommand()
        XCTAssertEqual(command["method"], "Page.navigate")
        XCTAssertEqual(command["sessionId"], "S1")
        XCTAssertEqual(command["params"], ["url": "https://k/"])
        let identifier = try XCTUnwrap(command["id"]).jsonText
        browserWrites(#"{"method":"Page.frameStartedLoading","params":{"frameId":"F"},"sessionId":"S1"}"# + "\0" + #"{"id":"#)
        browserWrites(identifier + #","result":{"frameId":"F"},"sessionId":"S1"}"# + "\0")
        let reply = try await result.value
        XCTAssertEqual(reply["frameId"], "F")
        var events = connection.events.makeAsyncIterator()
        let event = await events.next()
        XCTAssertEqual(event?.method, "Page.frameStartedLoading")
        XCTAssertEqual(event?.session, "S1")
        XCTAssertEqual(event?.string("frameId"), "F")
    }

    func testSend_whenRepliesComeOutOfOrder_thenEachGoesToItsCommand() async throws {
        let first = connection.send("Runtime.evaluate", ["expression": "1"])
        let second = connection.send("Runtime.evaluate", ["expression": "2"])
        let firstIdentifier = try XCTUnwrap(try readCommand()["id"]).jsonText
        let secondIdentifier = try XCTUnwrap(try readCommand()["id"]).jsonText
        XCTAssertNotEqual(firstIdentifier, secondIdentifier)
        browserWrites(#"{"id":\#(secondIdentifier),"result":{"value":2}}"# + "\0" + #"{"id":\#(firstIdentifier),"result":{"value":1}}"# + "\0")
        let secondValue = try await second.value["value"]
        let firstValue = try await first.value["value"]
        XCTAssertEqual(secondValue, 2)
        XCTAssertEqual(firstValue, 1)
    }

    func testCall_whenTheBrowserAnswersAnError_thenItIsThrownWithItsMessage() async throws {
        let result = connection.send("Target.attachToTarget", ["targetId": "gone"])
        let identifier = try XCTUnwrap(try readCommand()["id"]).jsonText
        browserWrites(#"{"id":\#(identifier),"error":{"code":-32602,"message":"No target with given id found"}}"# + "\0")
        do {
            _ = try await result.value
            XCTFail("an error reply returned a result")
        } catch let error as DevToolsError {
            XCTAssertEqual(error, .reply(method: "Target.attachToTarget", code: -32602, message: "No target with given id found"))
        }
    }

    func testCall_whenTheBrowserClosesItsPipe_thenPendingAndLaterCallsFailAndEventsEnd() async throws {
        let reply = connection.send("Browser.getVersion")
        _ = try readCommand()
        close(messages)
        messages = -1
        await assertClosed { try await reply.value }
        await assertClosed { try await self.connection.call("Browser.getVersion") }
        var events = connection.events.makeAsyncIterator()
        let event = await events.next()
        XCTAssertNil(event)
    }

    func testCall_whenTheBrowserSendsSomethingThatIsNoMessage_thenTheConnectionEnds() async throws {
        let reply = connection.send("Browser.getVersion")
        _ = try readCommand()
        browserWrites("[1,2,3]\0")
        await assertClosed { try await reply.value }
    }

    private func assertClosed(_ call: () async throws -> [String: JSONValue], line: UInt = #line) async {
        do {
            _ = try await call()
            XCTFail("the call returned", line: line)
        } catch let error as DevToolsError {
            XCTAssertTrue(error.isClosed, "\(error)", line: line)
        } catch {
            XCTFail("\(error)", line: line)
        }
    }
}
