import Glibc

// Figure 9: from a change of the compositor's output to a watcher's event, beside the same
// change by a direct Resize call, in one run. sway 1.7 runs headless (as an unprivileged user
// when the tool runs as root, since sway refuses root), and appstated follows its output.

/// The unprivileged user sway runs as under root, as the tests' compositors do.
let swayUser: uid_t = 4711

/// A command to sway over its IPC socket (i3's protocol: "i3-ipc", the payload's length and
/// the message type, native byte order; type 0 runs a command), waiting for its reply.
func swayCommand(_ fd: Int32, _ command: String, _ buffer: UnsafeMutableRawBufferPointer) {
    let payload = Array(command.utf8)
    var message = Array("i3-ipc".utf8)
    withUnsafeBytes(of: UInt32(payload.count)) { message += $0 }
    withUnsafeBytes(of: UInt32(0)) { message += $0 }
    writeAll(fd, message + payload)
    var header = [UInt8](repeating: 0, count: 14)
    readExactly(fd, &header)
    let length = header[6..<10].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    var reply = [UInt8](repeating: 0, count: Int(length))
    readExactly(fd, &reply)
    let text = String(decoding: reply, as: UTF8.self)
    if !text.contains(#""success": true"#) && !text.contains(#""success":true"#) { die("sway refused \(command): \(text)") }
}

func readExactly(_ fd: Int32, _ bytes: inout [UInt8]) {
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
        if n < 0, errno == EINTR { continue }
        if n <= 0 { die("sway closed its IPC socket") }
        done += n
    }
}

/// Reads a watcher's frames until one carries the Resize to `width`: a compositor may send a
/// change in steps, and only the last one is the change measured.
func waitForResize(_ fd: Int32, width: Int, _ buffer: UnsafeMutableRawBufferPointer) {
    while true {
        guard let reply = readOneFrame(fd, buffer, keep: true) else { die("the watcher was closed") }
        let text = String(decoding: reply, as: UTF8.self)
        if text.contains(#""error""#) { die("watch ended: \(text)") }
        if !text.contains(#""name":"Resize""#) { die("an event other than Resize: \(text)") }
        if text.contains(#""width":\#(width),"#) || text.contains(#""width":\#(width)}"#) { return }
    }
}

func measureOutputLatency(appstated: String, socketDirectory: String, work: String, changes: Int) {
    guard let sway = ["/usr/bin/sway", "/usr/local/bin/sway"].first(where: { (path: String) in access(path, X_OK) == 0 }) else {
        row("Wayland output change → watcher event", value: "not measured: sway is not installed", met: nil)
        return
    }
    let runtime = "\(socketDirectory)/sway-runtime"
    mkdirs(runtime)
    let asRoot = getuid() == 0
    if asRoot { chown(runtime, swayUser, swayUser) }
    chmod(runtime, 0o700)
    let config = "\(socketDirectory)/sway-config"
    writeFile(config, [])
    chmod(config, 0o644)
    let command =
        (asRoot ? ["/usr/bin/setpriv", "--reuid=\(swayUser)", "--regid=\(swayUser)", "--clear-groups", "--"] : []) + [sway, "--config", config]
    let swayPID = spawn(
        command,
        environment: [
            "XDG_RUNTIME_DIR=\(runtime)", "HOME=\(runtime)", "WLR_BACKENDS=headless", "WLR_LIBINPUT_NO_DEVICES=1", "WLR_RENDERER=pixman",
        ])
    defer {
        stop(swayPID)
        for name in (try? listDirectory(runtime)) ?? [] { unlink("\(runtime)/\(name)") }
        rmdir(runtime)
    }
    let deadline = nowNS() + 15_000_000_000
    var ipc: String?
    var display: String?
    while ipc == nil || display == nil {
        if nowNS() > deadline { die("sway did not start") }
        usleep(20_000)
        let names = (try? listDirectory(runtime)) ?? []
        ipc = names.first { $0.hasPrefix("sway-ipc.") }.map { "\(runtime)/\($0)" }
        display = names.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }.map { "\(runtime)/\($0)" }
    }
    setenv("WAYLAND_DISPLAY", display!, 1)
    let trees = "\(socketDirectory)/output-trees.yaml"
    writeFile(
        trees,
        Array(
            """
            trees:
              - name: followed
                output: HEADLESS-1
                root: { type: Controller, id: main }
              - name: direct
                root: { type: Controller, id: main }

            """.utf8))
    let daemon = Daemon(name: "output", appstated: appstated, socketDirectory: socketDirectory, work: work, extra: ["--tree-file", trees])
    unsetenv("WAYLAND_DISPLAY")
    defer { daemon.stopAndWait() }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
    defer { buffer.deallocate() }
    let swayIPC = connectUnix(ipc!, wait: 5_000_000_000)
    let client = connectUnix(daemon.socketPath)
    var watchers: [String: Int32] = [:]
    for tree in ["followed", "direct"] {
        let fd = connectUnix(daemon.socketPath)
        writeAll(fd, frame(#"{"method":"io.appstate.Watch","parameters":{"tree":"\#(tree)"},"more":true}"#))
        _ = readOneFrame(fd, buffer, keep: true)
        watchers[tree] = fd
    }
    var followed: [Double] = []
    var direct: [Double] = []
    let sizes = [(1080, 1920), (1920, 1080)]
    for index in 0..<changes {
        let (width, height) = sizes[index % 2]
        var start = nowNS()
        swayCommand(swayIPC, "output HEADLESS-1 resolution \(width)x\(height)", buffer)
        waitForResize(watchers["followed"]!, width: width, buffer)
        followed.append(Double(nowNS() - start) / 1e6)
        start = nowNS()
        let reply = rawCall(
            client, frame(#"{"method":"io.appstate.Resize","parameters":{"tree":"direct","width":\#(width),"height":\#(height)}}"#), buffer)
        if isErrorReply(reply) { die("Resize: \(String(decoding: reply, as: UTF8.self))") }
        waitForResize(watchers["direct"]!, width: width, buffer)
        direct.append(Double(nowNS() - start) / 1e6)
    }
    for fd in [swayIPC, client] + Array(watchers.values) { close(fd) }
    let f = followed.sorted()
    let d = direct.sorted()
    note(
        "output change ms p50 \(fmt(percentile(f, 50), 2)) p99 \(fmt(percentile(f, 99), 2)); Resize ms p50 \(fmt(percentile(d, 50), 2)) p99 \(fmt(percentile(d, 99), 2))"
    )
    row(
        "Wayland output change → watcher event (\(changes) changes of a headless sway's mode over its IPC, from the command to the event)",
        value: "p50 \(fmt(percentile(f, 50), 2)) ms, p99 \(fmt(percentile(f, 99), 2)) ms",
        baseline: "the same Resize by a direct Varlink call, interleaved",
        baselineValue: "p50 \(fmt(percentile(d, 50), 2)) ms, p99 \(fmt(percentile(d, 99), 2)) ms",
        ratio: "p50 \(fmt(percentile(f, 50) / percentile(d, 50), 2))×, p99 \(fmt(percentile(f, 99) / percentile(d, 99), 2))×",
        met: nil)
}

/// The names in a directory.
func listDirectory(_ path: String) throws -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
