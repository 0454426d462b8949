@testable import AppStateFollowers

/// The names logind and the on-screen keyboard use, so that the fuzzer's values reach the
/// followers' decisions instead of being ignored at the first comparison.
enum Vocabulary {
    /// Session objects as logind escapes them (session 1 is `_31`).
    static let sessions = [
        "/org/freedesktop/login1/session/_31", "/org/freedesktop/login1/session/_32",
        "/org/freedesktop/login1/session/c1",
    ]
    static let seat = "/org/freedesktop/login1/seat/seat0"
    static let users = ["ada", "bob", "", "greeter"]
    static let classes = ["user", "greeter", "lock-screen", "background"]
    static let properties = ["Name", "Class", "LockedHint", "ActiveSession", "Visible", "visible", "Id"]
    static let signals = [
        (LogindSeatState.managerInterface, "SessionNew"), (LogindSeatState.managerInterface, "SessionRemoved"),
        (LogindSeatState.sessionInterface, "Lock"), (LogindSeatState.sessionInterface, "Unlock"),
        (BusSignal.propertiesInterface, "PropertiesChanged"), ("org.example.Other", "Lock"),
        (OnScreenKeyboardKind.kwin.interface, "visibleChanged"),
    ]

    /// Every string a value gives as a `Name` property, however deep, for the invariant that
    /// the seat is only ever logged in as a name the bus gave.
    static func namesGiven(_ value: BusValue) -> [String] {
        switch value {
        case .dictionaryEntry(let key, let inner):
            return (key.string == "Name" ? inner.string.map { [$0] } ?? [] : []) + namesGiven(inner)
        case .variant(let inner):
            return namesGiven(inner)
        case .array(let members), .structure(let members):
            return members.flatMap(namesGiven)
        default:
            return []
        }
    }
}
