import Foundation
import TestSupport
import XCTest

@testable import AppStateService

final class SystemdPeerCredentialsTests: XCTestCase {
    func testPeerCredentials_whenSocketpair_thenAreOurPidUidGid() throws {
        var descriptors: [CInt] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, CInt(SOCK_STREAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0, &descriptors), 0)
        defer { descriptors.forEach { close($0) } }

        let credentials = try PeerCredentials(socket: descriptors[0])

        XCTAssertEqual(credentials.pid, getpid())
        XCTAssertEqual(credentials.uid, geteuid())
        XCTAssertEqual(credentials.gid, getegid())
        XCTAssertEqual(credentials.supplementaryGroups, try PeerCredentials.supplementaryGroups(ofUser: geteuid()))
    }

    func testPeerCredentials_whenPeerIsAnotherUser_thenReportsThatUserAndDeniesMutation() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root to start a peer as another user") }
        let setpriv = try resolveExecutable("setpriv")
        let socat = try resolveExecutable("socat")
        let directory = try TemporaryDirectory()
        XCTAssertEqual(chmod(directory.path, 0o755), 0)
        let path = directory.path + "/peer.sock"
        let listener = try unixSocket(SOCK_STREAM, boundTo: path)
        defer { close(listener) }
        XCTAssertEqual(chmod(path, 0o777), 0)
        XCTAssertEqual(listen(listener, 1), 0)

        // The peer connects as nobody and stays until the listener closes the connection.
        let peer = Process()
        peer.executableURL = URL(fileURLWithPath: setpriv)
        peer.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", socat, "-u", "UNIX-CONNECT:\(path)", "-"]
        peer.standardOutput = FileHandle.nullDevice
        try peer.runAsTestChild()
        defer {
            if peer.isRunning { peer.terminate() }
            peer.waitUntilExit()
        }
        guard waitReadable(listener, timeout: .seconds(10)) else {
            XCTFail("the peer never connected")
            return
        }
        let connection = accept(listener, nil, nil)
        XCTAssertGreaterThanOrEqual(connection, 0)
        defer { close(connection) }

        let credentials = try PeerCredentials(socket: connection)

        XCTAssertEqual(credentials.uid, 65534)
        XCTAssertEqual(credentials.gid, 65534)
        XCTAssertEqual(credentials.pid, peer.processIdentifier)
        XCTAssertFalse(AccessPolicy(groupNames: ["appstate"], daemonUID: 0).mayMutate(credentials))
        XCTAssertTrue(AccessPolicy(daemonUID: 0, grantingGroupIDs: [65534]).mayMutate(credentials))
    }

    func testPeerCredentials_whenNotASocket_thenThrowsPeerCredentialsUnavailable() throws {
        var descriptors: [CInt] = [-1, -1]
        XCTAssertEqual(pipe(&descriptors), 0)
        defer { descriptors.forEach { close($0) } }
        XCTAssertThrowsError(try PeerCredentials(socket: descriptors[0])) { error in
            XCTAssertEqual((error as? SystemdError)?.code, .peerCredentialsUnavailable)
            XCTAssertEqual((error as? SystemdError)?.errno, ENOTSOCK)
        }
    }

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
