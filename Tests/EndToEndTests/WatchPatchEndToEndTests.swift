import AppStateCore
import AppStateIPC
import Foundation
import TestSupport
import XCTest

/// What a page turn costs a watcher through the real daemon: the members that changed, a few
/// hundred bytes, whatever the number of pages; the whole subtree only on request.
final class WatchPatchEndToEndTests: AppStateTestCase {
    /// Two trees, each a paginated container, of 3 and of 1,000 pages, with names of the same
    /// length, so that a turn of either writes the same text but for those names.
    private static let treeFile: String = {
        func tree(_ name: String, pages count: Int) -> String {
            let pages = (0..<count).map { #"{"type":"Controller","id":"p\#($0)"}"# }.joined(separator: ",")
            return
                #"{"name":"\#(name)","window":{"width":1280,"height":800},"root":{"type":"PaginatedController","id":"pages","children":[\#(pages)]}}"#
        }
        return #"{"version":1,"trees":[\#(tree("few", pages: 3)),\#(tree("all", pages: 1000))]}"#
    }()

    func testPageTurn_whenOnTheDefaultTree_thenAtMost600BytesAndOnlyTheMembersThatChanged() throws {
        let daemon = try DaemonProcess()
        defer { XCTAssertEqual(daemon.stop(), 0, daemon.stderrText) }
        let client = try VarlinkClient(path: daemon.socketPath)
        _ = try client.call(method: Login.name, parameters: ["user": "ada"])
        // The first visit of a page makes what it shows (the activity page's loading child):
        // the turns measured are the ones after, as a user turns pages back and forth.
        for index in [1, 0] {
            _ = try client.call(method: "io.appstate.SetPage", parameters: ["path": "session/home/pages", "index": .number(Double(index))])
        }
        let (patches, subtrees) = (try watch(daemon), try watch(daemon, #"{"subtrees":true}"#))
        _ = try client.call(method: "io.appstate.SetPage", parameters: ["path": "session/home/pages", "index": 1])
        let patch = try XCTUnwrap(patches.receiveText(frames: 1).frames.first)
        let whole = try XCTUnwrap(subtrees.receiveText(frames: 1).frames.first)
        XCTAssertLessThanOrEqual(patch.count + 1, 600, String(decoding: patch, as: UTF8.self))
        let reply = try Watch.Reply(
            parameters: try XCTUnwrap(try JSONValue(jsonText: String(decoding: patch, as: UTF8.self))["parameters"]?.objectValue))
        XCTAssertEqual(reply.patches?["session/home/pages"]?["current"], "activity")
        XCTAssertEqual(reply.patches?["session/home/pages/overview"], ["appearance": "disappeared", "onScreen": false])
        XCTAssertEqual(reply.patches?["session/home/pages"]?["pageIndex"], 1)
        XCTAssertNil(reply.changed)
        let old = try Watch.Reply(
            parameters: try XCTUnwrap(try JSONValue(jsonText: String(decoding: whole, as: UTF8.self))["parameters"]?.objectValue))
        XCTAssertEqual(old.changed?.map(\.path), ["session/home/pages"], "with subtrees, the container's subtree whole")
        XCTAssertNil(old.patches)
    }

    func testPageTurn_whenTheContainerHas1000Pages_thenNoMoreBytesThanWith3() throws {
        let directory = try DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("pages.json")
        try Self.treeFile.write(to: file, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(arguments: ["--tree-file", file.path])
        defer { XCTAssertEqual(daemon.stop(), 0, daemon.stderrText) }
        let client = try VarlinkClient(path: daemon.socketPath)
        // Each container's pages are laid out as they are first shown: the turns measured
        // are the ones after.
        for tree in ["few", "all"] {
            for index in [1, 0] {
                _ = try client.call(
                    method: "io.appstate.SetPage", parameters: ["tree": .string(tree), "path": "pages", "index": .number(Double(index))])
            }
        }
        var bytes: [String: Int] = [:]
        for tree in ["few", "all"] {
            let watcher = try watch(daemon, #"{"tree":"\#(tree)"}"#)
            _ = try client.call(method: "io.appstate.SetPage", parameters: ["tree": .string(tree), "path": "pages", "index": 1])
            let frame = try XCTUnwrap(watcher.receiveText(frames: 1).frames.first, tree)
            let reply = try JSONValue(jsonText: String(decoding: frame, as: UTF8.self))["parameters"]
            XCTAssertEqual(reply?["patches"]?.objectValue?.keys.sorted(), ["pages", "pages/p0", "pages/p1"], tree)
            bytes[tree] = frame.count + 1
        }
        let (few, all) = (try XCTUnwrap(bytes["few"]), try XCTUnwrap(bytes["all"]))
        XCTAssertLessThanOrEqual(Double(all), 1.1 * Double(few), "a turn among 1,000 pages: \(all) bytes; among 3: \(few)")
    }

    /// A raw `Watch` whose first reply, the snapshot, was read.
    private func watch(_ daemon: DaemonProcess, _ parameters: String = "{}") throws -> RawConnection {
        let connection = try RawConnection(path: daemon.socketPath)
        connection.send(frame: #"{"method":"io.appstate.Watch","parameters":\#(parameters),"more":true}"#)
        XCTAssertEqual(connection.receiveText(frames: 1).frames.count, 1, "no snapshot")
        return connection
    }
}
