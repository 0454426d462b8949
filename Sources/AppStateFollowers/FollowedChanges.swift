import AppStateCore
import AppStateIPC

/// The calls that bring a tree to what a follower decided, as a client would make them:
/// only the difference between the tree's state and the desired one, so that the same
/// state delivered twice changes nothing and sends no event.
enum FollowedChanges {
    /// The calls that take a login container from its session to `desired`.
    /// - Parameters:
    ///   - tree: The tree's name.
    ///   - user: Who is logged in now; nil for nobody.
    ///   - locked: Whether the session is locked now.
    ///   - desired: What logind says.
    /// - Returns: `Logout`; or `Login` (switching users) and then `Lock` or `Unlock` as needed; or nothing.
    static func session(tree: String, user: String?, locked: Bool, desired: DesiredSession) -> [VarlinkCall] {
        switch desired {
        case .loggedOut:
            return user == nil ? [] : [call(.logout, tree)]
        case .loggedIn(let wanted, let wantsLock):
            var calls: [VarlinkCall] = []
            var isLocked = locked
            if user != wanted {
                calls.append(call(.login, tree, ["user": .string(wanted), "switch": .bool(true)]))
                // A new session starts unlocked.
                isLocked = false
            }
            if wantsLock != isLocked { calls.append(call(wantsLock ? .lock : .unlock, tree)) }
            return calls
        }
    }

    /// The call that shows or hides the keyboard on a tree.
    /// - Parameters:
    ///   - tree: The tree's name.
    ///   - visible: Whether the keyboard is shown.
    ///   - height: Its height in points, when shown.
    static func keyboard(tree: String, visible: Bool, height: Double) -> VarlinkCall {
        visible ? call(.showKeyboard, tree, ["height": .number(height)]) : call(.hideKeyboard, tree)
    }

    private static func call(_ method: AppStateMethod, _ tree: String, _ parameters: [String: JSONValue] = [:]) -> VarlinkCall {
        VarlinkCall(method: method.rawValue, parameters: parameters.merging(["tree": .string(tree)]) { $1 })
    }
}
