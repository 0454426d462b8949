/// Which on-screen keyboards `--follow-osk` follows.
package enum OnScreenKeyboardChoice: Hashable, Sendable {
    /// Whichever is on the session bus (`--follow-osk` alone).
    case any
    /// Only this one (`--osk-source`).
    case only(OnScreenKeyboardKind)

    /// The keyboards it may follow, in the order one is chosen when several are there at once.
    package var kinds: [OnScreenKeyboardKind] {
        switch self {
        case .any: OnScreenKeyboardKind.allCases
        case .only(let kind): [kind]
        }
    }
}
