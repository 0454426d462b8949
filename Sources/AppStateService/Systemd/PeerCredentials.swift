import CSystemd
import Glibc

/// Who is at the other end of a Unix socket connection: the kernel's `SO_PEERCRED`, plus
/// the groups the peer's user belongs to. Read once per connection, when it is accepted.
public struct PeerCredentials: Hashable, Sendable {
    /// The peer's process id at connect time.
    public var pid: pid_t
    /// The peer's effective user id at connect time.
    public var uid: uid_t
    /// The peer's effective group id at connect time.
    public var gid: gid_t
    /// The groups of the peer's user in the group database (`getgrouplist(3)`), empty when
    /// the uid has no password entry.
    public var supplementaryGroups: [gid_t]

    /// Creates credentials from known values (tests, or credentials obtained elsewhere).
    ///
    /// - Parameters:
    ///   - pid: The peer's process id.
    ///   - uid: The peer's user id.
    ///   - gid: The peer's group id.
    ///   - supplementaryGroups: The groups of the peer's user.
    public init(pid: pid_t, uid: uid_t, gid: gid_t, supplementaryGroups: [gid_t] = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.supplementaryGroups = supplementaryGroups
    }

    /// Reads the credentials of the peer of a connected `AF_UNIX` socket.
    ///
    /// The kernel records them at `connect(2)`, so a peer cannot change them later; the
    /// supplementary groups are looked up now, by uid, in the group database.
    ///
    /// - Parameters:
    ///   - socket: A connected `AF_UNIX` socket (an accepted connection, or one end of a
    ///     `socketpair`).
    /// - Throws: ``SystemdError`` with code ``SystemdError/Code/peerCredentialsUnavailable``
    ///   when `SO_PEERCRED` cannot be read, or ``SystemdError/Code/userLookupFailed`` when
    ///   the user database cannot be read.
    public init(socket: CInt) throws {
        var credentials = appstate_peer_credentials()
        let result = appstate_get_peer_credentials(socket, &credentials)
        guard result == 0 else {
            throw SystemdError(
                .peerCredentialsUnavailable,
                "cannot read SO_PEERCRED of file descriptor \(socket)",
                errno: -result
            )
        }
        self.init(
            pid: credentials.pid,
            uid: credentials.uid,
            gid: credentials.gid,
            supplementaryGroups: try Self.supplementaryGroups(ofUser: credentials.uid)
        )
    }

    /// The groups a user belongs to: the primary group from its password entry and every
    /// group that lists it as a member.
    ///
    /// - Parameters:
    ///   - uid: The user id.
    /// - Returns: The group ids, or an empty list when the uid has no password entry (for
    ///   example a peer in another user namespace, seen as the overflow uid).
    /// - Throws: ``SystemdError`` with code ``SystemdError/Code/userLookupFailed``.
    public static func supplementaryGroups(ofUser uid: uid_t) throws -> [gid_t] {
        guard let user = try UserDatabase.user(uid: uid) else { return [] }
        return UserDatabase.groups(ofUser: user.name, primaryGroup: user.primaryGroup)
    }
}
