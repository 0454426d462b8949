import Glibc
import Logging
import ServicePorts

/// Who may mutate the trees. Reads are open to every peer that can connect (the socket's
/// mode and group already decide that); mutations are allowed to root, to the daemon's
/// own uid, and to members of the configured groups.
///
/// Group names are resolved once, when the policy is made, so that deciding is a pure
/// check per request with no lookups.
package struct AccessPolicy: Sendable {
    /// The group names a mutating peer may belong to, when nothing else is configured.
    package static let defaultGroupNames = ["appstate"]

    /// The uid whose peers may always mutate: the daemon's own.
    package let daemonUID: uid_t
    /// The group ids that grant mutation, resolved from the configured names.
    package let grantingGroupIDs: Set<gid_t>

    /// Creates a policy, resolving the group names now.
    ///
    /// A group that does not exist (or cannot be looked up) grants nothing: the daemon
    /// still runs, and root and its own uid can still mutate.
    ///
    /// - Parameters:
    ///   - groupNames: The groups whose members may mutate.
    ///   - daemonUID: The daemon's uid, allowed to mutate.
    ///   - database: Where the names are looked up: the system's, or a table in tests.
    package init(
        groupNames: [String] = defaultGroupNames, daemonUID: uid_t = geteuid(),
        database: any GroupDatabase = SystemGroupDatabase()
    ) {
        self.init(daemonUID: daemonUID, grantingGroupIDs: Set(Self.groupIDs(named: groupNames, in: database)))
    }

    /// The ids of the named groups that exist, in the order of the names. A group that does
    /// not exist, or cannot be looked up, is left out.
    ///
    /// - Parameters:
    ///   - names: The group names.
    ///   - database: Where the names are looked up.
    /// - Returns: The group ids.
    package static func groupIDs(named names: [String], in database: any GroupDatabase = SystemGroupDatabase()) -> [gid_t] {
        names.compactMap { try? database.groupID(named: $0) }
    }

    /// Creates a policy from already resolved group ids.
    ///
    /// - Parameters:
    ///   - daemonUID: The daemon's uid, allowed to mutate.
    ///   - grantingGroupIDs: The groups whose members may mutate.
    package init(daemonUID: uid_t, grantingGroupIDs: Set<gid_t>) {
        self.daemonUID = daemonUID
        self.grantingGroupIDs = grantingGroupIDs
    }

    /// Decides whether a peer may mutate: it is root, runs as the daemon's uid, or its
    /// primary or a supplementary group is one of ``grantingGroupIDs``.
    ///
    /// - Parameters:
    ///   - credentials: The peer, as read when its connection was accepted.
    /// - Returns: `true` when the mutation is allowed.
    package func mayMutate(_ credentials: PeerCredentials) -> Bool {
        credentials.uid == 0
            || credentials.uid == daemonUID
            || grantingGroupIDs.contains(credentials.gid)
            || credentials.supplementaryGroups.contains(where: grantingGroupIDs.contains)
    }
}

/// The daemon's access control: an ``AccessPolicy`` applied to a peer's kernel credentials
/// and to the groups its user has in a ``GroupDatabase``.
///
/// The groups are looked up for every connection that tries to change something, so that a
/// user added to the group may mutate from its next connection on. A failed lookup gives no
/// groups, and is logged: the peer is judged on its uid and primary gid alone.
package struct PeerAccess: MutationAccess {
    /// The decision, once the peer's groups are known.
    package let policy: AccessPolicy
    /// Where each peer's groups are looked up.
    package let database: any GroupDatabase
    private let logger: Logger

    /// Creates access control from a policy and a group database.
    ///
    /// - Parameters:
    ///   - policy: The decision.
    ///   - database: Where each peer's groups are looked up.
    ///   - logger: Where a failed lookup is reported.
    package init(policy: AccessPolicy, database: any GroupDatabase = SystemGroupDatabase(), logger: Logger = Logger(label: "appstated")) {
        self.policy = policy
        self.database = database
        self.logger = logger
    }

    /// Creates the daemon's access control: the allowed group names resolved in `database`,
    /// and the daemon's own uid.
    ///
    /// - Parameters:
    ///   - allowedGroups: The groups whose members may mutate (`--allow-group`).
    ///   - daemonUID: The daemon's uid, allowed to mutate.
    ///   - database: Where group names and each peer's groups are looked up.
    ///   - logger: Where a failed lookup is reported.
    package init(
        allowedGroups: [String], daemonUID: uid_t = geteuid(), database: any GroupDatabase = SystemGroupDatabase(),
        logger: Logger = Logger(label: "appstated")
    ) {
        self.init(policy: AccessPolicy(groupNames: allowedGroups, daemonUID: daemonUID, database: database), database: database, logger: logger)
    }

    /// Root, the daemon's own user and a member of an allowed group by its primary group may
    /// mutate without a lookup; anyone else needs their groups looked up.
    ///
    /// - Parameters:
    ///   - uid: The peer's effective user id.
    ///   - gid: The peer's effective group id.
    package func decisionWithoutLookup(uid: uid_t, gid: gid_t) -> Bool? {
        policy.mayMutate(PeerCredentials(pid: 0, uid: uid, gid: gid, supplementaryGroups: [])) ? true : nil
    }

    /// Whether the peer that connected may mutate: its groups looked up by uid, then the
    /// policy applied.
    ///
    /// - Parameters:
    ///   - pid: The peer's process id.
    ///   - uid: The peer's effective user id.
    ///   - gid: The peer's effective group id.
    /// - Returns: `true` when its mutations are allowed.
    package func mayMutate(pid: pid_t, uid: uid_t, gid: gid_t) -> Bool {
        let groups: [gid_t]
        do {
            groups = try database.groups(ofUser: uid)
        } catch {
            // Judged by its user and primary group alone, which may deny what a group allows.
            logger.warning("cannot read the groups of uid \(uid): \(error)")
            groups = []
        }
        return policy.mayMutate(PeerCredentials(pid: pid, uid: uid, gid: gid, supplementaryGroups: groups))
    }
}
