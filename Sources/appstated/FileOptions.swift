import AppStateDaemon
import ArgumentParser

/// The tree file `appstated` hosts and where it keeps state: `--tree-file`, `--state-dir`.
struct FileOptions: ParsableArguments {
    @Option(
        name: .customLong("tree-file"),
        help: "A YAML or JSON tree file to host (default: \(DaemonConfiguration.installedTreeFile) when it exists, else the embedded default tree).")
    var treeFile: String?

    @Option(
        name: .customLong("state-dir"),
        help: "Where restorable state is kept (default: $STATE_DIRECTORY, else /var/lib/appstate as root, else $XDG_STATE_HOME/appstate).")
    var stateDir: String?

    /// The part of the daemon's configuration these options say.
    var configuration: DaemonConfiguration.Files {
        DaemonConfiguration.Files(treeFile: DaemonConfiguration.treeFile(named: treeFile), stateDirectory: stateDir)
    }
}
