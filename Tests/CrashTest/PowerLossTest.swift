import Foundation

/// `appstate-crashtest --power-loss`: records a run of the daemon under strace, plants a
/// bug in it if asked, replays every crash state of it and prints the tally.
enum PowerLossTest {
    /// Runs the test in `directory` and returns the exit status: 0 when every crash state
    /// passed, 1 when some did not, 70 when the test itself could not run.
    static func run(_ options: Options, appstated: URL, directory: URL) -> Int32 {
        let bug = options.plant.map { " with the bug \($0.rawValue) planted" } ?? ""
        say("appstate-crashtest: power loss, \(options.mutations) mutations\(bug), blocks of \(options.blockSize) bytes, in \(directory.path)")
        let recording: PowerLossRecording
        var operations: [FileSystemOperation]
        do {
            recording = try PowerLossRecording.record(appstated: appstated, mutations: options.mutations, in: directory)
            operations = recording.operations
            if let plant = options.plant { operations = try plant.plant(in: operations) }
        } catch {
            say("appstate-crashtest: \(error)")
            return 70
        }
        if !options.quiet {
            for (index, operation) in operations.enumerated() { say("  \(index + 1). \(operation)") }
        }
        var replay = PowerLossReplay(appstated: appstated, directory: directory, blockSize: options.blockSize)
        let summary: PowerLossReplay.Summary
        do {
            summary = try replay.explore(operations, states: recording.states)
        } catch {
            say("appstate-crashtest: \(error)")
            return 70
        }
        let failed = summary.explored - summary.passed
        say(
            "appstate-crashtest: power loss\(bug): \(options.mutations) mutations acknowledged, \(operations.count) operations, "
                + "\(summary.points) points, \(summary.explored) crash states explored, \(summary.passed) passed, \(failed) failed "
                + "(appstated started on \(summary.daemonStarts) distinct state directories)"
        )
        for violation in summary.violations.prefix(options.quiet ? 5 : 50) { say("  \(violation)") }
        if summary.violations.count > (options.quiet ? 5 : 50) { say("  …") }
        return summary.violations.isEmpty && summary.explored > 0 ? 0 : 1
    }
}
