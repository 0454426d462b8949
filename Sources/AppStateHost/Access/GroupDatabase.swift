import Glibc

/// Where access control looks groups up: the gid of a configured group name, and the groups
/// a peer's user belongs to.
///
/// The daemon uses ``SystemGroupDatabase``; tests inject a table, so that the access decision
/// is checked for any uid and group on any machine.
package protocol GroupDatabase: Sendable {
    /// The id of a group.
    ///
    /// - Parameters:
    ///   - name: The group name.
    /// - Returns: The group id, or `nil` when no group has this name.
    /// - Throws: When the database cannot be read.
    func groupID(named name: String) throws -> gid_t?

    /// The groups a user belongs to: its primary group and every group listing it as a member.
    ///
    /// - Parameters:
    ///   - uid: The user id.
    /// - Returns: The group ids, or an empty list when the uid has no entry.
    /// - Throws: When the database cannot be read.
    func groups(ofUser uid: uid_t) throws -> [gid_t]
}

/// The system's user and group databases (NSS), through the reentrant libc calls
/// (`getgrnam_r`, `getpwuid_r`, `getgrouplist`).
package struct SystemGroupDatabase: GroupDatabase {
    /// Creates the system's database.
    package init() {}

    /// Looks the group up with `getgrnam_r`.
    ///
    /// - Parameters:
    ///   - name: The group name.
    /// - Returns: The group id, or `nil` when no group has this name.
    /// - Throws: ``AccessError``.
    package func groupID(named name: String) throws -> gid_t? {
        try UserDatabase.groupID(named: name)
    }

    /// The user's groups, as ``PeerCredentials/supplementaryGroups(ofUser:)`` reads them.
    ///
    /// - Parameters:
    ///   - uid: The user id.
    /// - Returns: The group ids, the primary group first; empty when the uid has no entry.
    /// - Throws: ``AccessError``.
    package func groups(ofUser uid: uid_t) throws -> [gid_t] {
        try PeerCredentials.supplementaryGroups(ofUser: uid)
    }
}
