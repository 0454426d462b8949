import CEpoll
import Glibc

// Small POSIX helpers: clocks, sockets, threads, processes. No Foundation, so the tool's
// own overhead stays out of the figures as far as possible.

@inline(__always) func nowNS() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func die(_ message: String) -> Never {
    fputs("appstate-load: \(message)\n", stderr)
    exit(1)
}

func note(_ message: String) {
    fputs("appstate-load: \(message)\n", stderr)
}

func unixAddress(_ path: String) -> sockaddr_un {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        precondition(bytes.count < buffer.count, "socket path too long: \(path)")
        buffer.copyBytes(from: bytes)
        buffer[bytes.count] = 0
    }
    return address
}

func withSockaddr<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
    var address = unixAddress(path)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}

/// Connects a stream socket, retrying for up to `wait` nanoseconds while nobody listens yet.
func connectUnix(_ path: String, wait: UInt64 = 0) -> Int32 {
    let deadline = nowNS() + wait
    while true {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { die("socket: errno \(errno)") }
        if withSockaddr(path, { connect(fd, $0, $1) }) == 0 { return fd }
        let error = errno
        close(fd)
        if nowNS() >= deadline { die("connect \(path): errno \(error)") }
        usleep(2_000)
    }
}

func listenUnix(_ path: String) -> Int32 {
    unlink(path)
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    if withSockaddr(path, { bind(fd, $0, $1) }) != 0 { die("bind \(path): errno \(errno)") }
    if listen(fd, 128) != 0 { die("listen: errno \(errno)") }
    return fd
}

func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < bytes.count {
        let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0 {
            if errno == EINTR { continue }
            die("write: errno \(errno)")
        }
        offset += n
    }
}

func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { writeAll(fd, $0) }
}

/// Reads until one NUL-terminated frame has arrived (only one may be outstanding);
/// returns its bytes without the NUL, or nil at end of file.
func readOneFrame(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, keep: Bool = false) -> [UInt8]? {
    var frame: [UInt8] = []
    while true {
        let n = read(fd, buffer.baseAddress!, buffer.count)
        if n < 0 {
            if errno == EINTR { continue }
            die("read: errno \(errno)")
        }
        if n == 0 { return nil }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
        if keep { frame.append(contentsOf: bytes) }
        if bytes[n - 1] == 0 {
            if keep { frame.removeLast() }
            return frame
        }
    }
}

final class ThreadBox {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

func startThread(_ body: @escaping () -> Void) -> pthread_t {
    let box = Unmanaged.passRetained(ThreadBox(body)).toOpaque()
    var thread = pthread_t()
    let rc = pthread_create(
        &thread, nil,
        { pointer in
            Unmanaged<ThreadBox>.fromOpaque(pointer!).takeRetainedValue().body()
            return nil
        }, box)
    if rc != 0 { die("pthread_create: \(rc)") }
    return thread
}

func join(_ thread: pthread_t) {
    pthread_join(thread, nil)
}

func currentEnvironment() -> [String] {
    var result: [String] = []
    var pointer = environ
    while let entry = pointer.pointee {
        result.append(String(cString: entry))
        pointer += 1
    }
    return result
}

/// Starts a process; stdout and stderr go to /dev/null unless `quiet` is false.
func spawn(_ arguments: [String], environment extra: [String] = [], quiet: Bool = true) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if quiet {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    let keys = Set(extra.map { $0.split(separator: "=", maxSplits: 1)[0] })
    let environment = currentEnvironment().filter { !keys.contains($0.split(separator: "=", maxSplits: 1)[0]) } + extra
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
    defer {
        for argument in argv { free(argument) }
        for variable in envp { free(variable) }
    }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
    if rc != 0 { die("posix_spawn \(arguments[0]): \(rc)") }
    return pid
}

/// Waits for a process and returns its exit status (or 128+signal).
@discardableResult
func wait(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
        if errno != EINTR { die("waitpid: errno \(errno)") }
    }
    if status & 0x7f == 0 { return (status >> 8) & 0xff }
    return 128 + (status & 0x7f)
}

/// SIGTERM, then SIGKILL after 5 s.
func stop(_ pid: pid_t) {
    kill(pid, SIGTERM)
    let deadline = nowNS() + 5_000_000_000
    var status: Int32 = 0
    while nowNS() < deadline {
        if waitpid(pid, &status, WNOHANG) == pid { return }
        usleep(5_000)
    }
    kill(pid, SIGKILL)
    waitpid(pid, &status, 0)
}

/// One field of /proc/PID/smaps_rollup (`Private_Dirty`, `Anonymous`, …), in KiB: the
/// process's mappings summed, which tells what it owns from what it shares with every other
/// Swift process (the runtime's and libraries' clean text).
func smapsRollupKiB(_ pid: pid_t, _ field: String) -> Double {
    procFieldKiB("/proc/\(pid)/smaps_rollup", field)
}

func vmRSSKiB(_ pid: pid_t) -> Double {
    procFieldKiB("/proc/\(pid)/status", "VmRSS")
}

/// The number of the line `FIELD:   1234 kB` of a /proc file, or NaN.
private func procFieldKiB(_ path: String, _ field: String) -> Double {
    guard let file = fopen(path, "r") else { return .nan }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 512)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(cString: line)
        if text.hasPrefix("\(field):") {
            let digits = text.filter { $0.isNumber }
            return Double(digits) ?? .nan
        }
    }
    return .nan
}

func raiseFileLimit(to wanted: rlim_t) -> rlim_t {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    let target = min(wanted, limit.rlim_max)
    if limit.rlim_cur < target {
        limit.rlim_cur = target
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 { note("setrlimit: errno \(errno)") }
    }
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    return limit.rlim_cur
}

// Statistics over samples.

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let index = min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))
    return sorted[index]
}

func median(_ values: [Double]) -> Double {
    percentile(values.sorted(), 50)
}

func fmt(_ value: Double, _ digits: Int = 1) -> String {
    guard value.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = "\(rounded)"
    if digits == 0, text.hasSuffix(".0") { text.removeLast(2) }
    return text
}

/// Thousands separators for rates.
func grouped(_ value: Double) -> String {
    guard value.isFinite else { return "n/a" }
    let digits = Array(String(Int(value.rounded())))
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return out
}

func mkdirs(_ path: String) {
    var prefix = ""
    for part in path.split(separator: "/") {
        prefix += "/" + part
        mkdir(prefix, 0o755)
    }
}

/// The file names of the shared libraries a process maps, in the order of their addresses.
func sharedLibraries(_ pid: pid_t) -> [String] {
    let maps = String(decoding: readFile("/proc/\(pid)/maps") ?? [], as: UTF8.self)
    var names: [String] = []
    for line in maps.split(separator: "\n") {
        guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last, path.hasPrefix("/"),
            let name = path.split(separator: "/").last, name.contains(".so")
        else { continue }
        if !names.contains(String(name)) { names.append(String(name)) }
    }
    return names
}

func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 { return nil }
    defer { close(fd) }
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        if n <= 0 { break }
        result.append(contentsOf: chunk[0..<n])
    }
    return result
}

func writeFile(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    if fd < 0 { die("open \(path): errno \(errno)") }
    writeAll(fd, bytes)
    close(fd)
}

/// Waits up to 50 ms for some of `fds` (in `epoll` with their index as its data) to be readable,
/// and reads each of those until it would block.
/// - Parameters:
///   - epoll: The epoll descriptor.
///   - fds: The non-blocking descriptors, by index.
///   - ready: Room for the events of one wait.
///   - buffer: Where each read goes.
///   - received: Given each chunk read and its descriptor's index.
///   - closed: Given the index of each descriptor whose peer closed; it leaves the epoll set.
func readReady(
    epoll: Int32, fds: [Int32], ready: inout [epoll_event], buffer: UnsafeMutableRawBufferPointer,
    received: (Int, UnsafeRawBufferPointer) -> Void, closed: (Int) -> Void
) {
    let n = epoll_wait(epoll, &ready, Int32(ready.count), 50)
    guard n > 0 else { return }
    for index in ready[0..<Int(n)].map({ Int($0.data.u32) }) {
        while true {
            let got = read(fds[index], buffer.baseAddress!, buffer.count)
            if got <= 0 {
                if got == 0 {
                    closed(index)
                    _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fds[index], nil)
                }
                break
            }
            received(index, UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
        }
    }
}
