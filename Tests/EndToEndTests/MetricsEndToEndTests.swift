import Foundation
import TestSupport
import XCTest

/// `GetMetrics` and `appstatectl metrics` after known traffic against the real daemon, read
/// by a real Prometheus parser: prometheus-client's `text_string_to_metric_families`, from
/// PyPI, which Prometheus's own text-format rules (names, labels, TYPE lines, histogram
/// buckets) are checked against.
final class MetricsEndToEndTests: AppStateTestCase {
    /// One parsed sample.
    private struct Sample: Hashable {
        let family: String
        let type: String
        let name: String
        let labels: [String: String]
        let value: Double
    }

    /// Parses an exposition with prometheus-client.
    private func parse(_ exposition: String) throws -> [Sample] {
        let interpreter = Products.python.path
        guard FileManager.default.isExecutableFile(atPath: interpreter) else {
            throw TestFailure("no venv at \(interpreter): `scripts/install-deps --test` creates it")
        }
        let result = try Command.run(
            interpreter,
            [
                "-c",
                """
                import json, sys
                from prometheus_client.parser import text_string_to_metric_families
                print(json.dumps([[family.name, family.type, sample.name, sample.labels, sample.value]
                                  for family in text_string_to_metric_families(sys.stdin.read())
                                  for sample in family.samples]))
                """,
            ], input: Array(exposition.utf8))
        guard result.status == 0 else { throw TestFailure("prometheus-client refused the exposition: \(result.stderr)\n\(exposition)") }
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[Any]])
        return try rows.map { row in
            Sample(
                family: try XCTUnwrap(row[0] as? String), type: try XCTUnwrap(row[1] as? String), name: try XCTUnwrap(row[2] as? String),
                labels: try XCTUnwrap(row[3] as? [String: String]), value: try XCTUnwrap((row[4] as? NSNumber)?.doubleValue))
        }
    }

    private func ctl(_ daemon: DaemonProcess, _ arguments: [String]) throws -> Command {
        try Command.run(Products.appstatectl.path, ["--socket", daemon.socketPath] + arguments)
    }

    /// The samples of one series name, by their labels.
    private func series(_ name: String, in samples: [Sample]) -> [[String: String]: Double] {
        Dictionary(samples.filter { $0.name == name }.map { ($0.labels, $0.value) }) { first, _ in first }
    }

    /// A watcher that never reads, cut off by the `Resize`s sent meanwhile; then read to its
    /// end, so the daemon closes it. Returns how many `Resize`s were sent.
    private func cutOffOneWatcher(_ daemon: DaemonProcess) throws -> Int {
        let slow = try ProbeConnection(path: daemon.socketPath)
        // `full` makes every reply the whole tree, so the queue's 4 MiB fill in fewer events.
        XCTAssertTrue(slow.send(frame: #"{"method":"io.appstate.Watch","parameters":{"full":true},"more":true}"#))
        let mutator = try ProbeConnection(path: daemon.socketPath)
        var sent = 0
        for _ in 0..<10 {
            var batch: [UInt8] = []
            for index in sent..<(sent + 200) {
                batch += Array(#"{"method":"io.appstate.Resize","parameters":{"width":\#(800 + index % 2),"height":600}}"#.utf8) + [0]
            }
            XCTAssertTrue(mutator.send(batch))
            for _ in 0..<200 { XCTAssertNil(try XCTUnwrap(mutator.nextFrame())["error"]) }
            sent += 200
        }
        var last: [UInt8] = []
        while let frame = slow.nextRawFrame(timeout: 10) { last = frame }
        let error = (try JSONSerialization.jsonObject(with: Data(last)) as? [String: Any])?["error"] as? String
        XCTAssertEqual(error, "io.appstate.WatcherTooSlow")
        XCTAssertTrue(slow.isClosed)
        return sent
    }

    func testMetrics_whenKnownTrafficWasSent_thenPrometheusParserReadsExactCounts() throws {
        let daemon = try DaemonProcess()
        defer { XCTAssertEqual(daemon.stop(), 0) }
        for _ in 0..<3 { XCTAssertEqual(try ctl(daemon, ["login", "ada"]).status, 0) }
        for _ in 0..<2 { XCTAssertEqual(try ctl(daemon, ["current", "session/nope"]).status, 1) }
        let resizes = try cutOffOneWatcher(daemon)
        // The watcher's connection is gone once the daemon has seen it close.
        XCTAssertTrue(
            Reliability.wait(timeout: 10) {
                (try? self.ctl(daemon, ["status", "--json"]).stdout.contains(#""watchers":0"#)) == true
            })

        let first = try ctl(daemon, ["metrics"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let samples = try parse(first.stdout)

        let types = Dictionary(samples.map { ($0.family, $0.type) }) { first, _ in first }
        XCTAssertEqual(
            types,
            [
                "appstate_requests": "counter", "appstate_errors": "counter", "appstate_watchers_cut": "counter",
                "appstate_connections": "gauge", "appstate_watchers": "gauge", "appstate_frontends_up": "gauge",
                "appstate_commit_seconds": "histogram", "appstate_commit_batch_size": "histogram", "appstate_fanout_seconds": "histogram",
            ])
        let requests = series("appstate_requests_total", in: samples)
        // Every declared method has its `ok` series from the start; these are the ones the
        // traffic above moved (`status` asked GetInfo and GetStats until the watcher was gone).
        let moved = requests.filter { $0.value != 0 }
        let statusCalls = try XCTUnwrap(moved[["method": "io.appstate.GetStats", "outcome": "ok"]])
        XCTAssertEqual(
            moved,
            [
                ["method": "io.appstate.Login", "outcome": "ok"]: 3,
                ["method": "io.appstate.GetCurrent", "outcome": "io.appstate.NoSuchNode"]: 2,
                ["method": "io.appstate.Watch", "outcome": "ok"]: 1,
                ["method": "io.appstate.Resize", "outcome": "ok"]: Double(resizes),
                ["method": "org.varlink.service.GetInfo", "outcome": "ok"]: statusCalls,
                ["method": "io.appstate.GetStats", "outcome": "ok"]: statusCalls,
            ])
        XCTAssertEqual(requests[["method": "io.appstate.GetMetrics", "outcome": "ok"]], 0, "the call is counted after its reply")
        XCTAssertEqual(
            series("appstate_errors_total", in: samples),
            [
                ["error": "io.appstate.NoSuchNode"]: 2, ["error": "io.appstate.WatcherTooSlow"]: 1,
            ])
        XCTAssertEqual(series("appstate_watchers_cut_total", in: samples), [[:]: 1])
        XCTAssertEqual(series("appstate_watchers", in: samples), [[:]: 0])
        XCTAssertEqual(
            series("appstate_frontends_up", in: samples), [["tree": "default", "kind": "kiosk"]: 0, ["tree": "default", "kind": "page"]: 0],
            "every kind of every tree, before any front-end reported")
        XCTAssertEqual(series("appstate_connections", in: samples), [[:]: 1], "only the metrics call's own")
        // Only the first Login wrote: the later ones and the Resizes left the disk's state as it was.
        XCTAssertEqual(series("appstate_commit_batch_size_count", in: samples), [[:]: 1])
        XCTAssertEqual(series("appstate_commit_batch_size_sum", in: samples), [[:]: 1])
        XCTAssertEqual(series("appstate_commit_seconds_count", in: samples), [[:]: 1])
        XCTAssertGreaterThan(try XCTUnwrap(series("appstate_commit_seconds_sum", in: samples)[[:]]), 0)
        // One fan-out per event while the watcher was followed: at most one per Resize.
        let fanOuts = try XCTUnwrap(series("appstate_fanout_seconds_count", in: samples)[[:]])
        XCTAssertGreaterThan(fanOuts, 0)
        XCTAssertLessThanOrEqual(fanOuts, Double(resizes))
        XCTAssertEqual(series("appstate_fanout_seconds_bucket", in: samples)[["le": "+Inf"]], fanOuts)

        let second = try parse(try ctl(daemon, ["metrics"]).stdout)
        XCTAssertEqual(series("appstate_requests_total", in: second)[["method": "io.appstate.GetMetrics", "outcome": "ok"]], 1)
    }

    func testMetricsOutput_whenWritten_thenReplacesTheFileWholeAndLeavesNoTemporaryFile() throws {
        let daemon = try DaemonProcess()
        defer { XCTAssertEqual(daemon.stop(), 0) }
        let directory = try DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("appstate.prom")
        try "stale\n".write(to: file, atomically: false, encoding: .utf8)
        XCTAssertEqual(try ctl(daemon, ["login", "ada"]).status, 0)

        let result = try ctl(daemon, ["metrics", "--output", file.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["appstate.prom"])
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o644, "node-exporter runs as a user of its own")
        let samples = try parse(try String(contentsOf: file, encoding: .utf8))
        XCTAssertEqual(series("appstate_requests_total", in: samples)[["method": "io.appstate.Login", "outcome": "ok"]], 1)
    }

    func testMetricsOutput_whenDirectoryIsMissing_thenExits73AndNamesTheFile() throws {
        let daemon = try DaemonProcess()
        defer { XCTAssertEqual(daemon.stop(), 0) }
        let result = try ctl(daemon, ["metrics", "--output", daemon.socketPath + ".absent/appstate.prom"])
        XCTAssertEqual(result.status, 73)
        XCTAssertTrue(result.stderr.contains(".absent/appstate.prom: cannot create a file in"), result.stderr)
    }
}
