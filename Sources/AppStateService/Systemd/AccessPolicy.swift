import Glibc

/// Who may mutate the trees. Reads are open to every peer that can connect (the socket's
/// mode and group already decide that); mutations are allowed to root, to the daemon's
/// own uid, and to members of the configured groups.
///
/// Group names are resolved once, when the policy is made, so that deciding is a pure
/// check per request with no lookups.
public struct AccessPolicy: Sendable {
    /// The group names a mutating peer may belong to, when nothing else is configured.
    public static let defaultGroupNames = ["appstate"]

    /// The uid whose peers may always mutate: the daemon's own.
    public let daemonUID: uid_t
    /// The group ids that grant mutation, resolved from the configured names.
    public let grantingGroupIDs: Set<gid_t>

    /// Creates a policy, resolving the group names now.
    ///
    /// A group that does not exist (or cannot be looked up) grants nothing: the daemon
    /// still runs, and root and its own uid can still mutate.
    ///
    /// - Parameters:
    ///   - groupNames: The groups whose members may mutate.
    ///   - daemonUID: The daemon's uid, allowed to mutate.
    public init(groupNames: [String] = defaultGroupNames, daemonUID: uid_t = geteuid()) {
        self.init(
            daemonUID: daemonUID,
            grantingGroupIDs: Set(groupNames.compactMap { try? UserDatabase.groupID(named: $0) })
        )
    }

    /// Creates a policy from already resolved group ids.
    ///
    /// - Parameters:
    ///   - daemonUID: The daemon's uid, allowed to mutate.
    ///   - grantingGroupIDs: The groups whose members may mutate.
    public init(daemonUID: uid_t, grantingGroupIDs: Set<gid_t>) {
        self.daemonUID = daemonUID
        self.grantingGroupIDs = grantingGroupIDs
    }

    /// Decides whether a peer may mutate: it is root, runs as the daemon's uid, or its
    /// primary or a supplementary group is one of ``grantingGroupIDs``.
    ///
    /// - Parameters:
    ///   - credentials: The peer, as read when its connection was accepted.
    /// - Returns: `true` when the mutation is allowed.
    public func mayMutate(_ credentials: PeerCredentials) -> Bool {
        credentials.uid == 0
            || credentials.uid == daemonUID
            || grantingGroupIDs.contains(credentials.gid)
            || credentials.supplementaryGroups.contains(where: grantingGroupIDs.contains)
    }
}
