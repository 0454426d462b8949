import AppStateHTTP
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The shared HTTP stack in-process, with a responder that echoes what it was asked and
/// keeps the event streams it opened for the test to write to.
final class HTTPServerTests: AppStateTestCase {
    private final class Responder: HTTPResponder {
        let streams = Mutex<[EventStream]>([])
        let closed = Mutex(0)

        func respond(to request: HTTPRequest, with exchange: HTTPExchange) {
            if request.path == "/stream" {
                let stream = exchange.openEventStream(headers: [("X-Stream", "yes")])
                stream.onClose { [self] in closed.withLock { $0 += 1 } }
                streams.withLock { $0.append(stream) }
                // Read first by the test: the stream is kept by then.
                stream.send(ServerSentEvent(name: "ready", data: "1").text)
                return
            }
            exchange.respond(.text(status: 200, "\(request.method) \(request.target) \(request.body.count)", headers: [("X-Own", "1")]))
        }

        var stream: EventStream? { streams.withLock { $0.last } }
    }

    private var group: MultiThreadedEventLoopGroup!
    private let responder = Responder()

    override func setUp() {
        super.setUp()
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    }

    override func tearDown() {
        try? group.syncShutdownGracefully()
        super.tearDown()
    }

    private func server(_ limits: HTTPServerLimits = HTTPServerLimits(), endpoints: [HTTPEndpoint]? = nil) throws -> (HTTPServer, Int) {
        let server = try HTTPServer(
            endpoints: endpoints ?? [.tcp(ListenAddress(host: "127.0.0.1", port: 0))], limits: limits, headers: [("X-Default", "d")],
            group: group, responder: responder)
        guard case .tcp(_, let port)? = server.addresses.first else { return (server, 0) }
        return (server, port)
    }

    func testRespond_whenRequestsArePipelined_thenAnswersEachInOrderWithTheDefaultHeaders() throws {
        let (server, port) = try server()
        defer { server.close() }
        let connection = try HTTPTestConnection(port: port)
        try connection.send(
            Array(
                "GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcGET /c HTTP/1.1\r\nHost: x\r\n\r\n".utf8
            ))
        let texts = try (0..<3).map { _ in try connection.readResponse() }
        XCTAssertEqual(texts.map(\.text), ["GET /a 0\n", "POST /b 3\n", "GET /c 0\n"])
        XCTAssertEqual(texts[0].header("X-Default"), "d")
        XCTAssertEqual(texts[0].header("X-Own"), "1")
    }

    func testBody_whenContentLengthIsOverTheLimit_thenAnswers413AndClosesWithoutReadingIt() throws {
        let (server, port) = try server(HTTPServerLimits(maximumBodySize: 1024))
        defer { server.close() }
        let connection = try HTTPTestConnection(port: port)
        try connection.send(Array("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 1025\r\n\r\n".utf8))
        let response = try connection.readResponse()
        XCTAssertEqual(response.status, 413)
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertEqual(try connection.readToEnd(), 0)
    }

    func testBody_whenChunkedPastTheLimit_thenAnswers413AndCloses() throws {
        let (server, port) = try server(HTTPServerLimits(maximumBodySize: 1024))
        defer { server.close() }
        let connection = try HTTPTestConnection(port: port)
        let chunk = "200\r\n" + String(repeating: "x", count: 512) + "\r\n"
        try connection.send(Array(("POST /big HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk + chunk + chunk).utf8))
        XCTAssertEqual(try connection.readResponse().status, 413)
        XCTAssertEqual(try connection.readToEnd(), 0)
    }

    func testBody_whenAtTheLimitOrAskingToContinue_thenReachesTheResponder() throws {
        let (server, port) = try server(HTTPServerLimits(maximumBodySize: 1024))
        defer { server.close() }
        let connection = try HTTPTestConnection(port: port)
        XCTAssertEqual(try connection.request("POST", "/full", body: Array(repeating: 0x61, count: 1024)).text, "POST /full 1024\n")
        try connection.send(Array("POST /later HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n".utf8))
        try connection.send(Array("hello".utf8))
        XCTAssertEqual(try connection.readResponse().text, "POST /later 5\n")
    }

    func testRequest_whenMalformedOrHTTP10_thenAnswers400OrClosesAfterTheResponse() throws {
        let (server, port) = try server()
        defer { server.close() }
        let malformed = try HTTPTestConnection(port: port)
        try malformed.send(Array("NOT HTTP AT ALL\r\n\r\n".utf8))
        XCTAssertEqual(try malformed.readResponse().status, 400)
        let old = try HTTPTestConnection(port: port)
        try old.send(Array("GET /old HTTP/1.0\r\n\r\n".utf8))
        let response = try old.readResponse()
        XCTAssertEqual(response.text, "GET /old 0\n")
        XCTAssertEqual(response.header("Connection"), "close")
        XCTAssertEqual(try old.readToEnd(), 0)
    }

    func testConnections_whenOverTheLimit_thenTheNextIsAnswered503() throws {
        let (server, port) = try server(HTTPServerLimits(maximumConnections: 2))
        defer { server.close() }
        let first = try HTTPTestConnection(port: port)
        let second = try HTTPTestConnection(port: port)
        XCTAssertEqual(try first.request("GET", "/").status, 200)
        XCTAssertEqual(try second.request("GET", "/").status, 200)
        let third = try HTTPTestConnection(port: port)
        let refused = try third.readResponse()
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(refused.header("Retry-After"), "1")
        XCTAssertEqual(try third.readToEnd(), 0)
    }

    func testEventStream_whenOpened_thenSendsTheHeadAndEachMessageAndReportsItsClosing() throws {
        let (server, port) = try server()
        defer { server.close() }
        let connection = try HTTPTestConnection(port: port)
        let head = try connection.request("GET", "/stream")
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Type"), "text/event-stream; charset=utf-8")
        XCTAssertEqual(head.header("X-Stream"), "yes")
        XCTAssertEqual(try connection.readEvent()?.name, "ready")
        let stream = try XCTUnwrap(responder.stream)
        XCTAssertEqual(stream.send(ServerSentEvent(name: "one", id: "1", data: "a").text), .sent)
        let event = try XCTUnwrap(try connection.readEvent())
        XCTAssertEqual([event.name, event.id, event.data], ["one", "1", "a"])
        let closed = expectation(description: "onClose")
        stream.onClose { closed.fulfill() }
        withExtendedLifetime(connection) {}
        stream.close()
        wait(for: [closed], timeout: 10)
        XCTAssertEqual(stream.send("data: late\n\n"), .closed)
    }

    func testEventStream_whenTheClientNeverReads_thenItIsCutOffWithinTheLimit() throws {
        let limit = 64 << 10
        let (server, port) = try server(HTTPServerLimits(streamBufferLimit: limit))
        defer { server.close() }
        let connection = try HTTPTestConnection(port: port, receiveBuffer: 4096)
        XCTAssertEqual(try connection.request("GET", "/stream").status, 200)
        XCTAssertEqual(try connection.readEvent()?.name, "ready")
        let stream = try XCTUnwrap(responder.stream)
        let message = ByteBuffer(string: ServerSentEvent(data: String(repeating: "x", count: 1000)).text)
        var sent = 0
        // The kernel's buffers take some; past them the stream holds at most the limit.
        while stream.send(message) == .sent {
            sent += message.readableBytes
            XCTAssertLessThan(sent, 64 << 20, "a client that never reads was never cut off")
            if sent >= 64 << 20 { return }
        }
        XCTAssertEqual(stream.send(message), .closed, "a stream cut off takes nothing more")
        let received = try connection.readToEnd()
        XCTAssertLessThanOrEqual(received, sent)
    }

    func testUnixSocket_whenAStaleSocketFileIsThere_thenReplacesItButNeverALiveOne() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/http.sock"
        let stale = try unixSocket(SOCK_STREAM, boundTo: path)
        close(stale)
        let (server, _) = try server(endpoints: [.unixSocket(path: path)])
        XCTAssertEqual(server.addresses, [.unixSocket(path: path)])
        let connection = try HTTPTestConnection(unixSocket: path)
        XCTAssertEqual(try connection.request("GET", "/unix").text, "GET /unix 0\n")
        XCTAssertThrowsError(try self.server(endpoints: [.unixSocket(path: path)])) { error in
            XCTAssertTrue("\(error)".contains("another server listens there"), "\(error)")
        }
        server.close()
        let file = directory.path + "/plain"
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data()))
        XCTAssertThrowsError(try self.server(endpoints: [.unixSocket(path: file)])) { error in
            XCTAssertTrue("\(error)".contains("something other than a socket"), "\(error)")
        }
    }

    func testDescriptor_whenPassedAListeningSocket_thenServesItOnItsAddress() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                XCTAssertEqual(bind(descriptor, $0, length), 0)
                XCTAssertEqual(getsockname(descriptor, $0, &length), 0)
            }
        }
        XCTAssertEqual(listen(descriptor, 4), 0)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let (server, served) = try server(endpoints: [.descriptor(descriptor)])
        defer { server.close() }
        XCTAssertEqual(served, port)
        XCTAssertEqual(try HTTPTestConnection(port: port).request("GET", "/passed").text, "GET /passed 0\n")
    }
}
