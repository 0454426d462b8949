/// What a login-state container should show, as a system source of truth decided it:
/// nobody logged in, or a user whose session is locked or not.
package enum DesiredSession: Hashable, Sendable, CustomStringConvertible {
    /// Nobody is logged in (no active session, or a greeter or lock-screen session).
    case loggedOut
    /// A user is logged in.
    case loggedIn(user: String, locked: Bool)

    /// For the log: `logged out`, `ada`, `ada (locked)`.
    package var description: String {
        switch self {
        case .loggedOut: "logged out"
        case .loggedIn(let user, let locked): locked ? "\(user) (locked)" : user
        }
    }
}
