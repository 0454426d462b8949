import AppStateCore
import AppStateIPC
import Foundation
import NIOConcurrencyHelpers
import Synchronization
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

// appstate-crashtest: crash consistency of appstated's durable state.
//
// Each trial drives concurrent mutations (Login, Logout, SetPage, SelectMenuItem, Push,
// Pop) from several clients against the real daemon, recording when each was sent and
// when its reply came, kills the daemon with SIGKILL at a random instant, restarts it on
// the same state directory and checks that what it restored is a state a durable,
// linearizable daemon could restore: every acknowledged change is there, unless a later
// one replaced it, and otherwise only changes that were in flight at the kill.
// Trials chain: each starts from the state the previous one restored.
//
// With --power-loss it replays power cuts instead, which kill -9 cannot show (the page cache
// survives it): see PowerLossTest.

let usage = """
    usage: appstate-crashtest [--trials N] [--clients N] [--min-delay MS] [--max-delay MS]
                              [--seed N] [--appstated PATH] [--keep] [--quiet]
           appstate-crashtest --power-loss [--mutations N] [--block-size BYTES]
                              [--plant no-directory-fsync|rename-before-fsync|no-journal-sync] [--appstated PATH] [--keep] [--quiet]
    """

struct Options {
    var trials = 5
    var clients = 6
    var minimumDelay = 0
    var maximumDelay = 300
    var seed = UInt64(UInt32.random(in: 1...UInt32.max))
    var appstated: String?
    var keep = false
    var quiet = false
    var powerLoss = false
    var mutations = 6
    var blockSize = 4096
    var plant: PlantedBug?

    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        func value(_ name: String) throws -> String {
            guard let value = iterator.next() else { throw CrashTestError("\(name) needs a value\n\(usage)") }
            return value
        }
        func number(_ name: String) throws -> Int {
            let text = try value(name)
            guard let number = Int(text), number >= 0 else { throw CrashTestError("\(name): not a number: \(text)") }
            return number
        }
        while let argument = iterator.next() {
            switch argument {
            case "--trials": trials = try number(argument)
            case "--clients": clients = max(1, try number(argument))
            case "--min-delay": minimumDelay = try number(argument)
            case "--max-delay": maximumDelay = try number(argument)
            case "--seed": seed = UInt64(try number(argument))
            case "--appstated": appstated = try value(argument)
            case "--keep": keep = true
            case "--power-loss": powerLoss = true
            case "--mutations": mutations = max(1, try number(argument))
            case "--block-size": blockSize = max(1, try number(argument))
            case "--plant":
                let name = try value(argument)
                guard let bug = PlantedBug(rawValue: name) else {
                    throw CrashTestError("--plant: no bug \(name); one of \(PlantedBug.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                plant = bug
            case "--quiet": quiet = true
            case "-h", "--help":
                say(usage)
                exit(0)
            default: throw CrashTestError("unknown argument \(argument)\n\(usage)")
            }
        }
        maximumDelay = max(maximumDelay, minimumDelay)
    }
}

/// Prints a line at once (unbuffered), so that a test or a pipe sees progress as it happens.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// SplitMix64: small, fast and reproducible from a seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Reads the registers out of a snapshot of the default tree.
func registers(of root: Node) throws -> RegisterValues {
    guard let pages = root.node(at: "session/home/pages")?.pageIndex,
        let menu = root.node(at: "session/home")?.current,
        let inbox = root.node(at: "session/home/inbox")
    else {
        throw CrashTestError("the daemon does not host the default tree")
    }
    return RegisterValues(values: [
        .user: root.user ?? "",
        .page: String(pages),
        .menu: menu,
        .navigation: inbox.children.map(\.identifier).joined(separator: "/"),
    ])
}

/// The registers as the daemon shows them. The logged-in child (and with it the page, menu
/// and navigation registers) is only in the tree while someone is logged in, so when nobody
/// is, a probe user logs in to read them and out again: neither changes those registers.
func observe(_ socketPath: String) throws -> RegisterValues {
    let client = try VarlinkClient(path: socketPath, timeout: .seconds(30))
    let root = try client.call(GetTree.self, TreeParameters()).root
    guard root.user == nil else { return try registers(of: root) }
    _ = try client.call(method: Login.name, parameters: ["user": "crashtest-probe"])
    var values = try registers(of: client.call(GetTree.self, TreeParameters()).root)
    _ = try client.call(method: Logout.name)
    values[.user] = ""
    return values
}

let menuItems = ["pages", "inbox", "dashboard"]
let destinations = ["message", "compose"]

/// One client: sends one mutation at a time until the daemon goes away, recording each.
func runClient(
    index: Int, socketPath: String, seed: UInt64, initialNavigation: String,
    stop: Shared
) -> [Operation] {
    var generator = SeededGenerator(state: seed)
    var operations: [Operation] = []
    guard let client = try? VarlinkClient(path: socketPath, timeout: .seconds(30)) else { return [] }
    var stack = initialNavigation.split(separator: "/").map(String.init)
    var serial = 0
    while !stop.stopped.load(ordering: .relaxed) {
        serial += 1
        let mutation: Mutation
        let roll = Int.random(in: 0..<100, using: &generator)
        if index == 0, roll < 40 {
            let unused = destinations.filter { !stack.contains($0) }
            if stack.count > 1, unused.isEmpty || Bool.random(using: &generator) {
                mutation = .pop(stack)
            } else {
                mutation = .push(unused.randomElement(using: &generator)!, onto: stack)
            }
        } else if roll < 60 {
            mutation = .login("u\(index)-\(serial)")
        } else if roll < 66 {
            mutation = .logout
        } else if roll < 85 {
            mutation = .setPage(Int.random(in: 0..<3, using: &generator))
        } else {
            mutation = .selectMenuItem(menuItems.randomElement(using: &generator)!)
        }
        var operation = Operation(register: mutation.register, value: mutation.value, method: mutation.method, sent: .now, outcome: .inFlight)
        do {
            try mutation.send(with: client)
            operation.outcome = .acknowledged(.now)
            if mutation.register == .navigation { stack = mutation.value.split(separator: "/").map(String.init) }
        } catch let error as VarlinkError {
            operation.outcome = .refused(error.name)
        } catch {
            operations.append(operation)
            return operations
        }
        operations.append(operation)
    }
    return operations
}

/// What the client threads of a trial share: the stop flag and their histories.
final class Shared: Sendable {
    let stopped = Atomic(false)
    /// A pthread mutex because ThreadSanitizer cannot see `Synchronization.Mutex` on Linux.
    let results: NIOLockedValueBox<[[Operation]]>

    init(clients: Int) {
        results = NIOLockedValueBox(Array(repeating: [], count: clients))
    }
}

struct TrialResult {
    var acknowledged = 0
    var refused: [String: Int] = [:]
    var inFlight = 0
    var delay = 0
    var violations: [String] = []
}

func runTrial(_ number: Int, daemon: TestDaemon, options: Options, generator: inout SeededGenerator) throws -> TrialResult {
    let initial = try observe(daemon.socketPath)
    let shared = Shared(clients: options.clients)
    let group = DispatchGroup()
    for index in 0..<options.clients {
        let seed = generator.next()
        let socketPath = daemon.socketPath
        let navigation = initial[.navigation]
        let thread = Thread {
            let operations = runClient(index: index, socketPath: socketPath, seed: seed, initialNavigation: navigation, stop: shared)
            shared.results.withLockedValue { $0[index] = operations }
            group.leave()
        }
        thread.stackSize = 1 << 20
        group.enter()
        thread.start()
    }
    var result = TrialResult()
    result.delay = Int.random(in: options.minimumDelay...options.maximumDelay, using: &generator)
    usleep(useconds_t(result.delay * 1000))
    let killed = ContinuousClock.now
    daemon.kill9()
    shared.stopped.store(true, ordering: .relaxed)
    group.wait()

    let stateFile = daemon.stateDirectory + "/state.json"
    if let bytes = FileManager.default.contents(atPath: stateFile),
        (try? JSONSerialization.jsonObject(with: bytes)) == nil
    {
        result.violations.append("\(stateFile) is not valid JSON after the kill")
    }
    try daemon.restart()
    let restored = try observe(daemon.socketPath)

    let operations = shared.results.withLockedValue { $0 }.flatMap { $0 }
    for operation in operations {
        switch operation.outcome {
        case .acknowledged: result.acknowledged += 1
        case .refused(let name): result.refused[name, default: 0] += 1
        case .inFlight: result.inFlight += 1
        }
    }
    for register in Register.allCases {
        let writes = operations.filter { $0.register == register }
        let candidates = Linearizability.candidates(initial: initial[register], operations: writes)
        if !candidates.contains(restored[register]) {
            result.violations.append(
                "\(register.rawValue): restored \"\(restored[register])\", expected one of \(candidates.sorted()) "
                    + "(\(writes.count) writes, initial \"\(initial[register])\")"
            )
            // The last writes, for the diagnosis: when sent and replied, relative to the kill.
            func offset(_ instant: ContinuousClock.Instant) -> String {
                let components = (instant - killed).components
                return
                    "\((Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15).formatted(.number.precision(.fractionLength(2)))) ms"
            }
            for write in writes.sorted(by: { $0.sent < $1.sent }).suffix(12) {
                let outcome =
                    switch write.outcome {
                    case .acknowledged(let replied): "acknowledged at \(offset(replied))"
                    case .refused(let name): "refused \(name)"
                    case .inFlight: "in flight"
                    }
                result.violations.append("    \(write.method) \"\(write.value)\" sent at \(offset(write.sent)), \(outcome)")
            }
        }
    }
    // Page, menu and navigation calls find no container while nobody is logged in
    // (NoSuchNode, which changes nothing); any other error (StorageFailure above all) is a finding.
    for (name, count) in result.refused where name != "io.appstate.NoSuchNode" {
        result.violations.append("\(count) call(s) refused with \(name)")
    }
    if !options.quiet {
        let refused = result.refused.values.reduce(0, +)
        say(
            "trial \(number): killed after \(result.delay) ms; \(result.acknowledged) acknowledged, \(result.inFlight) in flight, \(refused) refused; restored \(restored) \(result.violations.isEmpty ? "ok" : "VIOLATION")"
        )
        for violation in result.violations { say("  \(violation)") }
    }
    return result
}

func main() -> Int32 {
    let options: Options
    do {
        options = try Options(Array(CommandLine.arguments.dropFirst()))
    } catch {
        FileHandle.standardError.write(Data("appstate-crashtest: \(error)\n".utf8))
        return 64
    }
    let appstated =
        options.appstated
        ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("appstated").path
    guard FileManager.default.isExecutableFile(atPath: appstated) else {
        FileHandle.standardError.write(Data("appstate-crashtest: no appstated at \(appstated) (use --appstated)\n".utf8))
        return 69
    }
    var template = Array("/tmp/asct-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
        FileHandle.standardError.write(Data("appstate-crashtest: mkdtemp: \(String(cString: strerror(errno)))\n".utf8))
        return 73
    }
    let directory = String(cString: made)
    if options.powerLoss {
        let status = PowerLossTest.run(options, appstated: URL(fileURLWithPath: appstated), directory: URL(fileURLWithPath: directory))
        if !options.keep, status != 70 {
            try? FileManager.default.removeItem(atPath: directory)
        } else {
            say("appstate-crashtest: kept \(directory)")
        }
        return status
    }
    say(
        "appstate-crashtest: \(options.trials) trial(s), \(options.clients) clients, kill after \(options.minimumDelay)–\(options.maximumDelay) ms, seed \(options.seed), in \(directory)"
    )
    var generator = SeededGenerator(state: options.seed)
    var totals = TrialResult()
    var failed = 0
    var delays: [Int] = []
    var status: Int32 = 0
    do {
        let daemon = try TestDaemon(executable: URL(fileURLWithPath: appstated), directory: URL(fileURLWithPath: directory))
        for number in 1...max(1, options.trials) where options.trials > 0 {
            let result = try runTrial(number, daemon: daemon, options: options, generator: &generator)
            totals.acknowledged += result.acknowledged
            totals.inFlight += result.inFlight
            delays.append(result.delay)
            if !result.violations.isEmpty {
                failed += 1
                totals.violations += result.violations.map { "trial \(number): \($0)" }
            }
        }
        let exit = daemon.stop()
        if exit != 0 {
            totals.violations.append("appstated exited \(exit) on SIGTERM: \(daemon.stderrText)")
            failed += 1
        }
        if daemon.stderrText.contains("Fatal error") {
            totals.violations.append("appstated reported a fatal error: \(daemon.stderrText)")
        }
    } catch {
        say("appstate-crashtest: \(error)")
        status = 70
    }
    let delayRange = delays.isEmpty ? "none" : "\(delays.min()!)–\(delays.max()!) ms"
    say(
        "appstate-crashtest: \(options.trials) trials, \(failed) failed, \(totals.acknowledged) acknowledged mutations, \(totals.inFlight) in flight at the kill, kill delays \(delayRange), seed \(options.seed)"
    )
    for violation in totals.violations { say("  \(violation)") }
    if !options.keep, status == 0, totals.violations.isEmpty {
        try? FileManager.default.removeItem(atPath: directory)
    } else {
        say("appstate-crashtest: kept \(directory)")
    }
    if status != 0 { return status }
    return totals.violations.isEmpty ? 0 : 1
}

exit(main())
