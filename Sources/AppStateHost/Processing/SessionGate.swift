import AppStateCore
import AppStateIPC

/// The trees whose session follows logind: clients' `Login`, `Logout`, `Lock` and `Unlock`
/// on them, and their `Post`s of `session.didLogIn` and `session.didLogOut`, answer
/// `io.appstate.SessionOwnedByLogind`; the logind follower's own calls go through.
struct SessionGate: Sendable {
    /// The seat each such tree follows, by tree name.
    let owners: [String: String]

    /// The tree a client's call would change the session of, and the seat that owns it; nil
    /// when the call may go ahead. A `tree` of the wrong type is left to the method's
    /// decoding to refuse.
    /// - Parameters:
    ///   - call: The call.
    ///   - trees: The trees' names, the default one first.
    func owner(of call: VarlinkCall, trees: [String]) -> (tree: String, seat: String)? {
        guard !owners.isEmpty, Self.changesSession(call) else { return nil }
        let name: String?
        switch call.parameters["tree"] {
        case .string(let tree)?: name = tree
        case .null?, nil: name = trees.first
        default: name = nil
        }
        guard let name, let seat = owners[name] else { return nil }
        return (name, seat)
    }

    /// Whether a call changes who is logged in or the lock: `Login`, `Logout`, `Lock`,
    /// `Unlock`, and the `Post` of a session notification, which the login container acts on
    /// as it would on those calls.
    private static func changesSession(_ call: VarlinkCall) -> Bool {
        switch call.method {
        case Login.name, Logout.name, Lock.name, Unlock.name:
            return true
        case Post.name:
            let name = call.parameters["name"]?.stringValue
            return name == NotificationName.sessionDidLogIn.rawValue || name == NotificationName.sessionDidLogOut.rawValue
        default:
            return false
        }
    }
}
