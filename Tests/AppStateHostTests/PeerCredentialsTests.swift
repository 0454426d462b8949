import Foundation
import TestSupport
import XCTest

@testable import AppStateHost

final class PeerCredentialsTests: AppStateTestCase {
    func testSupplementaryGroups_whenUserListedInGroupFile_thenIncludesThoseGroupsAndPrimary() throws {
        // An independent oracle: /etc/group's member lists and /etc/passwd's primary groups.
        let passwd = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        let group = try String(contentsOfFile: "/etc/group", encoding: .utf8)
        var checked = 0
        for line in passwd.split(separator: "\n") {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count >= 4, let uid = uid_t(fields[2]), let primary = gid_t(fields[3]) else { continue }
            let name = String(fields[0])
            var expected: Set<gid_t> = [primary]
            for groupLine in group.split(separator: "\n") {
                let groupFields = groupLine.split(separator: ":", omittingEmptySubsequences: false)
                guard groupFields.count >= 4, let gid = gid_t(groupFields[2]) else { continue }
                if groupFields[3].split(separator: ",").contains(Substring(name)) { expected.insert(gid) }
            }
            let groups = try PeerCredentials.supplementaryGroups(ofUser: uid)
            XCTAssertEqual(groups.first, primary, name)
            XCTAssertTrue(expected.isSubset(of: Set(groups)), "\(name): \(groups) lacks some of \(expected)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 0)
    }

    func testSupplementaryGroups_whenUidHasNoEntry_thenIsEmpty() throws {
        XCTAssertEqual(try PeerCredentials.supplementaryGroups(ofUser: 3_999_999_999), [])
    }

    // MARK: Access policy

    private let policy = AccessPolicy(daemonUID: 990, grantingGroupIDs: [991])

    func testMayMutate_whenRoot_thenAllowed() {
        XCTAssertTrue(policy.mayMutate(PeerCredentials(pid: 1, uid: 0, gid: 0)))
    }

    func testMayMutate_whenDaemonsOwnUid_thenAllowed() {
        XCTAssertTrue(policy.mayMutate(PeerCredentials(pid: 10, uid: 990, gid: 990)))
    }

    func testMayMutate_whenPrimaryGroupGrants_thenAllowed() {
        XCTAssertTrue(policy.mayMutate(PeerCredentials(pid: 10, uid: 1000, gid: 991)))
    }

    func testMayMutate_whenSupplementaryGroupGrants_thenAllowed() {
        XCTAssertTrue(policy.mayMutate(PeerCredentials(pid: 10, uid: 1000, gid: 1000, supplementaryGroups: [1000, 27, 991])))
    }

    func testMayMutate_whenStranger_thenDenied() {
        XCTAssertFalse(policy.mayMutate(PeerCredentials(pid: 10, uid: 1000, gid: 1000, supplementaryGroups: [1000, 27])))
        XCTAssertFalse(policy.mayMutate(PeerCredentials(pid: 10, uid: 65534, gid: 65534)))
    }

    func testMayMutate_whenNoGroupsConfigured_thenOnlyRootAndDaemon() {
        let strict = AccessPolicy(daemonUID: 990, grantingGroupIDs: [])
        XCTAssertTrue(strict.mayMutate(PeerCredentials(pid: 1, uid: 0, gid: 0)))
        XCTAssertTrue(strict.mayMutate(PeerCredentials(pid: 1, uid: 990, gid: 990)))
        XCTAssertFalse(strict.mayMutate(PeerCredentials(pid: 1, uid: 1000, gid: 991, supplementaryGroups: [991])))
    }

    func testAccessPolicy_whenGroupNamesGiven_thenResolvesExistingAndIgnoresMissing() {
        let policy = AccessPolicy(groupNames: ["root", "no-such-group-appstate-test"], daemonUID: 990)
        XCTAssertEqual(policy.grantingGroupIDs, [0])
        XCTAssertEqual(policy.daemonUID, 990)
        XCTAssertTrue(policy.mayMutate(PeerCredentials(pid: 10, uid: 1000, gid: 1000, supplementaryGroups: [0])))
    }

    func testAccessPolicy_whenDefaults_thenUsesAppstateGroupAndOwnUid() {
        let policy = AccessPolicy()
        XCTAssertEqual(AccessPolicy.defaultGroupNames, ["appstate"])
        XCTAssertEqual(policy.daemonUID, geteuid())
        let appstate = getgrnam("appstate").map { Set([$0.pointee.gr_gid]) } ?? []
        XCTAssertEqual(policy.grantingGroupIDs, appstate)
    }
}
