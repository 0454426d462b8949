import Glibc
import TestSupport
import XCTest

@testable import AppStateFollowers

/// The rules by which the logind follower reads a seat, on values as sd-bus reads them,
/// without a bus.
final class LogindSeatStateTests: AppStateTestCase {
    private let seat = "/org/freedesktop/login1/seat/seat0"
    private let ada = "/org/freedesktop/login1/session/_31"
    private let greeter = "/org/freedesktop/login1/session/c1"

    private func active(_ id: String, _ path: String) -> BusValue { .structure([.string(id), .objectPath(path)]) }

    private func properties(name: String = "ada", class sessionClass: String = "user", locked: Bool = false) -> [String: BusValue] {
        ["Name": .string(name), "Class": .string(sessionClass), "LockedHint": .boolean(locked), "Id": .string("1")]
    }

    private func changed(_ path: String, _ interface: String, _ values: [String: BusValue], invalidated: [String] = []) -> BusSignal {
        BusSignal(
            sender: ":1.1", path: path, interface: BusSignal.propertiesInterface, member: "PropertiesChanged",
            arguments: [
                .string(interface),
                .array(values.map { .dictionaryEntry(.string($0.key), .variant($0.value)) }),
                .array(invalidated.map(BusValue.string)),
            ])
    }

    private func signal(_ path: String, _ interface: String, _ member: String, _ arguments: [BusValue] = []) -> BusSignal {
        BusSignal(sender: ":1.1", path: path, interface: interface, member: member, arguments: arguments)
    }

    /// A seat whose active session is ada's, read.
    private func adaLoggedIn(locked: Bool = false) -> LogindSeatState {
        var state = LogindSeatState(seatPath: seat)
        XCTAssertEqual(state.applyActiveSession(active("1", ada)), .readSession(ada))
        XCTAssertEqual(state.applySessionProperties(properties(locked: locked), of: ada), .applied)
        return state
    }

    func testDesired_whenNoSessionIsActive_thenLoggedOut() {
        var state = LogindSeatState(seatPath: seat)
        XCTAssertEqual(state.desired, .loggedOut)
        XCTAssertEqual(state.applyActiveSession(active("", "/")), .applied)
        XCTAssertEqual(state.desired, .loggedOut)
    }

    func testDesired_whenTheActiveSessionIsNotReadYet_thenUndecided() {
        var state = LogindSeatState(seatPath: seat)
        XCTAssertEqual(state.applyActiveSession(active("1", ada)), .readSession(ada))
        XCTAssertNil(state.desired)
    }

    func testDesired_whenAUserSessionIsActive_thenThatUserIsLoggedIn() {
        XCTAssertEqual(adaLoggedIn().desired, .loggedIn(user: "ada", locked: false))
        XCTAssertEqual(adaLoggedIn(locked: true).desired, .loggedIn(user: "ada", locked: true))
    }

    func testDesired_whenAGreeterOrLockScreenOrEmptyNameIsActive_thenLoggedOut() {
        for (sessionClass, name) in [("greeter", "gdm"), ("lock-screen", "ada"), ("background", "ada"), ("user", "")] {
            var state = LogindSeatState(seatPath: seat)
            state.applyActiveSession(active("c1", greeter))
            state.applySessionProperties(properties(name: name, class: sessionClass), of: greeter)
            XCTAssertEqual(state.desired, .loggedOut, sessionClass)
        }
    }

    func testApply_whenTheSeatsActiveSessionChangesToAnotherUser_thenThatUserAfterARead() {
        var state = adaLoggedIn()
        let bob = "/org/freedesktop/login1/session/_32"
        XCTAssertEqual(state.apply(changed(seat, LogindSeatState.seatInterface, ["ActiveSession": active("2", bob)])), .readSession(bob))
        state.applySessionProperties(properties(name: "bob"), of: bob)
        XCTAssertEqual(state.desired, .loggedIn(user: "bob", locked: false))
        // Back to ada, already read: no read needed.
        XCTAssertEqual(state.apply(changed(seat, LogindSeatState.seatInterface, ["ActiveSession": active("1", ada)])), .applied)
        XCTAssertEqual(state.desired, .loggedIn(user: "ada", locked: false))
    }

    func testApply_whenActiveSessionIsInvalidatedWithoutItsValue_thenTheSeatIsRead() {
        var state = adaLoggedIn()
        XCTAssertEqual(state.apply(changed(seat, LogindSeatState.seatInterface, [:], invalidated: ["ActiveSession"])), .readSeat)
    }

    func testApply_whenLockedHintChanges_thenLockedFollowsIt() {
        var state = adaLoggedIn()
        XCTAssertEqual(state.apply(changed(ada, LogindSeatState.sessionInterface, ["LockedHint": .boolean(true)])), .applied)
        XCTAssertEqual(state.desired, .loggedIn(user: "ada", locked: true))
        XCTAssertEqual(state.apply(changed(ada, LogindSeatState.sessionInterface, ["LockedHint": .boolean(false)])), .applied)
        XCTAssertEqual(state.desired, .loggedIn(user: "ada", locked: false))
    }

    func testIdle_whenIdleHintChanges_thenTheActiveSessionIsIdleSinceItsMonotonicHint() {
        var state = adaLoggedIn()
        XCTAssertEqual(state.idle, .active)
        let hint: [String: BusValue] = ["IdleHint": .boolean(true), "IdleSinceHintMonotonic": .unsigned(123_456_789)]
        XCTAssertEqual(state.apply(changed(ada, LogindSeatState.sessionInterface, hint)), .applied)
        XCTAssertEqual(state.idle, .idle(sinceMonotonicMicroseconds: 123_456_789))
        XCTAssertEqual(state.apply(changed(ada, LogindSeatState.sessionInterface, [:], invalidated: ["IdleHint"])), .readSession(ada))
        XCTAssertEqual(
            state.apply(changed(ada, LogindSeatState.sessionInterface, ["IdleHint": .string("yes")])),
            .ignored("IdleHint of \(ada) had the wrong type"))
        XCTAssertEqual(state.idle, .idle(sinceMonotonicMicroseconds: 123_456_789), "a value of the wrong type changes nothing")
        XCTAssertEqual(state.apply(changed(ada, LogindSeatState.sessionInterface, ["IdleHint": .boolean(false)])), .applied)
        XCTAssertEqual(state.idle, .active)
        XCTAssertEqual(state.applyActiveSession(active("", "/")), .applied)
        XCTAssertEqual(state.idle, .active, "no session says the seat is idle")
    }

    func testIdleFor_whenIdleSinceAMomentOnTheMonotonicClock_thenTheTimeSinceIt() throws {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let microseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        let idleFor = try XCTUnwrap(SessionIdle.idle(sinceMonotonicMicroseconds: microseconds - 5_000_000).idleFor)
        XCTAssertGreaterThanOrEqual(idleFor, .seconds(5))
        XCTAssertLessThan(idleFor, .seconds(6))
        XCTAssertEqual(SessionIdle.idle(sinceMonotonicMicroseconds: 0).idleFor, .zero, "logind did not say since when")
        XCTAssertNil(SessionIdle.active.idleFor)
    }

    func testApply_whenLockAndUnlockSignalsArrive_thenLockedFollowsThemWithoutTheHint() {
        var state = adaLoggedIn()
        XCTAssertEqual(state.apply(signal(ada, LogindSeatState.sessionInterface, "Lock")), .applied)
        XCTAssertEqual(state.desired, .loggedIn(user: "ada", locked: true))
        XCTAssertEqual(state.apply(signal(ada, LogindSeatState.sessionInterface, "Unlock")), .applied)
        XCTAssertEqual(state.desired, .loggedIn(user: "ada", locked: false))
    }

    func testApply_whenTheActiveSessionIsRemoved_thenLoggedOut() {
        var state = adaLoggedIn()
        XCTAssertEqual(
            state.apply(
                signal(
                    LogindSeatState.managerPath, LogindSeatState.managerInterface, "SessionRemoved",
                    [.string("1"), .objectPath(ada)])), .applied)
        XCTAssertEqual(state.desired, .loggedOut)
        XCTAssertNil(state.sessions[ada])
    }

    func testApply_whenASessionIsNew_thenItIsKnownAndItsLockSignalsCount() {
        var state = adaLoggedIn()
        let other = "/org/freedesktop/login1/session/_35"
        XCTAssertEqual(state.apply(signal(other, LogindSeatState.sessionInterface, "Lock")), .ignored("Lock of unknown session \(other)"))
        XCTAssertEqual(
            state.apply(
                signal(
                    LogindSeatState.managerPath, LogindSeatState.managerInterface, "SessionNew",
                    [.string("5"), .objectPath(other)])), .applied)
        XCTAssertEqual(state.apply(signal(other, LogindSeatState.sessionInterface, "Lock")), .applied)
        XCTAssertEqual(state.sessions[other]?.locked, true)
        XCTAssertEqual(state.desired, .loggedIn(user: "ada", locked: false), "another session's lock is not the active one's")
    }

    func testApply_whenAChangeArrivesForASessionNotReadYet_thenItIsReadWhole() {
        var state = LogindSeatState(seatPath: seat)
        state.applyActiveSession(active("1", ada))
        XCTAssertEqual(state.apply(changed(ada, LogindSeatState.sessionInterface, ["LockedHint": .boolean(true)])), .readSession(ada))
        XCTAssertNil(state.desired)
    }

    func testApply_whenValuesHaveTheWrongTypes_thenNothingChanges() {
        var state = adaLoggedIn()
        let before = state
        XCTAssertEqual(
            state.apply(changed(seat, LogindSeatState.seatInterface, ["ActiveSession": .string("garbage")])), .ignored("ActiveSession is not (so)"))
        XCTAssertEqual(
            state.apply(changed(seat, LogindSeatState.seatInterface, ["ActiveSession": .structure([.string("2"), .string(ada)])])),
            .ignored("ActiveSession is not (so)"))
        if case .ignored = state.apply(changed(ada, LogindSeatState.sessionInterface, ["LockedHint": .string("yes"), "Name": .integer(42)])) {
        } else {
            XCTFail("a wrong type is reported")
        }
        XCTAssertEqual(state.desired, before.desired)
        XCTAssertEqual(
            state.apply(signal(LogindSeatState.managerPath, LogindSeatState.managerInterface, "SessionNew", [.unsigned(7)])),
            .ignored("SessionNew is not (so)"))
        XCTAssertEqual(
            state.apply(signal(ada, BusSignal.propertiesInterface, "PropertiesChanged", [.string("x")])),
            .ignored("PropertiesChanged of \(ada) is not sa{sv}as for \(LogindSeatState.sessionInterface)"))
        XCTAssertEqual(state, before)
    }

    func testApply_whenSignalsAreAboutUnknownObjectsOrNotFollowed_thenIgnored() {
        var state = adaLoggedIn()
        let before = state
        let nowhere = "/org/freedesktop/login1/session/nowhere"
        XCTAssertEqual(
            state.apply(changed(nowhere, LogindSeatState.sessionInterface, ["LockedHint": .boolean(true)])),
            .ignored("PropertiesChanged of unknown object \(nowhere)"))
        XCTAssertEqual(state.apply(signal(nowhere, LogindSeatState.sessionInterface, "Unlock")), .ignored("Unlock of unknown session \(nowhere)"))
        XCTAssertEqual(
            state.apply(signal(LogindSeatState.managerPath, LogindSeatState.managerInterface, "PrepareForSleep", [.boolean(true)])),
            .ignored("org.freedesktop.login1.Manager.PrepareForSleep is not followed"))
        // SessionNew from another path than the Manager's is not logind's.
        XCTAssertEqual(
            state.apply(signal(ada, LogindSeatState.managerInterface, "SessionNew", [.string("9"), .objectPath(nowhere)])),
            .ignored("SessionNew is not (so)"))
        XCTAssertEqual(state, before)
    }

    func testApplySessionList_whenListSessionsReplies_thenOnlyThoseSessionsAreKnown() {
        var state = adaLoggedIn()
        let bob = "/org/freedesktop/login1/session/_32"
        let entry: (String, String) -> BusValue = { id, path in
            .structure([.string(id), .unsigned(1000), .string("x"), .string("seat0"), .objectPath(path)])
        }
        XCTAssertEqual(state.applySessionList([.array([entry("1", ada), entry("2", bob)])]), .applied)
        XCTAssertEqual(Set(state.sessions.keys), [ada, bob])
        XCTAssertEqual(state.sessions[ada]?.isRead, true, "a session known before keeps what was read")
        XCTAssertEqual(state.applySessionList([.array([.string("bad")])]), .ignored("ListSessions did not return a(susso)"))
    }

    func testApply_whenSessionsFlood_thenAtMostTheMaximumIsRemembered() {
        var state = LogindSeatState(seatPath: seat)
        for index in 0..<(LogindSeatState.maximumSessions + 10) {
            _ = state.apply(
                signal(
                    LogindSeatState.managerPath, LogindSeatState.managerInterface, "SessionNew",
                    [.string("\(index)"), .objectPath("/org/freedesktop/login1/session/s\(index)")]))
        }
        XCTAssertEqual(state.sessions.count, LogindSeatState.maximumSessions)
    }
}
