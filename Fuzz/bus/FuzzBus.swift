@testable import AppStateFollowers

/// Target `bus`: what the daemon reads from D-Bus, as its followers decide on it. The input is
/// a program of bus messages, each byte choosing the next step: logind's replies when the
/// state is read (the session list, the seat's `ActiveSession`, a session's properties),
/// signals (`SessionNew`, `SessionRemoved`, `Lock`, `Unlock`, `PropertiesChanged` of the seat,
/// of a session or of anything), and the on-screen keyboards' visibility (squeekboard's,
/// KWin's, Onboard's), each with values of any shape (right, wrong, nested variants, empty) on
/// the paths logind and the keyboards use and on others. They go to ``LogindSeatState`` and an
/// ``OnScreenKeyboardState`` of each keyboard as the followers hand them on.
///
/// Invariants: nothing traps; at most ``LogindSeatState/maximumSessions`` sessions are kept; a
/// user the seat is logged in as is a name some message gave as a session's `Name`; and a
/// full read of the state (what the follower does on start and whenever logind comes back)
/// ends in the same decision whatever came before it.
func fuzz(_ bytes: [UInt8]) {
    var input = Program(bytes)
    var seat = LogindSeatState(seatPath: Vocabulary.seat)
    var keyboards = OnScreenKeyboardKind.allCases.map(OnScreenKeyboardState.init)
    var names: Set<String> = []
    while let step = input.next() {
        switch step % 8 {
        case 0:
            seat.applySessionList([input.value()])
        case 1:
            seat.applyActiveSession(input.value())
        case 2:
            let properties = input.properties()
            for case .string(let name)? in [properties["Name"]?.unwrapped] { names.insert(name) }
            seat.applySessionProperties(properties, of: input.path())
        case 3:
            let signal = input.signal()
            names.formUnion(signal.arguments.flatMap(Vocabulary.namesGiven))
            seat.apply(signal)
        case 4:
            let value = input.value()
            for index in keyboards.indices { keyboards[index].applyVisible(value) }
        case 5:
            let signal = input.signal()
            for index in keyboards.indices { _ = keyboards[index].apply(signal) }
        case 6:
            resynchronise(&seat, user: input.pick(["ada", "bob"]), names: &names)
        default:
            names.formUnion(Vocabulary.namesGiven(input.value()))
        }
        require(seat.sessions.count <= LogindSeatState.maximumSessions, "\(seat.sessions.count) sessions kept")
        if case .loggedIn(let user, _)? = seat.desired {
            require(names.contains(user), "logged in as \(user), a name no message gave")
        }
    }
}

/// Reads the whole state again, as the follower does, both into the state the messages made
/// and into a fresh one: the decision must not depend on what came before.
private func resynchronise(_ seat: inout LogindSeatState, user: String, names: inout Set<String>) {
    let path = Vocabulary.sessions[0]
    func read(into state: inout LogindSeatState) {
        state.applySessionList([.array([.structure([.string("1"), .unsigned(1000), .string(user), .string("seat0"), .objectPath(path)])])])
        state.applyActiveSession(.structure([.string("1"), .objectPath(path)]))
        state.applySessionProperties(
            [
                "Name": .variant(.string(user)), "Class": .variant(.string("user")),
                "LockedHint": .variant(.boolean(false)),
            ], of: path)
    }
    names.insert(user)
    var fresh = LogindSeatState(seatPath: Vocabulary.seat)
    read(into: &seat)
    read(into: &fresh)
    require(seat.desired == fresh.desired, "after a full read: \(String(describing: seat.desired)), read fresh: \(String(describing: fresh.desired))")
    require(
        seat.desired == .loggedIn(user: user, locked: false), "a full read of \(user)'s unlocked session gave \(String(describing: seat.desired))")
}
