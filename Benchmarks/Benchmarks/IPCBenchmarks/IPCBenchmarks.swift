import AppStateIPC
import Benchmark
import BenchmarkSupport
import StateContainers

/// The framing figure of BENCHMARKS.md (tracked for regressions, without a target): the bytes
/// of a typical call (GetCurrent of a page container)
/// decoded by the daemon's frame decoder, and its reply (the current page's node) encoded, as
/// the daemon does for every request. The client's half, encoding the call and decoding the
/// reply, is measured beside it.
let benchmarks: @Sendable () -> Void = {
    Benchmark.onMainActor("varlink service side", operations: 1000, makeFixture: VarlinkExchange.init) { exchange, operations in
        for _ in 0..<operations { try exchange.serve() }
    }
    Benchmark.onMainActor("varlink client side", operations: 1000, makeFixture: VarlinkExchange.init) { exchange, operations in
        for _ in 0..<operations { try exchange.ask() }
    }
}

/// One GetCurrent call and its reply, with a decoder and an output buffer reused across
/// operations as a connection reuses its own.
final class VarlinkExchange {
    private let call = VarlinkCall(method: "io.appstate.GetCurrent", parameters: ["path": "session/home/pages"])
    private let reply = VarlinkReply(parameters: [
        "path": "session/home/pages/overview",
        "node": [
            "path": "session/home/pages/overview",
            "identifier": "overview",
            "type": "Controller",
            "title": "Overview",
            "appearance": "appeared",
            "frame": ["x": 0, "y": 0, "width": 1280, "height": 800],
            "contentInset": ["top": 0, "left": 0, "bottom": 0, "right": 0],
            "children": [],
        ],
    ])
    private let callBytes: [UInt8]
    private let replyBytes: [UInt8]
    private var decoder = VarlinkFrameDecoder()
    private var output: [UInt8] = []

    init() {
        callBytes = call.encoded
        replyBytes = reply.encoded
    }

    /// The daemon's half: decode the call, encode the reply.
    func serve() throws {
        decoder.append(callBytes)
        guard let decoded = try decoder.nextCall(), decoded.method == call.method else { throw ExchangeError.lost }
        output.removeAll(keepingCapacity: true)
        reply.encode(into: &output)
    }

    /// The client's half: encode the call, decode the reply.
    func ask() throws {
        output.removeAll(keepingCapacity: true)
        call.encode(into: &output)
        decoder.append(replyBytes)
        guard let decoded = try decoder.nextReply(), decoded.parameters.count == 2 else { throw ExchangeError.lost }
    }

    private enum ExchangeError: Error {
        case lost
    }
}
