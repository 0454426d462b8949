import AppStateIPC
import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Load and abuse against the real daemon (docs/reliability/load-and-abuse.md): thousands of
/// connections, a watcher that never reads, half-sent messages, a client that never reads its
/// replies, and a client flooding mutations while another measures its own latency. Figures
/// are printed as `[reliability]` lines; nothing here asserts on time except that nothing hangs.
final class ReliabilityLoadTests: AppStateTestCase {
    private static let getInfo = Array(#"{"method":"org.varlink.service.GetInfo"}"#.utf8) + [0]

    private enum Answer: Hashable {
        case reply, tooManyConnections
        case otherError(String)
        case nothing
    }

    /// Opens `count` connections, sends GetInfo on each and reads the first answer of each.
    private func storm(_ socket: String, count: Int, nonBlocking: Bool = false)
        -> (connections: [ProbeConnection], answers: [Answer], connectErrors: [String: Int], seconds: Double)
    {
        let start = ContinuousClock.now
        var connections: [ProbeConnection] = []
        var connectErrors: [String: Int] = [:]
        for _ in 0..<count {
            do {
                connections.append(try ProbeConnection(path: socket, nonBlocking: nonBlocking))
            } catch {
                connectErrors["\(error)", default: 0] += 1
            }
        }
        for connection in connections { connection.send(Self.getInfo) }
        // One deadline for all, so that connections left hanging fail the test in seconds.
        let deadline = Date().addingTimeInterval(30)
        let answers = connections.map { connection -> Answer in
            guard let frame = connection.nextFrame(timeout: max(0.001, deadline.timeIntervalSinceNow)) else { return .nothing }
            switch frame["error"] as? String {
            case nil: return .reply
            case "io.appstate.TooManyConnections": return .tooManyConnections
            case let name?: return .otherError(name)
            }
        }
        return (connections, answers, connectErrors, Reliability.milliseconds(ContinuousClock.now - start) / 1000)
    }

    func testConnections_when2000AtTheDefaultLimitOf1000_thenEachHeldOrRefusedCleanly() throws {
        let daemon = try DaemonProcess()
        let pid = daemon.process.processIdentifier
        let idle = try Reliability.residentKiB(of: pid)
        let (connections, answers, connectErrors, seconds) = storm(daemon.socketPath, count: 2000)
        XCTAssertEqual(connectErrors, [:])
        let held = answers.indices.filter { answers[$0] == .reply }
        let refused = answers.indices.filter { answers[$0] == .tooManyConnections }
        XCTAssertEqual(held.count, 1000)
        XCTAssertEqual(refused.count, 1000)
        XCTAssertEqual(answers.filter { $0 == .nothing }.count, 0, "connections left hanging")
        for index in refused { XCTAssertTrue(connections[index].waitForClose(timeout: 5), "a refused connection stayed open") }
        let loaded = try Reliability.residentKiB(of: pid)
        let descriptors = Reliability.openDescriptors(of: pid)
        // Places come back: close 100 held connections, and 100 new ones are held.
        for index in held.prefix(100) { shutdown(connections[index].fd, Int32(SHUT_RDWR)) }
        XCTAssertTrue(Reliability.wait(timeout: 10) { Reliability.openDescriptors(of: pid) <= descriptors - 100 })
        let (_, again, _, _) = storm(daemon.socketPath, count: 100)
        XCTAssertEqual(again.filter { $0 == .reply }.count, 100, "\(again)")
        XCTAssertTrue(Reliability.isAlive(pid))
        Reliability.report(
            "connections: 2,000 at a limit of 1,000: 1,000 held, 1,000 refused with TooManyConnections, 0 hanging, in \(Reliability.format(seconds)) s; RSS \(idle / 1024) MiB idle, \(loaded / 1024) MiB with 1,000 held; 100 places given back and reused"
        )
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }

    func testConnections_when2000UnderSystemdsSoftDescriptorLimit_thenAllConnectAndAreHeld() throws {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(UInt32(RLIMIT_NOFILE.rawValue)), &limit)
        guard limit.rlim_max >= 2200 else { throw XCTSkip("the hard descriptor limit \(limit.rlim_max) is below 2,200") }
        // systemd starts services with a soft limit of 1024 and a higher hard limit.
        let daemon = try DaemonProcess(
            wrapper: ["/usr/bin/prlimit", "--nofile=1024:\(limit.rlim_max)", "--"],
            arguments: ["--max-connections", "2500"])
        // Without waiting in connect, as sd-varlink clients do: a full backlog would be EAGAIN.
        let (connections, answers, connectErrors, seconds) = storm(daemon.socketPath, count: 2000, nonBlocking: true)
        XCTAssertEqual(connectErrors, [:])
        XCTAssertEqual(answers.filter { $0 == .reply }.count, 2000, "\(Dictionary(answers.map { ($0, 1) }, uniquingKeysWith: +))")
        let resident = try Reliability.residentKiB(of: daemon.pid)
        // Every held connection still answers.
        for connection in connections { connection.send(Self.getInfo) }
        let deadline = Date().addingTimeInterval(30)
        XCTAssertEqual(connections.filter { $0.nextFrame(timeout: max(0.001, deadline.timeIntervalSinceNow))?["parameters"] != nil }.count, 2000)
        Reliability.report(
            "connections: 2,000 non-blocking connects under a soft descriptor limit of 1,024 and --max-connections 2500: all held and answered twice, in \(Reliability.format(seconds)) s; RSS \(resident / 1024) MiB"
        )
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }

    func testConnections_whenDescriptorsAllowFewerThanTheLimit_thenTheRestAreRefusedCleanly() throws {
        let daemon = try DaemonProcess(wrapper: ["/usr/bin/prlimit", "--nofile=256:256", "--"])
        let (connections, answers, connectErrors, _) = storm(daemon.socketPath, count: 400)
        XCTAssertEqual(connectErrors, [:])
        XCTAssertEqual(answers.filter { $0 == .reply }.count, 256 - 64)
        XCTAssertEqual(answers.filter { $0 == .tooManyConnections }.count, 400 - (256 - 64))
        XCTAssertEqual(answers.filter { $0 == .nothing }.count, 0, "connections left hanging")
        XCTAssertTrue(daemon.stderrText.contains("allow 192 connections"), daemon.stderrText)
        withExtendedLifetime(connections) {}
        Reliability.report("connections: 400 with 256 descriptors: 192 held, 208 refused with TooManyConnections, 0 hanging")
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }

    func testWatchers_whenTheyNeverRead_thenToldAndDisconnectedWithFlatMemoryAndOthersUnaffected() throws {
        // Time enough to read every slow watcher one after the other before the grace ends.
        let daemon = try DaemonProcess(arguments: ["--partial-message-timeout", "60"])
        let pid = daemon.process.processIdentifier
        let events = 3000
        // A watcher that keeps up, reading on its own thread.
        let received = Shared(0)
        let ready = DispatchSemaphore(value: 0)
        let socket = daemon.socketPath
        let reader = TestThread {
            guard let watcher = try? ProbeConnection(path: socket) else {
                ready.signal()
                return
            }
            watcher.send(frame: #"{"method":"io.appstate.Watch","more":true}"#)
            _ = watcher.nextRawFrame()
            ready.signal()
            while received.current < events, let frame = watcher.nextRawFrame(timeout: 30), !frame.isEmpty {
                received.with { $0 += 1 }
            }
        }
        ready.wait()
        // Watchers that never read.
        let slow = try (0..<50).map { _ in try ProbeConnection(path: daemon.socketPath) }
        for watcher in slow { watcher.send(frame: #"{"method":"io.appstate.Watch","more":true}"#) }
        let bystander = try VarlinkClient(path: daemon.socketPath)
        // Calls on other connections are not ordered after theirs: the count catches up.
        XCTAssertTrue(Reliability.wait(timeout: 10) { (try? bystander.call(method: "io.appstate.GetStats")["watchers"]) == 51 })
        let before = try Reliability.residentKiB(of: pid)
        var peak = before
        var afterCutOff = 0
        var latencies: [Double] = []
        let mutator = try ProbeConnection(path: daemon.socketPath)
        var sent = 0
        while sent < events {
            var batch: [UInt8] = []
            for index in sent..<(sent + 200) {
                batch += Array(#"{"method":"io.appstate.Resize","parameters":{"width":\#(800 + index % 2),"height":600}}"#.utf8) + [0]
            }
            mutator.send(batch)
            for _ in 0..<200 { XCTAssertNil(mutator.nextFrame()?["error"]) }
            sent += 200
            let start = ContinuousClock.now
            _ = try bystander.call(method: "io.appstate.GetCurrent")
            latencies.append(Reliability.milliseconds(ContinuousClock.now - start))
            peak = max(peak, try Reliability.residentKiB(of: pid))
            // Every slow watcher is cut off once its buffers and 1,024 counted replies are full.
            if sent == 2000 { afterCutOff = try Reliability.residentKiB(of: pid) }
        }
        let end = try Reliability.residentKiB(of: pid)
        reader.join()
        XCTAssertEqual(received.current, events, "the watcher that reads missed events")
        // Each slow watcher, reading at last, finds some events, then the reason, then the end.
        var delivered: [Int] = []
        var queued: [Int] = []
        for watcher in slow {
            var frames = 0
            var lastFrame: [UInt8] = []
            while let frame = watcher.nextRawFrame(timeout: 10) {
                frames += 1
                lastFrame = frame
            }
            let last = (try? JSONSerialization.jsonObject(with: Data(lastFrame))) as? [String: Any]
            delivered.append(frames - 1)
            XCTAssertEqual(last?["error"] as? String, "io.appstate.WatcherTooSlow")
            queued.append(((last?["parameters"] as? [String: Any])?["queued"] as? Int) ?? -1)
            XCTAssertTrue(watcher.isClosed)
        }
        XCTAssertTrue(delivered.allSatisfy { $0 < events }, "\(delivered)")
        // The kernel's socket buffer, then NIO's up to its high-water mark, take the first
        // replies; then exactly the documented 1,024 wait counted in the daemon when the next
        // one cuts the watcher off (WatcherLimitTests pins the limit without the kernel).
        XCTAssertEqual(Set(queued), [1024], "\(queued)")
        XCTAssertTrue(
            Reliability.wait(timeout: 10) { (try? bystander.call(method: "io.appstate.GetStats")["watchers"]) == 0 },
            "watchers left behind (the reader has closed too)")
        let growth = peak - before
        Reliability.assertResidentGrowth(growth, below: 48 * 1024, "RSS grew \(growth) KiB with 50 watchers that never read")
        // Flat once they are cut off: 1,000 more events cost nothing.
        Reliability.assertResidentGrowth(end - afterCutOff, below: 4 * 1024, "RSS kept growing after the cut-off: \(afterCutOff) → \(end) KiB")
        latencies.sort()
        Reliability.report(
            "watchers: 50 that never read, 1 that reads, \(events) events of ~1 KiB: the reader got all \(events); each slow one cut off with WatcherTooSlow after \(delivered.min()!)–\(delivered.max()!) events (queued \(queued.min()!)–\(queued.max()!)); RSS \(before / 1024) MiB → peak \(peak / 1024) MiB (+\(growth / 1024) MiB, \(growth / slow.count) KiB per slow watcher), \(afterCutOff / 1024) MiB after the cut-off and \(end / 1024) MiB 1,000 events later; bystander GetCurrent p50 \(Reliability.format(Reliability.percentile(latencies, 0.5))) ms, max \(Reliability.format(latencies.last!)) ms"
        )
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }

    func testSlowLoris_whenMessagesStayHalfSent_thenClosedAfterTheTimeoutWhileOthersAreServed() throws {
        let daemon = try DaemonProcess(arguments: ["--partial-message-timeout", "1"])
        let pid = daemon.process.processIdentifier
        let client = try VarlinkClient(path: daemon.socketPath)
        // A connection with nothing half-sent is not timed out.
        let quiet = try ProbeConnection(path: daemon.socketPath)
        quiet.send(Self.getInfo)
        XCTAssertNotNil(quiet.nextFrame())
        let start = ContinuousClock.now
        let loris = try (0..<300).map { _ in try ProbeConnection(path: daemon.socketPath) }
        for connection in loris { connection.send(Array(#"{"method":"io.appstate.GetTree""#.utf8)) }
        // One more dribbles a byte every 100 ms: still closed one timeout after its first byte.
        let dribbler = try ProbeConnection(path: daemon.socketPath)
        let frame =
            Array(#"{"method":"io.appstate.Post","parameters":{"name":"x","userInfo":{"pad":""#.utf8)
            + Array(repeating: UInt8(ascii: "a"), count: 100)
        var dribbled = 0
        let dribbleStart = ContinuousClock.now
        var latencies: [Double] = []
        while dribbled < frame.count, dribbler.sendWithoutWaiting([frame[dribbled]]) == 1 {
            dribbled += 1
            let call = ContinuousClock.now
            XCTAssertEqual(try client.call(method: "io.appstate.GetCurrent")["path"], "session/login/login-form")
            latencies.append(Reliability.milliseconds(ContinuousClock.now - call))
            usleep(100_000)
            if dribbler.waitForClose(timeout: 0) { break }
        }
        XCTAssertTrue(dribbler.waitForClose(timeout: 5))
        let dribbleSeconds = Reliability.milliseconds(ContinuousClock.now - dribbleStart) / 1000
        XCTAssertLessThan(dribbled, frame.count, "a dribbling client kept its connection by sending a byte at a time")
        var closedAfter: [Double] = []
        for connection in loris {
            XCTAssertTrue(connection.waitForClose(timeout: 10), "a half-sent message was not timed out")
            closedAfter.append(Reliability.milliseconds(ContinuousClock.now - start) / 1000)
        }
        // The quiet connection is still served, and the places are back.
        quiet.send(Self.getInfo)
        XCTAssertNotNil(quiet.nextFrame()?["parameters"])
        XCTAssertTrue(Reliability.wait(timeout: 10) { (try? client.call(method: "io.appstate.GetStats")["connections"]) == 2 })
        XCTAssertTrue(Reliability.isAlive(pid))
        latencies.sort()
        Reliability.report(
            "slow loris: 300 half-sent messages closed after \(Reliability.format(closedAfter.max() ?? 0)) s at most (timeout 1 s); a client dribbling a byte per 100 ms closed after \(dribbled) bytes, \(Reliability.format(dribbleSeconds)) s; other client's GetCurrent p50 \(Reliability.format(Reliability.percentile(latencies, 0.5))) ms, max \(Reliability.format(latencies.last ?? 0)) ms; an idle connection with nothing half-sent kept"
        )
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }

    func testIdleConnections_whenSilentPastTheTimeout_thenClosedWhileWatchersAndBusyClientsStay() throws {
        let daemon = try DaemonProcess(arguments: ["--idle-timeout", "1"])
        let start = ContinuousClock.now
        let silent = try (0..<50).map { _ in try ProbeConnection(path: daemon.socketPath) }
        let watcher = try ProbeConnection(path: daemon.socketPath)
        watcher.send(Array(#"{"method":"io.appstate.Watch","more":true}"#.utf8) + [0])
        XCTAssertNotNil(watcher.nextFrame(), "the watcher's snapshot")
        let busy = try ProbeConnection(path: daemon.socketPath)
        var busyCalls = 0
        while ContinuousClock.now - start < .milliseconds(2500) {
            busy.send(Self.getInfo)
            XCTAssertNotNil(busy.nextFrame(), "a client that calls every 200 ms is answered")
            busyCalls += 1
            usleep(200_000)
        }
        for connection in silent {
            XCTAssertTrue(connection.waitForClose(timeout: 5), "a connection silent for 2.5 s was not closed")
        }
        XCTAssertFalse(watcher.waitForClose(timeout: 0), "a Watch stream is never idle")
        XCTAssertFalse(busy.waitForClose(timeout: 0))
        let client = try VarlinkClient(path: daemon.socketPath)
        XCTAssertTrue(
            Reliability.wait(timeout: 10) { (try? client.call(method: "io.appstate.GetStats")["connections"]) == 3 },
            "the silent connections' places are back")
        Reliability.report(
            "idle timeout 1 s: 50 silent connections closed within 2.5 s; a watcher and a client calling \(busyCalls) times in 2.5 s kept")
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }

    func testUnreadReplies_whenAClientPipelinesWithoutReading_thenMemoryBoundedAndOthersAnswered() throws {
        let daemon = try DaemonProcess(arguments: ["--partial-message-timeout", "2"])
        let pid = daemon.process.processIdentifier
        let before = try Reliability.residentKiB(of: pid)
        let greedy = try ProbeConnection(path: daemon.socketPath)
        let calls =
            [UInt8](repeating: 0, count: 0) + Array(repeating: Array(#"{"method":"io.appstate.GetTree"}"#.utf8) + [0], count: 2000).flatMap { $0 }
        var sent = 0
        var pending: ArraySlice<UInt8> = []
        let deadline = ContinuousClock.now + .seconds(3)
        var peak = before
        while ContinuousClock.now < deadline {
            if pending.isEmpty { pending = calls[...] }
            let taken = greedy.sendWithoutWaiting(Array(pending))
            guard taken >= 0 else { break }
            sent += taken
            pending = pending.dropFirst(taken)
            if taken == 0 { usleep(10_000) }
            peak = max(peak, try Reliability.residentKiB(of: pid))
        }
        let bystander = try VarlinkClient(path: daemon.socketPath)
        let start = ContinuousClock.now
        XCTAssertEqual(try bystander.call(method: "org.varlink.service.GetInfo")["product"], "appstated")
        let latency = Reliability.milliseconds(ContinuousClock.now - start)
        peak = max(peak, try Reliability.residentKiB(of: pid))
        // It stopped reading mid-message: the partial-message timeout ends it.
        XCTAssertTrue(greedy.waitForClose(timeout: 10))
        let growth = peak - before
        Reliability.assertResidentGrowth(growth, below: 32 * 1024, "RSS grew \(growth) KiB for a client that never reads")
        Reliability.report(
            "unread replies: a client sent \(sent / 1024) KiB of GetTree calls (\(sent / 33) calls) without reading: RSS +\(growth / 1024) MiB, another client answered in \(Reliability.format(latency)) ms, the greedy one closed by the partial-message timeout"
        )
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }

    func testFlood_whenClientsFloodDurableMutations_thenAnotherClientKeepsWorking() throws {
        let daemon = try DaemonProcess()
        let client = try VarlinkClient(path: daemon.socketPath)
        _ = try client.call(method: "io.appstate.Login", parameters: ["user": "ada"])
        func measure(_ count: Int) throws -> [Double] {
            var latencies: [Double] = []
            for index in 0..<count {
                let start = ContinuousClock.now
                if index % 2 == 0 {
                    _ = try client.call(method: "io.appstate.GetCurrent")
                } else {
                    _ = try client.call(method: "io.appstate.SelectMenuItem", parameters: ["id": index % 4 == 1 ? "inbox" : "pages"])
                }
                latencies.append(Reliability.milliseconds(ContinuousClock.now - start))
            }
            return latencies.sorted()
        }
        let quiet = try measure(200)
        let stop = Shared(false)
        let acknowledged = Shared(0)
        let errors = Shared([String]())
        let socket = daemon.socketPath
        let flooders = (0..<4).map { flooder in
            TestThread {
                guard let connection = try? ProbeConnection(path: socket) else { return }
                var round = 0
                while !stop.current {
                    var batch: [UInt8] = []
                    for index in 0..<100 {
                        batch += Array(#"{"method":"io.appstate.SetPage","parameters":{"index":\#((round + index + flooder) % 3)}}"#.utf8) + [0]
                    }
                    guard connection.send(batch) else { return }
                    for _ in 0..<100 {
                        guard let frame = connection.nextFrame(timeout: 30) else { return errors.with { $0.append("no reply") } }
                        if let error = frame["error"] as? String { errors.with { $0.append(error) } }
                    }
                    acknowledged.with { $0 += 100 }
                    round += 1
                }
            }
        }
        let floodStart = ContinuousClock.now
        usleep(200_000)
        let flooded = try measure(60)
        stop.with { $0 = true }
        for flooder in flooders { flooder.join() }
        let floodSeconds = Reliability.milliseconds(ContinuousClock.now - floodStart) / 1000
        XCTAssertEqual(errors.current, [])
        XCTAssertGreaterThan(acknowledged.current, 0)
        XCTAssertEqual(flooded.count, 60)
        func describe(_ latencies: [Double]) -> String {
            "p50 \(Reliability.format(Reliability.percentile(latencies, 0.5))) ms, p99 \(Reliability.format(Reliability.percentile(latencies, 0.99))) ms, max \(Reliability.format(latencies.last!)) ms"
        }
        Reliability.report(
            "flood: 4 clients pipelining durable SetPage (100 per write) acknowledged \(acknowledged.current) in \(Reliability.format(floodSeconds)) s (\(Int(Double(acknowledged.current) / floodSeconds))/s); another client's GetCurrent/SelectMenuItem alone: \(describe(quiet)); during the flood: \(describe(flooded))"
        )
        XCTAssertEqual(daemon.stop(), 0, daemon.stderrText)
    }
}
