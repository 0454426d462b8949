import Foundation
import TestSupport

/// Replays a recorded run as power cuts: at every point of the trace, every state the
/// ``PersistenceModel`` allows is built as a state directory, the real appstated is started
/// on it, and what it restored is compared with what was acknowledged by then.
///
/// The daemon must start, and restore the state of the last mutation acknowledged before
/// that point, or of the one after it, which the client had sent and may already be on disk
/// (one client waiting for each reply has at most one mutation in flight). The daemon is
/// started once per distinct state directory: it is the same directory at another point.
struct PowerLossReplay {
    /// What one start of the daemon on a crash state showed.
    enum Outcome {
        case restored(RegisterValues)
        case failed(String)
    }

    /// The tally of a replay.
    struct Summary {
        var points = 0
        var explored = 0
        var passed = 0
        var daemonStarts = 0
        var violations: [String] = []
    }

    let appstated: URL
    /// Where the state directories are built, one at a time.
    let directory: URL
    let blockSize: Int
    private var outcomes: [CrashState: Outcome] = [:]

    init(appstated: URL, directory: URL, blockSize: Int) {
        self.appstated = appstated
        self.directory = directory
        self.blockSize = blockSize
    }

    /// Explores every crash state of `operations`.
    /// - Parameters:
    ///   - operations: The recorded operations, or those of a daemon with a bug planted.
    ///   - states: The recording's states: `states[j]` once `j` mutations are acknowledged.
    /// - Throws: What building a state directory throws.
    mutating func explore(_ operations: [FileSystemOperation], states: [RegisterValues]) throws -> Summary {
        var summary = Summary()
        var model = PersistenceModel(blockSize: blockSize)
        var acknowledged = 0
        for point in 0...operations.count {
            if point > 0 {
                model.apply(operations[point - 1])
                if operations[point - 1] == .reply { acknowledged += 1 }
            }
            summary.points += 1
            let allowed = acknowledged...min(acknowledged + 1, states.count - 1)
            for state in model.crashStates() {
                summary.explored += 1
                let outcome: Outcome
                if let known = outcomes[state] {
                    outcome = known
                } else {
                    outcome = try start(on: state)
                    outcomes[state] = outcome
                    summary.daemonStarts += 1
                }
                let place = point == 0 ? "before the first operation" : "after operation \(point) (\(operations[point - 1]))"
                switch outcome {
                case .restored(let values) where allowed.contains(where: { states[$0] == values }):
                    summary.passed += 1
                case .restored(let values):
                    let which = states.indices.filter { states[$0] == values }.map(String.init).joined(separator: " or ")
                    summary.violations.append(
                        "\(place), \(acknowledged) acknowledged: restored \(values) (state \(which.isEmpty ? "never acknowledged" : which)), "
                            + "expected state \(allowed.map(String.init).joined(separator: " or ")), from \(state)")
                case .failed(let reason):
                    summary.violations.append("\(place), \(acknowledged) acknowledged: \(reason), from \(state)")
                }
            }
        }
        return summary
    }

    /// Builds the state directory, starts the daemon on it and reads what it restored.
    private func start(on state: CrashState) throws -> Outcome {
        let root = directory.appendingPathComponent("crash-state")
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try state.materialize(at: root.appendingPathComponent("state").path)
        let daemon: TestDaemon
        do {
            daemon = try TestDaemon(executable: appstated, directory: root)
        } catch {
            // Its last words say why; the whole log is in the error.
            let reason = String(describing: error).split(separator: "\n").last { !$0.isEmpty } ?? "no message"
            return .failed("appstated did not start: \(reason.replacingOccurrences(of: root.path, with: "…"))")
        }
        defer { daemon.kill9() }
        do {
            return .restored(try observe(daemon.socketPath))
        } catch {
            return .failed("appstated started but could not be read: \(error)")
        }
    }
}
