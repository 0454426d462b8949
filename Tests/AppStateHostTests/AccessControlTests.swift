import AppStateCore
import AppStateIPC
import Foundation
import Glibc
import Logging
import NIOPosix
import ServicePorts
import StateContainers
import TestSupport
import XCTest

@testable import AppStateHost

/// The access decision the daemon makes for every connection (`PeerAccess`, what
/// `Daemon` hands the server), with the group database injected: root, the daemon's
/// own uid, the primary group, supplementary groups and strangers are checked for made-up
/// uids and gids, so that the policy is tested on any machine and as any user, not only by
/// the end-to-end privilege tests, which need root. Then the server's own use of the
/// decision: a connection's peer carries exactly what was decided for its credentials, and
/// a peer that may not mutate is refused.
final class AccessControlTests: AppStateTestCase {
    /// A group database from tables, recording the users it was asked about.
    private final class TableGroupDatabase: GroupDatabase, @unchecked Sendable {
        private let lock = NSLock()
        let namedGroups: [String: gid_t]
        let memberships: [uid_t: [gid_t]]
        let fails: Bool
        private var asked: [uid_t] = []

        init(namedGroups: [String: gid_t] = [:], memberships: [uid_t: [gid_t]] = [:], fails: Bool = false) {
            self.namedGroups = namedGroups
            self.memberships = memberships
            self.fails = fails
        }

        var usersAsked: [uid_t] { lock.withLock { asked } }

        func groupID(named name: String) throws -> gid_t? {
            if fails { throw AccessError.userLookupFailed("getgrnam_r(\(name))", errno: EIO) }
            return namedGroups[name]
        }

        func groups(ofUser uid: uid_t) throws -> [gid_t] {
            lock.withLock { asked.append(uid) }
            if fails { throw AccessError.userLookupFailed("getpwuid_r(\(uid))", errno: EIO) }
            return memberships[uid] ?? []
        }
    }

    // A daemon running as uid 990, allowing group "kiosk" (gid 4712).
    private static let daemonUID: uid_t = 990
    private static let kiosk: gid_t = 4712
    private static let database = TableGroupDatabase(
        namedGroups: ["kiosk": kiosk, "wheel": 10],
        memberships: [
            1000: [1000, 27, kiosk], // a member through /etc/group
            1001: [kiosk], // primary group kiosk in /etc/passwd
            1002: [1002, 27, 10], // in other groups only
            990: [990],
        ]
    )
    private let access = PeerAccess(allowedGroups: ["kiosk"], daemonUID: daemonUID, database: database)

    func testPeerAccess_whenRoot_thenAllowedWithoutAnyGroup() {
        XCTAssertTrue(access.mayMutate(pid: 1, uid: 0, gid: 0))
        XCTAssertTrue(PeerAccess(allowedGroups: [], daemonUID: Self.daemonUID, database: TableGroupDatabase()).mayMutate(pid: 1, uid: 0, gid: 0))
    }

    func testPeerAccess_whenDaemonsOwnUid_thenAllowedWithoutAnyGroup() {
        let noGroups = PeerAccess(allowedGroups: [], daemonUID: Self.daemonUID, database: TableGroupDatabase())
        XCTAssertTrue(noGroups.mayMutate(pid: 10, uid: Self.daemonUID, gid: 100))
        XCTAssertTrue(access.mayMutate(pid: 10, uid: Self.daemonUID, gid: Self.daemonUID))
    }

    func testPeerAccess_whenProcessPrimaryGroupIsAllowed_thenAllowedThoughTheDatabaseListsNoGroup() {
        // SO_PEERCRED's gid: e.g. `sg kiosk` or setgid; uid 3000 has no entry at all.
        XCTAssertTrue(access.mayMutate(pid: 10, uid: 3000, gid: Self.kiosk))
    }

    func testPeerAccess_whenDatabasePrimaryGroupIsAllowed_thenAllowed() {
        XCTAssertTrue(access.mayMutate(pid: 10, uid: 1001, gid: 1001))
    }

    func testPeerAccess_whenSupplementaryGroupIsAllowed_thenAllowed() {
        XCTAssertTrue(access.mayMutate(pid: 10, uid: 1000, gid: 1000))
    }

    func testPeerAccess_whenStranger_thenDenied() {
        XCTAssertFalse(access.mayMutate(pid: 10, uid: 1002, gid: 1002), "member of other groups only")
        XCTAssertFalse(access.mayMutate(pid: 10, uid: 3000, gid: 3000), "no entry in the database")
        XCTAssertFalse(access.mayMutate(pid: 10, uid: 65534, gid: 65534), "nobody")
        XCTAssertFalse(access.mayMutate(pid: 10, uid: Self.daemonUID + 1, gid: Self.daemonUID), "the daemon's gid is not its uid")
    }

    func testPeerAccess_whenDeciding_thenLooksUpThePeersUidEachTime() {
        let database = TableGroupDatabase(namedGroups: ["kiosk": Self.kiosk], memberships: [1000: [Self.kiosk]])
        let access = PeerAccess(allowedGroups: ["kiosk"], daemonUID: Self.daemonUID, database: database)
        XCTAssertTrue(access.mayMutate(pid: 10, uid: 1000, gid: 1000))
        XCTAssertFalse(access.mayMutate(pid: 11, uid: 1002, gid: 1002))
        XCTAssertTrue(access.mayMutate(pid: 12, uid: 1000, gid: 1000))
        XCTAssertEqual(database.usersAsked, [1000, 1002, 1000])
    }

    func testPeerAccess_whenGroupLookupFails_thenJudgedOnUidAndGidAlone() {
        let failing = TableGroupDatabase(memberships: [1000: [Self.kiosk]], fails: true)
        let access = PeerAccess(policy: AccessPolicy(daemonUID: Self.daemonUID, grantingGroupIDs: [Self.kiosk]), database: failing)
        XCTAssertFalse(access.mayMutate(pid: 10, uid: 1000, gid: 1000), "a member whose groups cannot be read")
        XCTAssertTrue(access.mayMutate(pid: 10, uid: 1000, gid: Self.kiosk))
        XCTAssertTrue(access.mayMutate(pid: 10, uid: 0, gid: 0))
        XCTAssertTrue(access.mayMutate(pid: 10, uid: Self.daemonUID, gid: 1))
    }

    func testPeerAccess_whenAllowedGroupDoesNotExistOrCannotBeRead_thenItGrantsNothing() {
        let missing = PeerAccess(allowedGroups: ["no-such-group"], daemonUID: Self.daemonUID, database: Self.database)
        XCTAssertEqual(missing.policy.grantingGroupIDs, [])
        XCTAssertFalse(missing.mayMutate(pid: 10, uid: 1000, gid: 1000))
        XCTAssertTrue(missing.mayMutate(pid: 10, uid: 0, gid: 0))
        let unreadable = PeerAccess(allowedGroups: ["kiosk"], daemonUID: Self.daemonUID, database: TableGroupDatabase(fails: true))
        XCTAssertEqual(unreadable.policy.grantingGroupIDs, [])
    }

    func testPeerAccess_whenSeveralGroupsAllowed_thenEachGrants() {
        let access = PeerAccess(allowedGroups: ["kiosk", "wheel"], daemonUID: Self.daemonUID, database: Self.database)
        XCTAssertEqual(access.policy.grantingGroupIDs, [Self.kiosk, 10])
        XCTAssertTrue(access.mayMutate(pid: 10, uid: 1002, gid: 1002), "through wheel")
        XCTAssertTrue(access.mayMutate(pid: 10, uid: 1000, gid: 1000), "through kiosk")
    }

    func testGroupIDs_whenSomeNamesDoNotResolve_thenTheOthersKeepTheirOrder() {
        // The daemon gives its socket to the first of these, so the order is the configured one.
        XCTAssertEqual(AccessPolicy.groupIDs(named: ["no-such-group", "wheel", "kiosk"], in: Self.database), [10, Self.kiosk])
        XCTAssertEqual(AccessPolicy.groupIDs(named: ["kiosk", "wheel"], in: Self.database), [Self.kiosk, 10])
        XCTAssertEqual(AccessPolicy.groupIDs(named: ["kiosk"], in: TableGroupDatabase(fails: true)), [])
    }

    func testPeerAccess_whenDaemonDefaults_thenAllowsTheAppstateGroupAndOwnUid() {
        // Users other than the one running the tests (and not root), whatever that one is.
        let member: uid_t = geteuid() == 1000 ? 1100 : 1000
        let stranger: uid_t = geteuid() == 1002 ? 1102 : 1002
        let database = TableGroupDatabase(namedGroups: ["appstate": 4800], memberships: [member: [member, 4800], stranger: [stranger]])
        let access = PeerAccess(allowedGroups: AccessPolicy.defaultGroupNames, database: database)
        XCTAssertEqual(access.policy.daemonUID, geteuid())
        XCTAssertEqual(access.policy.grantingGroupIDs, [4800])
        XCTAssertTrue(access.mayMutate(pid: 10, uid: member, gid: member))
        XCTAssertFalse(access.mayMutate(pid: 10, uid: stranger, gid: stranger))
        XCTAssertTrue(access.mayMutate(pid: 10, uid: geteuid(), gid: 4321))
    }

    func testPeerAccess_whenTheCredentialsSettleIt_thenNoLookupIsNeeded() {
        let access = PeerAccess(policy: AccessPolicy(daemonUID: 4711, grantingGroupIDs: [4800]), database: TableGroupDatabase(fails: true))
        XCTAssertEqual(access.decisionWithoutLookup(uid: 0, gid: 0), true)
        XCTAssertEqual(access.decisionWithoutLookup(uid: 4711, gid: 4711), true)
        XCTAssertEqual(access.decisionWithoutLookup(uid: 1000, gid: 4800), true)
        XCTAssertNil(access.decisionWithoutLookup(uid: 1000, gid: 1000), "only the groups can tell")
    }
}
