/// The version of appstate that this build is, shared by the daemon and the command-line tool.
public enum AppStateVersion {
    /// The version, as `GetInfo` and `--version` report it.
    public static let current = "0.1.0"
}
