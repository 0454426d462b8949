import Glibc

// Figure 10: what a tree's size costs. One daemon per generated tree (ScaleTree.swift) of about
// 15, 1,000 and 10,000 controllers, all logged in; each leaf change is timed per call on every
// daemon in turn, in interleaved blocks, so that the machine's moments fall on all sizes alike,
// and the 15-controller tree is the baseline of the others.

/// A daemon running one generated tree.
private struct ScaleDaemon {
    let tree: ScaleTree
    let daemon: Daemon
    let connection: Int32
}

/// Nanoseconds the daemon's main thread (the event loop, where the trees live) ran on a CPU:
/// the first field of `/proc/PID/schedstat`, the process's first thread.
private func mainThreadCPU(_ pid: pid_t) -> UInt64 {
    let text = String(decoding: readFile("/proc/\(pid)/schedstat") ?? [], as: UTF8.self)
    return text.split(separator: " ").first.flatMap { UInt64($0) } ?? 0
}

/// Calls a change `count` times on one connection; each call's round trip in microseconds and
/// the main thread's CPU time per call in microseconds.
private func timeCalls(_ scale: ScaleDaemon, count: Int, buffer: UnsafeMutableRawBufferPointer, _ request: (Int) -> [UInt8])
    -> (roundTrips: [Double], cpu: Double)
{
    let cpuBefore = mainThreadCPU(scale.daemon.pid)
    var samples: [Double] = []
    for index in 0..<count {
        let start = nowNS()
        let reply = rawCall(scale.connection, request(index), buffer)
        samples.append(Double(nowNS() - start) / 1000)
        if isErrorReply(reply) { die("scale: \(String(decoding: reply, as: UTF8.self))") }
    }
    return (samples, Double(mainThreadCPU(scale.daemon.pid) - cpuBefore) / 1000 / Double(count))
}

private func keyboardMove(_ index: Int) -> [UInt8] {
    frame(
        index % 2 == 0
            ? #"{"method":"io.appstate.ShowKeyboard","parameters":{"height":300}}"#
            : #"{"method":"io.appstate.HideKeyboard"}"#)
}

/// A page turn there and back in pairs, so that a block ends on the first page.
private func pageTurn(_ path: String) -> (Int) -> [UInt8] {
    { index in frame(#"{"method":"io.appstate.SetPage","parameters":{"path":"\#(path)","index":\#((index + 1) % 2)}}"#) }
}

/// Reads frames from a watcher until `expected` have come or `milliseconds` pass without one;
/// returns the frames.
private func readEvents(_ fd: Int32, expected: Int, milliseconds: Int32, buffer: UnsafeMutableRawBufferPointer) -> [[UInt8]] {
    var frames: [[UInt8]] = []
    var pending: [UInt8] = []
    while frames.count < expected {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { break }
        let n = read(fd, buffer.baseAddress!, buffer.count)
        if n <= 0 { break }
        for byte in UnsafeRawBufferPointer(rebasing: buffer[0..<n]) {
            if byte == 0 {
                frames.append(pending)
                pending = []
            } else {
                pending.append(byte)
            }
        }
    }
    return frames
}

/// Figure 10's rows.
func measureScale(appstated: String, socketDirectory: String, work: String, quick: Bool, buffer: UnsafeMutableRawBufferPointer) {
    let trees = [15, 1000, 10_000].map(ScaleTree.init(controllers:))
    let starts = quick ? 1 : 5
    // Start to READY=1 of each tree file, median of several starts: the tree is read, checked,
    // built, restored and snapshotted before READY=1.
    var ready: [[Double]] = trees.map { _ in [] }
    var daemons: [ScaleDaemon] = []
    for (index, tree) in trees.enumerated() {
        let file = "\(work)/scale-\(tree.controllers).json"
        writeFile(file, Array(tree.json.utf8))
        for run in 0..<starts {
            let daemon = Daemon(
                name: "scale\(tree.controllers)-\(run)", appstated: appstated, socketDirectory: socketDirectory, work: work,
                extra: ["--tree-file", file])
            ready[index].append(Double(daemon.readyNS) / 1e6)
            if run < starts - 1 {
                daemon.stopAndWait()
                continue
            }
            let connection = connectUnix(daemon.socketPath, wait: 2_000_000_000)
            let login = rawCall(connection, frame(#"{"method":"io.appstate.Login","parameters":{"user":"ada"}}"#), buffer)
            if isErrorReply(login) { die("scale: Login: \(String(decoding: login, as: UTF8.self))") }
            daemons.append(ScaleDaemon(tree: tree, daemon: daemon, connection: connection))
        }
    }
    note("scale: trees of \(trees.map(\.controllers)) controllers; start to READY=1 ms \(ready.map { $0.map { fmt($0, 1) } })")

    // Leaf changes, interleaved by blocks across the daemons.
    let rounds = quick ? 2 : 10
    let perBlock = quick ? 100 : 300
    var keyboard: [[Double]] = trees.map { _ in [] }
    var pages: [[Double]] = trees.map { _ in [] }
    var keyboardCPU: [[Double]] = trees.map { _ in [] }
    var pageCPU: [[Double]] = trees.map { _ in [] }
    for (index, scale) in daemons.enumerated() {
        _ = timeCalls(scale, count: 50, buffer: buffer, keyboardMove)
        _ = timeCalls(scale, count: 50, buffer: buffer, pageTurn(ScaleTree.currentPages))
        note("scale: warmed up the tree of \(trees[index].controllers)")
    }
    for _ in 0..<rounds {
        for (index, scale) in daemons.enumerated() {
            let moves = timeCalls(scale, count: perBlock, buffer: buffer, keyboardMove)
            keyboard[index] += moves.roundTrips
            keyboardCPU[index].append(moves.cpu)
            let turns = timeCalls(scale, count: perBlock, buffer: buffer, pageTurn(ScaleTree.currentPages))
            pages[index] += turns.roundTrips
            pageCPU[index].append(turns.cpu)
        }
    }
    for (name, samples, cpu) in [("keyboard move", keyboard, keyboardCPU), ("page turn (durable)", pages, pageCPU)] {
        let medians = samples.map { median($0) }
        let cpus = cpu.map { median($0) }
        note("scale: \(name) µs \(medians.map { fmt($0) }), main thread µs/call \(cpus.map { fmt($0) })")
        // One row a change: the largest tree beside the smallest, the middle one in the label,
        // so that the curve takes one row of the report.
        let (large, middle) = (trees.count - 1, trees.count / 2)
        let ratio = medians[large] / medians[0]
        row(
            "\(name) round trip, \(grouped(Double(trees[large].controllers))) controllers (\(grouped(Double(trees[middle].controllers))): \(fmt(medians[middle])) µs)",
            value: "\(fmt(medians[large])) µs; main thread \(fmt(cpus[large])) µs/call (\(fmt(cpus[large] / cpus[0], 2))×)",
            baseline: "\(trees[0].controllers) controllers", baselineValue: "\(fmt(medians[0])) µs; \(fmt(cpus[0])) µs/call",
            ratio: "\(fmt(ratio, 2))×", target: "≤ 2×", met: ratio <= 2)
    }
    // A durable change's work on the daemon's main thread, which the round trip hides behind
    // the disk's wait: what a change costs to apply, publish and record should not grow with
    // the tree.
    let turnCPU = pageCPU.map { median($0) }
    let turnRatio = turnCPU[turnCPU.count - 1] / turnCPU[0]
    row(
        "page turn (durable), daemon main-thread CPU per call, \(grouped(Double(trees[trees.count - 1].controllers))) controllers",
        value: "\(fmt(turnCPU[turnCPU.count - 1])) µs", baseline: "\(trees[0].controllers) controllers", baselineValue: "\(fmt(turnCPU[0])) µs",
        ratio: "\(fmt(turnRatio, 2))×", target: "≤ 1.2×", met: turnRatio <= 1.2)

    // GetTree after a change (its reply is encoded once per publication), on the smallest and
    // the largest tree, interleaved.
    let getTree = frame(#"{"method":"io.appstate.GetTree","parameters":{}}"#)
    var readTimes: [[Double]] = [[], []]
    var readBytes = [0, 0]
    for round in 0..<(quick ? 10 : 40) {
        for (slot, scale) in [daemons[0], daemons[daemons.count - 1]].enumerated() {
            _ = rawCall(scale.connection, keyboardMove(round), buffer)
            let start = nowNS()
            let reply = rawCall(scale.connection, getTree, buffer)
            readTimes[slot].append(Double(nowNS() - start) / 1000)
            readBytes[slot] = reply.count + 1
        }
    }
    let (smallRead, largeRead) = (median(readTimes[0]), median(readTimes[1]))
    row(
        "GetTree after a change, \(grouped(Double(trees[trees.count - 1].controllers))) controllers, \(grouped(Double(readBytes[1]))) B",
        value: "\(fmt(largeRead / 1000, 2)) ms", baseline: "\(trees[0].controllers) controllers, \(grouped(Double(readBytes[0]))) B",
        baselineValue: "\(fmt(smallRead)) µs", ratio: "\(fmt(largeRead / smallRead, 1))×", met: nil)
    measureTreeRead(daemons[daemons.count - 1], socketDirectory: socketDirectory, quick: quick, buffer: buffer)

    measureSubtreeWatch(daemons[daemons.count - 1], quick: quick, buffer: buffer)

    // Memory: each daemon settled after the load above.
    usleep(300_000)
    let rss = daemons.map { vmRSSKiB($0.daemon.pid) }
    note("scale: VmRSS KiB \(rss.map { fmt($0, 0) })")
    let perController = trees.indices.dropFirst().map { (rss[$0] - rss[0]) / Double(trees[$0].controllers - trees[0].controllers) }
    row(
        "VmRSS per controller more, \(grouped(Double(trees[trees.count - 1].controllers))) controllers (\(grouped(Double(trees[1].controllers))): \(fmt(perController[0], 2)) KiB)",
        value: "\(fmt(perController[perController.count - 1], 2)) KiB", baseline: "VmRSS, \(trees[0].controllers) controllers",
        baselineValue: "\(fmt(rss[0] / 1024, 1)) MiB", met: nil)
    let (smallStart, largeStart) = (median(ready[0]), median(ready[ready.count - 1]))
    row(
        "start to READY=1, \(grouped(Double(trees[trees.count - 1].controllers))) controllers (\(grouped(Double(trees[trees.count - 1].json.utf8.count))) B of JSON)",
        value: "\(fmt(largeStart, 1)) ms", baseline: "\(trees[0].controllers) controllers",
        baselineValue: "\(fmt(smallStart, 1)) ms", ratio: "\(fmt(largeStart / smallStart, 1))×", target: "≤ 60 ms", met: largeStart <= 60)
    for scale in daemons {
        close(scale.connection)
        scale.daemon.stopAndWait()
    }
}

/// A `Watch` of a small subtree of the largest tree: it must be told of that subtree's changes
/// and of nothing else. Changes elsewhere (keyboard moves and page turns on screen) come first,
/// then page turns inside the subtree; the events that arrive before the first of those are
/// the ones sent for changes elsewhere.
private func measureSubtreeWatch(_ scale: ScaleDaemon, quick: Bool, buffer: UnsafeMutableRawBufferPointer) {
    let watcher = connectUnix(scale.daemon.socketPath)
    writeAll(watcher, frame(#"{"method":"io.appstate.Watch","parameters":{"path":"\#(ScaleTree.watchedPages)"},"more":true}"#))
    let first = readEvents(watcher, expected: 1, milliseconds: 5000, buffer: buffer)
    let snapshotBytes = first.first.map { $0.count + 1 } ?? 0
    let elsewhere = quick ? 50 : 200
    _ = timeCalls(scale, count: elsewhere, buffer: buffer, keyboardMove)
    _ = timeCalls(scale, count: elsewhere, buffer: buffer, pageTurn(ScaleTree.currentPages))
    let strays = readEvents(watcher, expected: Int.max, milliseconds: 500, buffer: buffer).count
    let inside = quick ? 20 : 100
    var latencies: [Double] = []
    var eventBytes = 0
    for index in 0..<inside {
        let start = nowNS()
        writeAll(scale.connection, pageTurn(ScaleTree.watchedPages)(index))
        let events = readEvents(watcher, expected: 1, milliseconds: 2000, buffer: buffer)
        _ = readOneFrame(scale.connection, buffer)
        guard let event = events.first else { break }
        latencies.append(Double(nowNS() - start) / 1000)
        eventBytes += event.count + 1
    }
    let received = latencies.count
    close(watcher)
    note(
        "scale: subtree watch: \(strays) events for \(2 * elsewhere) changes elsewhere, \(received) of \(inside) for its own (snapshot \(snapshotBytes) B, \(eventBytes / max(received, 1)) B an event, median \(fmt(median(latencies))) µs from call to event)"
    )
    row(
        "Watch(path:) of an off-screen paginated container, \(grouped(Double(scale.tree.controllers))) controllers: events for \(2 * elsewhere) changes elsewhere, \(inside) inside",
        value: "\(strays); \(received)", target: "0; \(inside)",
        met: strays == 0 && received == inside)
}

/// GetTree of the largest tree right after a change, beside a process that only writes the
/// same bytes (`appstate-load echo`, given the daemon's reply): the daemon's cost of encoding
/// a large tree again, above what sending it costs, read by the same client, interleaved.
private func measureTreeRead(_ scale: ScaleDaemon, socketDirectory: String, quick: Bool, buffer: UnsafeMutableRawBufferPointer) {
    let getTree = frame(#"{"method":"io.appstate.GetTree","parameters":{}}"#)
    _ = rawCall(scale.connection, keyboardMove(0), buffer)
    let reply = rawCall(scale.connection, getTree, buffer)
    let replyPath = "\(socketDirectory)/tree-reply"
    writeFile(replyPath, reply + [0])
    let echoPath = "\(socketDirectory)/tree-echo.sock"
    let echo = spawn(["/proc/self/exe", "echo", echoPath, replyPath], quiet: false)
    let writer = connectUnix(echoPath, wait: 5_000_000_000)
    var times: [[Double]] = [[], []]
    for round in 0..<(quick ? 10 : 40) {
        _ = rawCall(scale.connection, keyboardMove(round + 1), buffer)
        var start = nowNS()
        let read = rawCall(scale.connection, getTree, buffer)
        times[0].append(Double(nowNS() - start) / 1000)
        if isErrorReply(read) { die("scale: GetTree: \(String(decoding: read.prefix(200), as: UTF8.self))") }
        start = nowNS()
        _ = rawCall(writer, getTree, buffer)
        times[1].append(Double(nowNS() - start) / 1000)
    }
    close(writer)
    stop(echo)
    let (daemonRead, floor) = (median(times[0]), median(times[1]))
    note("scale: GetTree after a change µs \(times[0].sorted().map { fmt($0) }); the same bytes written µs \(times[1].sorted().map { fmt($0) })")
    row(
        "GetTree right after a change, \(grouped(Double(scale.tree.controllers))) controllers, \(grouped(Double(reply.count + 1))) B, beside a process that only writes them",
        value: "\(fmt(daemonRead / 1000, 2)) ms",
        baseline: "the same reply written by `appstate-load echo`, same client, interleaved",
        baselineValue: "\(fmt(floor / 1000, 2)) ms", ratio: "\(fmt(daemonRead / floor, 2))×", target: "≤ 3×", met: daemonRead / floor <= 3)
}
