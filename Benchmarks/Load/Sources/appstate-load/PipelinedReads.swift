import CEpoll
import Glibc

// Figures 11 and 12: reads as a client other than the project's makes them, with the C
// client of CEpoll (Pipeline.c), so that none of the project's Swift is on the client's side.
// 11: pipelined GetCurrent in batches that each wait for their replies before the next is
// written, with a path and without. 12: the round trip of GetCurrent with a path beside a
// forking C server that answers every call with a fixed 80-byte reply.

let getCurrentSessionFrame = frame(#"{"method":"io.appstate.GetCurrent","parameters":{"path":"session"}}"#)

/// Figure 11's rows: each shape's calls per second, the median of its runs.
func measureWaitingBatches(socketPath: String, quick: Bool) {
    let total = quick ? 51_200 : 204_800
    let shapes: [(name: String, request: [UInt8], batch: Int)] = [
        (#"GetCurrent with `{"path":"session"}`"#, getCurrentSessionFrame, 256),
        ("GetCurrent", frame(#"{"method":"io.appstate.GetCurrent","parameters":{}}"#), 1000),
    ]
    for shape in shapes {
        var rates: [Double] = []
        var replyBytes = 0
        var failures: [String] = []
        let calls = total / shape.batch * shape.batch
        for _ in 0..<(quick ? 1 : 3) {
            var result = appstate_pipeline_result()
            let status = shape.request.withUnsafeBufferPointer { request in
                request.withMemoryRebound(to: CChar.self) {
                    appstate_pipeline_run(socketPath, $0.baseAddress, $0.count, shape.batch, calls, &result)
                }
            }
            if status != 0 { failures.append("errno \(-status)") }
            if result.errors > 0 { failures.append("\(result.errors) error replies") }
            rates.append(Double(result.calls) / result.seconds)
            replyBytes = result.calls > 0 ? result.bytes / result.calls : 0
            note("waiting batches, \(shape.name): \(result.calls) calls in \(fmt(result.seconds, 3)) s, \(replyBytes) B per reply")
        }
        let rate = median(rates)
        row(
            "pipelined calls, C client: \(shape.name), batches of \(grouped(Double(shape.batch))) each read before the next (\(replyBytes) B replies; median of \(rates.count) runs)"
                + (failures.isEmpty ? "" : " — \(failures.joined(separator: ", "))"),
            value: "\(grouped(rate)) calls/s", target: "≥ 1,000,000 calls/s", met: rate >= 1_000_000 && failures.isEmpty)
    }
}

/// The fixed reply of figure 12's forking server: a Varlink reply padded to 80 bytes, its NUL
/// included.
let forkingServerReply: [UInt8] = {
    let reply = Array(#"{"parameters":{"path":"session/login"}}"#.utf8)
    return reply + [UInt8](repeating: UInt8(ascii: " "), count: 79 - reply.count) + [0]
}()

/// Figure 12's row: client and servers on one CPU, blocks of round trips alternating between
/// the daemon and the forking server, so that both meet the same moments of the machine.
func measureForkingRoundTrip(daemon: Daemon, socketDirectory: String, quick: Bool) {
    let serverPath = "\(socketDirectory)/forking.sock"
    let server = spawn(["/proc/self/exe", "forking", serverPath], quiet: false)
    close(connectUnix(serverPath, wait: 5_000_000_000))
    for pid in [Int32(0), daemon.pid, server] {
        let status = appstate_pin(pid, 0)
        if status != 0 { die("pinning \(pid) to CPU 0: \(status)") }
    }
    let rounds = quick ? 3 : 10
    let perRound = quick ? 300 : 1000
    var samples: [[Double]] = [[], []]
    var block = [Double](repeating: 0, count: perRound)
    var failure: String?
    let deadline = nowNS() + 60_000_000_000
    round: for round in 0..<(rounds + 1) {
        for (kind, path) in [daemon.socketPath, serverPath].enumerated() {
            let status = getCurrentSessionFrame.withUnsafeBufferPointer { request in
                request.withMemoryRebound(to: CChar.self) {
                    appstate_round_trips(path, $0.baseAddress, $0.count, perRound, &block)
                }
            }
            if status != 0 {
                failure = "errno \(-status)"
                break round
            }
            // The first round warms both up.
            if round > 0 { samples[kind] += block }
        }
        if nowNS() > deadline { break }
    }
    for pid in [Int32(0), daemon.pid] { _ = appstate_pin(pid, -1) }
    stop(server)
    let probe = connectUnix(daemon.socketPath)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    let replyBytes = rawCall(probe, getCurrentSessionFrame, buffer).count + 1
    buffer.deallocate()
    close(probe)
    let sorted = samples.map { $0.sorted() }
    let (daemon50, server50) = (percentile(sorted[0], 50), percentile(sorted[1], 50))
    row(
        #"round trip on one CPU, C client: GetCurrent with `{"path":"session"}` (\#(replyBytes) B reply; median of \#(grouped(Double(sorted[0].count))))"#
            + (failure.map { " — \($0)" } ?? ""),
        value: "\(fmt(daemon50)) µs (p99 \(fmt(percentile(sorted[0], 99))) µs)",
        baseline: "forking C server (`appstate-load forking`), fixed 80-byte reply, same client and CPU",
        baselineValue: "\(fmt(server50)) µs (p99 \(fmt(percentile(sorted[1], 99))) µs)",
        ratio: "\(fmt(daemon50 / server50, 2))×", target: "≤ 2×", met: daemon50 / server50 <= 2 && failure == nil)
}
