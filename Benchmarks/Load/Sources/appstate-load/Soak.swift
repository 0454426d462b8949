import Glibc

// The soak (scripts/soak; not a row of the table): a long run of mutations from several clients
// with watchers following the tree, to show that the daemon's memory and descriptors stay flat
// and its latency steady. Usage:
//   appstate-load soak --appstated PATH --work DIR --out FILE [--mutations N] [--watchers N]
//       [--clients N] [--rate N] [--date TEXT] [--commit TEXT]
// Writes the result as JSON to FILE (Benchmarks/report.py renders it in docs/benchmarks/soak.md) and a
// table of each minute on stdout.

/// One client's mutation.
struct SoakMutation {
    let frame: [UInt8]
    /// The user a Login logs in, whose name the watchers find in its event.
    let loginNumber: Int?
}

/// The mix of a client's mutations, in cycles of twenty: sixteen keyboard moves (transient),
/// three page turns and a login of a new user (durable). Keyboard moves are shows, each at
/// another height than the one before, and hides; each page turn goes to another page than
/// the client's last. Between the clients' calls some change nothing, so the watchers' events
/// are counted against the daemon's own count of what it sent them.
func soakMutation(client: Int, index: Int) -> SoakMutation {
    let step = index % 20
    switch step {
    case 0:
        let number = index / 20
        return SoakMutation(
            frame: frame(#"{"method":"io.appstate.Login","parameters":{"user":"c\#(client)n\#(number)","switch":true}}"#),
            loginNumber: number)
    case 5, 10, 15:
        let page = (index / 20 + step / 5) % 3
        return SoakMutation(
            frame: frame(#"{"method":"io.appstate.SetPage","parameters":{"path":"session/home/pages","index":\#(page)}}"#),
            loginNumber: nil)
    default:
        let height = 200 + 10 * client + (index / 2) % 97
        return SoakMutation(
            frame: frame(
                step % 2 == 1
                    ? #"{"method":"io.appstate.ShowKeyboard","parameters":{"height":\#(height),"duration":0}}"#
                    : #"{"method":"io.appstate.HideKeyboard","parameters":{"duration":0}}"#),
            loginNumber: nil)
    }
}

/// The number of entries of /proc/PID/fd: the daemon's open descriptors.
func openDescriptors(_ pid: pid_t) -> Int {
    guard let directory = opendir("/proc/\(pid)/fd") else { return -1 }
    defer { closedir(directory) }
    var count = 0
    while let entry = readdir(directory) {
        if entry.pointee.d_name.0 != UInt8(ascii: ".") { count += 1 }
    }
    return count
}

/// The slope of the least-squares line through the points.
func slope(_ points: [(x: Double, y: Double)]) -> Double {
    guard points.count > 1 else { return .nan }
    let n = Double(points.count)
    let meanX = points.reduce(0) { $0 + $1.x } / n
    let meanY = points.reduce(0) { $0 + $1.y } / n
    let covariance = points.reduce(0) { $0 + ($1.x - meanX) * ($1.y - meanY) }
    let variance = points.reduce(0) { $0 + ($1.x - meanX) * ($1.x - meanX) }
    return variance == 0 ? .nan : covariance / variance
}

/// A sample of the daemon, every ten seconds.
struct SoakSample {
    let seconds: Double
    let rssKiB: Double
    let descriptors: Int
}

/// The figure `name` of the Prometheus text `text` (the first sample whose line starts with it).
func metric(_ name: String, in text: String) -> Double? {
    for line in text.split(separator: "\n") where line.hasPrefix(name + " ") || line.hasPrefix(name + "{") {
        if let value = line.split(separator: " ").last.flatMap({ Double($0) }) { return value }
    }
    return nil
}

/// The text of a GetMetrics reply, its JSON string's escapes undone as far as the figures need.
func daemonMetrics(_ socketPath: String) -> String {
    let fd = connectUnix(socketPath)
    defer { close(fd) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    let reply = rawCall(fd, frame(#"{"method":"io.appstate.GetMetrics","parameters":{}}"#), buffer)
    var text: [UInt8] = []
    var escaped = false
    for byte in reply {
        if escaped {
            text.append(byte == UInt8(ascii: "n") ? UInt8(ascii: "\n") : byte)
            escaped = false
        } else if byte == UInt8(ascii: "\\") {
            escaped = true
        } else {
            text.append(byte)
        }
    }
    return String(decoding: text, as: UTF8.self)
}

func runSoak() -> Never {
    guard let appstated = option("--appstated"), let work = option("--work"), let out = option("--out") else {
        die("usage: appstate-load soak --appstated PATH --work DIR --out FILE [--mutations N] [--watchers N] [--clients N] [--rate N]")
    }
    let mutations = option("--mutations").flatMap { Int($0) } ?? 1_000_000
    let watcherCount = option("--watchers").flatMap { Int($0) } ?? 100
    let clients = option("--clients").flatMap { Int($0) } ?? 16
    let rate = option("--rate").flatMap { Double($0) } ?? 1_700
    signal(SIGPIPE, SIG_IGN)
    _ = raiseFileLimit(to: 8192)
    let socketDirectory = "/tmp/appstate-soak-\(getpid())"
    mkdirs(socketDirectory)
    mkdirs(work)
    let daemon = Daemon(name: "soak", appstated: appstated, socketDirectory: socketDirectory, work: work)
    note("soak: appstated pid \(daemon.pid); \(mutations) mutations from \(clients) clients at \(fmt(rate, 0))/s, \(watcherCount) watchers")
    let ioBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    let setup = connectUnix(daemon.socketPath, wait: 2_000_000_000)
    let first = rawCall(setup, loginFrame("soak"), ioBuffer)
    if isErrorReply(first) { die("Login: \(String(decoding: first, as: UTF8.self))") }
    close(setup)

    let fds = (0..<watcherCount).map { _ -> Int32 in
        let fd = connectUnix(daemon.socketPath)
        writeAll(fd, frame(#"{"method":"io.appstate.Watch","more":true}"#))
        return fd
    }
    for fd in fds where readOneFrame(fd, ioBuffer) == nil { die("a watcher was closed before its snapshot") }

    let perClient = mutations / clients
    let start = nowNS()
    let watchers = SoakWatchers(fds: fds, clients: clients, loginsPerClient: perClient / 20 + 1, start: start)
    let reader = startThread { watchers.run() }
    // Per client, per minute: each mutation's round trip in milliseconds.
    let roundTrips = UnsafeMutablePointer<[[Double]]>.allocate(capacity: clients)
    roundTrips.initialize(repeating: [], count: clients)
    let errors = UnsafeMutablePointer<Int>.allocate(capacity: clients)
    errors.initialize(repeating: 0, count: clients)
    let finished = UnsafeMutablePointer<Bool>.allocate(capacity: clients)
    finished.initialize(repeating: false, count: clients)
    let interval = Double(clients) / rate * 1e9
    let threads = (0..<clients).map { client in
        startThread {
            let fd = connectUnix(daemon.socketPath)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
            defer {
                buffer.deallocate()
                close(fd)
            }
            for index in 0..<perClient {
                // Paced: each call starts on its schedule, or at once when the last ran late.
                let due = start + UInt64(Double(index) * interval)
                let now = nowNS()
                if due > now { usleep(UInt32((due - now) / 1000)) }
                let mutation = soakMutation(client: client, index: index)
                let sent = nowNS()
                if let login = mutation.loginNumber { watchers.loginSends[client][login] = sent }
                let reply = rawCall(fd, mutation.frame, buffer)
                let minute = Int((sent - start) / 60_000_000_000)
                while roundTrips[client].count <= minute { roundTrips[client].append([]) }
                roundTrips[client][minute].append(Double(nowNS() - sent) / 1e6)
                if isErrorReply(reply) {
                    if errors[client] == 0 { note("soak: client \(client): \(String(decoding: reply, as: UTF8.self))") }
                    errors[client] += 1
                }
            }
            finished[client] = true
        }
    }

    // Every ten seconds, the daemon's resident memory and open descriptors.
    var samples: [SoakSample] = []
    var next = start
    while true {
        let now = nowNS()
        if now >= next {
            let sample = SoakSample(seconds: Double(now - start) / 1e9, rssKiB: vmRSSKiB(daemon.pid), descriptors: openDescriptors(daemon.pid))
            samples.append(sample)
            if samples.count % 6 == 1 {
                let events = watchers.total / max(watcherCount, 1)
                note("soak: \(fmt(sample.seconds, 0)) s: VmRSS \(fmt(sample.rssKiB, 0)) KiB, \(sample.descriptors) fds, \(events) events per watcher")
            }
            next += 10_000_000_000
        }
        if (0..<clients).allSatisfy({ finished[$0] }) { break }
        usleep(100_000)
    }
    threads.forEach(join)
    // No sample after the clients are gone: their descriptors, closed, would bend the slope.
    let end = nowNS()

    // The events still on their way, then the daemon's own count of what it sent.
    let metrics = daemonMetrics(daemon.socketPath)
    let fanOuts = Int(metric("appstate_fanout_seconds_count", in: metrics) ?? -1)
    let cut = Int(metric("appstate_watchers_cut_total", in: metrics) ?? 0)
    let deadline = nowNS() + 30_000_000_000
    var lastTotal = -1
    while nowNS() < deadline {
        usleep(500_000)
        let total = watchers.total
        if total == lastTotal && (fanOuts < 0 || total >= fanOuts * watcherCount) { break }
        lastTotal = total
    }
    watchers.stop = true
    join(reader)
    daemon.stopAndWait()
    ioBuffer.deallocate()
    for fd in fds { close(fd) }
    rmdir(socketDirectory)

    let counts = (0..<watcherCount).map { watchers.counts[$0] }
    let sent = (0..<clients).reduce(0) { $0 + roundTrips[$1].reduce(0) { $0 + $1.count } }
    let failed = (0..<clients).reduce(0) { $0 + errors[$1] }
    // The events each watcher should have had: one per change the daemon fanned out to the
    // watchers' lane (it counts none before the watchers came).
    let expected = fanOuts >= 0 ? fanOuts : (counts.max() ?? 0)
    let lost = counts.reduce(0) { $0 + max(0, expected - $1) }
    let extra = counts.reduce(0) { $0 + max(0, $1 - expected) }
    let minutes = (0..<clients).reduce(0) { max($0, roundTrips[$1].count) }
    var table: [(minute: Int, calls: Int, p50: Double, p99: Double, eventP99: Double, rss: Double, fds: Int)] = []
    for minute in 0..<minutes {
        let trips = (0..<clients).flatMap { minute < roundTrips[$0].count ? roundTrips[$0][minute] : [] }.sorted()
        let events = (minute < watchers.eventLatencies.count ? watchers.eventLatencies[minute] : []).sorted()
        let last = samples.last { $0.seconds <= Double(minute + 1) * 60 } ?? samples[0]
        table.append((minute + 1, trips.count, percentile(trips, 50), percentile(trips, 99), percentile(events, 99), last.rssKiB, last.descriptors))
    }
    let seconds = Double(end - start) / 1e9
    let steady = samples.filter { $0.seconds >= 60 }
    let rssSlope = slope(steady.map { ($0.seconds / 60, $0.rssKiB) })
    let fdSlope = slope(steady.map { ($0.seconds / 60, Double($0.descriptors)) })
    // The last minute is the last whole one: a last part-minute holds too few calls for its p99.
    let full = table.filter { Double($0.minute) * 60 <= seconds }
    let p99Ratio = full.count > 1 ? full.last!.p99 / full.first!.p99 : .nan
    let eventRatio = full.count > 1 ? full.last!.eventP99 / full.first!.eventP99 : .nan

    print("minute | mutations | round trip p50 ms | p99 ms | Login event p99 ms | VmRSS KiB | fds")
    for entry in table {
        let latencies = "\(fmt(entry.p50, 3)) | \(fmt(entry.p99, 3)) | \(fmt(entry.eventP99, 2))"
        print("\(entry.minute) | \(entry.calls) | \(latencies) | \(fmt(entry.rss, 0)) | \(entry.fds)")
    }
    print(
        "\(sent) mutations (\(failed) errors) in \(fmt(seconds, 0)) s; VmRSS slope \(fmt(rssSlope, 2)) KiB/min, fds slope \(fmt(fdSlope, 3))/min from minute 1; p99 last/first minute \(fmt(p99Ratio, 2))×, Login event p99 \(fmt(eventRatio, 2))×; events per watcher \(expected) (received \(counts.min() ?? 0)–\(counts.max() ?? 0)), lost \(lost), extra \(extra), watchers cut \(cut), closed \(watchers.closed)"
    )

    func number(_ value: Double, _ digits: Int) -> String { value.isFinite ? fmt(value, digits) : "null" }
    let rows = table.map {
        #"    {"minute": \#($0.minute), "mutations": \#($0.calls), "roundTripP50Ms": \#(number($0.p50, 3)), "roundTripP99Ms": \#(number($0.p99, 3)), "loginEventP99Ms": \#(number($0.eventP99, 2)), "rssKiB": \#(number($0.rss, 0)), "fds": \#($0.fds)}"#
    }
    let points = samples.map { #"[\#(fmt($0.seconds, 1)), \#(number($0.rssKiB, 0)), \#($0.descriptors)]"# }
    let json = """
        {
          "date": "\(option("--date") ?? "unknown")",
          "commit": "\(option("--commit") ?? "unknown")",
          "mutations": \(sent),
          "errors": \(failed),
          "clients": \(clients),
          "watchers": \(watcherCount),
          "ratePerSecond": \(fmt(rate, 0)),
          "mix": "each 20 calls: 16 keyboard moves, 3 page turns, a Login",
          "seconds": \(fmt(seconds, 1)),
          "rssSlopeKiBPerMinute": \(number(rssSlope, 2)),
          "fdSlopePerMinute": \(number(fdSlope, 3)),
          "roundTripP99LastOverFirst": \(number(p99Ratio, 2)),
          "loginEventP99LastOverFirst": \(number(eventRatio, 2)),
          "eventsPerWatcher": \(expected),
          "eventsLost": \(lost),
          "eventsExtra": \(extra),
          "watchersCut": \(cut),
          "minutes": [
        \(rows.joined(separator: ",\n"))
          ],
          "samples": [\(points.joined(separator: ", "))]
        }

        """
    writeFile(out, Array(json.utf8))
    note("soak: wrote \(out)")
    exit(failed == 0 && lost == 0 && extra == 0 && cut == 0 ? 0 : 1)
}
