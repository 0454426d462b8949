import CEpoll
import Glibc

// The watchers of the soak (Soak.swift).

/// Reads every watcher's frames on one thread with epoll: counts them per watcher and times
/// each Login's event from its send, found by the user's name the event carries.
final class SoakWatchers {
    let fds: [Int32]
    let clients: Int
    /// Per watcher: the events received.
    let counts: UnsafeMutablePointer<Int>
    /// Per client, per login: when it was sent (written by the clients, read here).
    let loginSends: [UnsafeMutablePointer<UInt64>]
    let loginsPerClient: Int
    let start: UInt64
    /// Per minute from the start: each Login's latency at each watcher, in milliseconds.
    var eventLatencies: [[Double]] = []
    var closed = 0
    var stop = false
    /// What each watcher's last read left of an unfinished frame.
    private var partial: [[UInt8]]

    init(fds: [Int32], clients: Int, loginsPerClient: Int, start: UInt64) {
        self.fds = fds
        self.clients = clients
        self.loginsPerClient = loginsPerClient
        self.start = start
        counts = .allocate(capacity: fds.count)
        counts.initialize(repeating: 0, count: fds.count)
        loginSends = (0..<clients).map { _ in
            let sends = UnsafeMutablePointer<UInt64>.allocate(capacity: loginsPerClient + 1)
            sends.initialize(repeating: 0, count: loginsPerClient + 1)
            return sends
        }
        partial = Array(repeating: [], count: fds.count)
    }

    var total: Int { (0..<fds.count).reduce(0) { $0 + counts[$1] } }

    func run() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { buffer.deallocate() }
        let epoll = epoll_create1(0)
        defer { close(epoll) }
        for (index, fd) in fds.enumerated() {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u32: UInt32(index)))
            _ = epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event)
        }
        var ready = [epoll_event](repeating: epoll_event(), count: 256)
        while !stop {
            readReady(epoll: epoll, fds: fds, ready: &ready, buffer: buffer) { index, bytes in
                frames(bytes, watcher: index, at: nowNS())
            } closed: { _ in
                closed += 1
            }
        }
    }

    /// Counts the frames a read finishes, and looks into each for a Login's event.
    private func frames(_ bytes: UnsafeRawBufferPointer, watcher: Int, at time: UInt64) {
        var p = bytes.baseAddress!
        var left = bytes.count
        while left > 0 {
            guard let hit = memchr(p, 0, left) else {
                partial[watcher].append(contentsOf: UnsafeRawBufferPointer(start: p, count: left))
                return
            }
            let length = UnsafeRawPointer(hit) - p
            if partial[watcher].isEmpty {
                inspect(UnsafeRawBufferPointer(start: p, count: length), at: time)
            } else {
                partial[watcher].append(contentsOf: UnsafeRawBufferPointer(start: p, count: length))
                partial[watcher].withUnsafeBytes { inspect($0, at: time) }
                partial[watcher].removeAll(keepingCapacity: true)
            }
            counts[watcher] += 1
            p += length + 1
            left -= length + 1
        }
    }

    private static let loginMarker = Array(#""name":"Login""#.utf8)
    private static let userMarker = Array(#""user":"c"#.utf8)

    /// Times a Login's event: its user, `c<client>n<number>`, names the send.
    private func inspect(_ frame: UnsafeRawBufferPointer, at time: UInt64) {
        guard frame.count > 0, Self.find(Self.loginMarker, in: frame) != nil, var at = Self.find(Self.userMarker, in: frame) else { return }
        func number() -> Int {
            var value = 0
            while at < frame.count, frame[at] >= UInt8(ascii: "0"), frame[at] <= UInt8(ascii: "9") {
                value = value * 10 + Int(frame[at] - UInt8(ascii: "0"))
                at += 1
            }
            return value
        }
        let client = number()
        guard at < frame.count, frame[at] == UInt8(ascii: "n") else { return }
        at += 1
        let login = number()
        guard client < clients, login <= loginsPerClient else { return }
        let sent = loginSends[client][login]
        guard sent > 0, time > sent else { return }
        let minute = Int((sent - start) / 60_000_000_000)
        while eventLatencies.count <= minute { eventLatencies.append([]) }
        eventLatencies[minute].append(Double(time - sent) / 1e6)
    }

    /// The offset just past the first occurrence of `marker` in `frame` (memmem is GNU's,
    /// which Glibc's module leaves out).
    private static func find(_ marker: [UInt8], in frame: UnsafeRawBufferPointer) -> Int? {
        var from = 0
        while from + marker.count <= frame.count {
            guard let hit = memchr(frame.baseAddress! + from, Int32(marker[0]), frame.count - from - marker.count + 1) else { return nil }
            let at = UnsafeRawPointer(hit) - frame.baseAddress!
            if marker.withUnsafeBytes({ memcmp(frame.baseAddress! + at, $0.baseAddress!, marker.count) == 0 }) { return at + marker.count }
            from = at + 1
        }
        return nil
    }
}
