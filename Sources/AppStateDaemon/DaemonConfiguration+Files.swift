extension DaemonConfiguration {
    /// The tree file the daemon hosts and where it keeps restorable state.
    package struct Files: Sendable {
        /// The tree file; nil for the embedded default tree. `appstated` sets it with
        /// ``DaemonConfiguration/treeFile(named:installed:)``.
        package var treeFile: String?
        /// The state directory; nil for `$STATE_DIRECTORY` or the default.
        package var stateDirectory: String?

        /// Creates the part.
        /// - Parameters:
        ///   - treeFile: The tree file; nil for the embedded default tree.
        ///   - stateDirectory: The state directory; nil for `$STATE_DIRECTORY` or the default.
        package init(treeFile: String? = nil, stateDirectory: String? = nil) {
            self.treeFile = treeFile
            self.stateDirectory = stateDirectory
        }
    }
}
