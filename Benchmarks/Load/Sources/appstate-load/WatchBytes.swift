import Glibc

// Figure 13: the bytes a page turn costs each watcher. On the default tree, Watch's replies
// (the members that changed, by path) beside the same turns asked with `subtrees` (the changed
// subtrees whole, the replies of before); then a turn in a container of 1,000 pages beside one
// in a container of 3, each the root of a tree of one daemon.

/// Bytes of each watcher's reply to `turns` page turns of `path` (back and forth, after one
/// turn each way that lays the pages out), averaged; one watcher per parameter set.
private func bytesPerTurn(
    socketPath: String, tree: String, path: String, watches: [String], turns: Int, buffer: UnsafeMutableRawBufferPointer
) -> [Int] {
    let caller = connectUnix(socketPath, wait: 2_000_000_000)
    defer { close(caller) }
    func turn(_ index: Int) {
        let reply = rawCall(
            caller,
            frame(#"{"method":"io.appstate.SetPage","parameters":{"tree":"\#(tree)","path":"\#(path)","index":\#(index % 2)}}"#),
            buffer)
        if isErrorReply(reply) { die("watch bytes: \(String(decoding: reply, as: UTF8.self))") }
    }
    turn(1)
    turn(0)
    let watchers = watches.map { parameters in
        let fd = connectUnix(socketPath)
        writeAll(fd, frame(#"{"method":"io.appstate.Watch","parameters":\#(parameters),"more":true}"#))
        guard readOneFrame(fd, buffer) != nil else { die("watch bytes: no snapshot") }
        return fd
    }
    var bytes = watches.map { _ in 0 }
    for index in 1...turns {
        turn(index)
        for (slot, fd) in watchers.enumerated() {
            guard let reply = readOneFrame(fd, buffer, keep: true) else { die("watch bytes: a watcher was closed") }
            bytes[slot] += reply.count + 1
        }
    }
    for fd in watchers { close(fd) }
    return bytes.map { $0 / turns }
}

/// Figure 13's rows.
func measureWatchBytes(daemon: Daemon, appstated: String, socketDirectory: String, work: String, buffer: UnsafeMutableRawBufferPointer) {
    let login = connectUnix(daemon.socketPath, wait: 2_000_000_000)
    _ = rawCall(login, loginFrame("watch"), buffer)
    close(login)
    let turns = 20
    let onDefault = bytesPerTurn(
        socketPath: daemon.socketPath, tree: "default", path: "session/home/pages", watches: [#"{}"#, #"{"subtrees":true}"#],
        turns: turns, buffer: buffer)
    row(
        "Watch bytes per page turn per watcher, default tree (\(turns) turns back and forth)",
        value: "\(onDefault[0]) B", baseline: "the same turns to a watcher asking `subtrees` (the changed subtrees whole), same run",
        baselineValue: "\(onDefault[1]) B", ratio: "\(fmt(Double(onDefault[0]) / Double(onDefault[1]), 2))×", target: "≤ 600 B",
        met: onDefault[0] <= 600)

    // Two trees of the same shape and names of the same length, but for their pages.
    func tree(_ name: String, pages count: Int) -> String {
        let pages = (0..<count).map { #"{"type":"Controller","id":"p\#($0)"}"# }.joined(separator: ",")
        return
            #"{"name":"\#(name)","window":{"width":1280,"height":800},"root":{"type":"PaginatedController","id":"pages","children":[\#(pages)]}}"#
    }
    let file = "\(work)/watch-bytes.json"
    writeFile(file, Array(#"{"version":1,"trees":[\#(tree("few", pages: 3)),\#(tree("all", pages: 1000))]}"#.utf8))
    let pages = Daemon(name: "watch-bytes", appstated: appstated, socketDirectory: socketDirectory, work: work, extra: ["--tree-file", file])
    let few = bytesPerTurn(socketPath: pages.socketPath, tree: "few", path: "pages", watches: [#"{"tree":"few"}"#], turns: turns, buffer: buffer)
    let all = bytesPerTurn(socketPath: pages.socketPath, tree: "all", path: "pages", watches: [#"{"tree":"all"}"#], turns: turns, buffer: buffer)
    let before = bytesPerTurn(
        socketPath: pages.socketPath, tree: "all", path: "pages", watches: [#"{"tree":"all","subtrees":true}"#], turns: 2, buffer: buffer)
    pages.stopAndWait()
    note("watch bytes: default tree \(onDefault); 3 pages \(few[0]), 1,000 pages \(all[0]), 1,000 pages with subtrees \(before[0])")
    row(
        "Watch bytes per page turn per watcher, a container of 1,000 pages (with `subtrees`: \(grouped(Double(before[0]))) B)",
        value: "\(all[0]) B", baseline: "a container of 3 pages, same daemon", baselineValue: "\(few[0]) B",
        ratio: "\(fmt(Double(all[0]) / Double(few[0]), 2))×", target: "≤ 1.1×", met: Double(all[0]) <= 1.1 * Double(few[0]))
}
