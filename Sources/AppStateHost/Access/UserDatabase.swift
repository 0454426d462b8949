import Glibc

/// Thread-safe lookups in the user and group databases (NSS), for paths and access control.
package enum UserDatabase {
    /// The parts of a password entry the daemon uses.
    package struct User {
        package var name: String
        package var primaryGroup: gid_t
        package var homeDirectory: String
    }

    /// Looks a user up by uid with `getpwuid_r`.
    ///
    /// - Parameters:
    ///   - uid: The user id.
    /// - Returns: The entry, or `nil` when no user has this uid.
    /// - Throws: ``AccessError`` when the
    ///   database cannot be read.
    package static func user(uid: uid_t) throws -> User? {
        try withGrowingBuffer(what: "getpwuid_r(\(uid))") { buffer, found in
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>?
            let status = getpwuid_r(uid, &entry, buffer.baseAddress!, buffer.count, &result)
            if status == 0, result != nil {
                found = User(
                    name: String(cString: entry.pw_name),
                    primaryGroup: entry.pw_gid,
                    homeDirectory: String(cString: entry.pw_dir)
                )
            }
            return status
        }
    }

    /// Looks a group up by name with `getgrnam_r`.
    ///
    /// - Parameters:
    ///   - name: The group name.
    /// - Returns: The group id, or `nil` when no group has this name.
    /// - Throws: ``AccessError`` when the
    ///   database cannot be read.
    static func groupID(named name: String) throws -> gid_t? {
        try withGrowingBuffer(what: "getgrnam_r(\(name))") { buffer, found in
            var entry = group()
            var result: UnsafeMutablePointer<group>?
            let status = getgrnam_r(name, &entry, buffer.baseAddress!, buffer.count, &result)
            if status == 0, result != nil {
                found = entry.gr_gid
            }
            return status
        }
    }

    /// The groups a user belongs to, as `getgrouplist(3)` reports them: the primary group
    /// and every group listing the user as a member.
    ///
    /// - Parameters:
    ///   - user: The user's name.
    ///   - primaryGroup: The user's primary group, always part of the result.
    /// - Returns: The group ids, the primary group first.
    static func groups(ofUser user: String, primaryGroup: gid_t) -> [gid_t] {
        var capacity: CInt = 32
        while true {
            var groups = [gid_t](repeating: 0, count: Int(capacity))
            var count = capacity
            if getgrouplist(user, primaryGroup, &groups, &count) >= 0 {
                return Array(groups.prefix(Int(count)))
            }
            // -1 means too small; `count` now holds the size needed.
            capacity = max(count, capacity * 2)
        }
    }

    /// Runs a `get*_r` call with a buffer that grows while the call answers `ERANGE`.
    ///
    /// - Parameters:
    ///   - what: The call, for the error message.
    ///   - call: Makes the call into the buffer, stores what it found, returns its status.
    private static func withGrowingBuffer<T>(
        what: String,
        _ call: (UnsafeMutableBufferPointer<CChar>, inout T?) -> CInt
    ) throws -> T? {
        var size = 1024
        while true {
            let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: size)
            defer { buffer.deallocate() }
            var found: T?
            let status = call(buffer, &found)
            switch status {
            case 0:
                return found
            // Not-found is reported by a nil result, but some NSS modules answer an errno.
            case ENOENT, ESRCH, EBADF, EPERM:
                return nil
            case ERANGE where size < 1 << 20:
                size *= 2
            default:
                throw AccessError.userLookupFailed("\(what) failed", errno: status)
            }
        }
    }
}
