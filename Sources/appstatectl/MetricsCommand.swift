import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl metrics`: the daemon's metrics, for Prometheus.
struct MetricsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics",
        abstract: "Print appstated's metrics in the Prometheus text exposition format.",
        discussion: """
            Calls, errors, connections, watchers and watchers cut off, commit latency and \
            batch size, and watch fan-out latency, as prometheus-node-exporter's textfile \
            collector reads them. With --output, replaces that file atomically instead \
            (a temporary file in the same directory, renamed over it): \
            appstate-metrics.timer does so every 15 seconds for \
            /var/lib/prometheus/node-exporter/appstate.prom. With --json, prints the \
            GetMetrics reply: {"text": string}. Exits 73 when the file cannot be written.

            EXAMPLES
              appstatectl metrics | grep appstate_requests_total
              appstatectl metrics --output /var/lib/prometheus/node-exporter/appstate.prom
            """
    )

    @OptionGroup var options: ConnectionOptions

    @Option(
        help: ArgumentHelp("Replace this file with the metrics, atomically, instead of printing them.", valueName: "FILE"),
        completion: .file(extensions: ["prom"]))
    var output: String?

    func validate() throws {
        if output != nil, options.json { throw ValidationError("--output writes the exposition itself; it takes no --json") }
    }

    func run() throws {
        try options.withClient { client in
            let reply = try client.call(GetMetrics.self, .init(tree: options.tree))
            if let output {
                try AtomicTextFile.replace(output, with: reply.text)
                return
            }
            // The exposition ends with a newline of its own; print adds another.
            var text = reply.text
            while text.hasSuffix("\n") { text.removeLast() }
            options.emit(reply, human: text)
        }
    }
}
