import AppStateHost

#if canImport(Glibc)
    import Glibc
#endif

extension DaemonConfiguration {
    /// Where the daemon listens, and who besides root and its own user may change state.
    package struct Socket: Sendable {
        /// The socket path; nil for socket activation or the default path.
        package var path: String?
        /// The mode of a socket the daemon creates itself.
        package var mode: mode_t
        /// Groups whose members may change state, besides root and the daemon's own user.
        package var allowedGroups: [String]

        /// Creates the part, of the defaults unless given.
        /// - Parameters:
        ///   - path: The socket path; nil for socket activation or the default path.
        ///   - mode: The mode of a socket the daemon creates itself.
        ///   - allowedGroups: Groups whose members may change state.
        package init(path: String? = nil, mode: mode_t = 0o660, allowedGroups: [String] = AccessPolicy.defaultGroupNames) {
            self.path = path
            self.mode = mode
            self.allowedGroups = allowedGroups
        }
    }
}
