import Glibc

/// Who is at the other end of a Unix socket connection: the kernel's `SO_PEERCRED`, plus
/// the groups the peer's user belongs to, as the access policy judges them.
package struct PeerCredentials: Hashable, Sendable {
    /// The peer's process id at connect time.
    package var pid: pid_t
    /// The peer's effective user id at connect time.
    package var uid: uid_t
    /// The peer's effective group id at connect time.
    package var gid: gid_t
    /// The groups of the peer's user in the group database (`getgrouplist(3)`), empty when
    /// the uid has no password entry.
    package var supplementaryGroups: [gid_t]

    /// Creates credentials from known values (tests, or credentials obtained elsewhere).
    ///
    /// - Parameters:
    ///   - pid: The peer's process id.
    ///   - uid: The peer's user id.
    ///   - gid: The peer's group id.
    ///   - supplementaryGroups: The groups of the peer's user.
    package init(pid: pid_t, uid: uid_t, gid: gid_t, supplementaryGroups: [gid_t] = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.supplementaryGroups = supplementaryGroups
    }

    /// The groups a user belongs to: the primary group from its password entry and every
    /// group that lists it as a member.
    ///
    /// - Parameters:
    ///   - uid: The user id.
    /// - Returns: The group ids, or an empty list when the uid has no password entry (for
    ///   example a peer in another user namespace, seen as the overflow uid).
    /// - Throws: ``AccessError``.
    package static func supplementaryGroups(ofUser uid: uid_t) throws -> [gid_t] {
        guard let user = try UserDatabase.user(uid: uid) else { return [] }
        return UserDatabase.groups(ofUser: user.name, primaryGroup: user.primaryGroup)
    }
}
