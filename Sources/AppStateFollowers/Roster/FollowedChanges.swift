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

    /// The call that shows, moves or hides the keyboard on a tree, when its frame is not
    /// the one wanted: at the bottom of the window, the window's width, `height` high.
    /// - Parameters:
    ///   - tree: The tree's name.
    ///   - visible: Whether the keyboard is shown.
    ///   - height: Its height in points, when shown.
    ///   - window: The window's size, once the batch's calls before this one are made.
    ///   - frame: The keyboard's frame now; nil while it is hidden.
    /// - Returns: `ShowKeyboard`, `HideKeyboard`, or nothing.
    static func keyboard(tree: String, visible: Bool, height: Double, window: Size, frame: Rect?) -> [VarlinkCall] {
        guard visible else { return frame == nil ? [] : [call(.hideKeyboard, tree)] }
        let wanted = Rect(x: 0, y: window.height - height, width: window.width, height: height)
        return frame == wanted ? [] : [call(.showKeyboard, tree, ["height": .number(height)])]
    }

    /// The call that gives a tree's window a size.
    /// - Parameters:
    ///   - tree: The tree's name.
    ///   - size: The size.
    static func resize(tree: String, to size: Size) -> VarlinkCall {
        call(.resize, tree, ["width": .number(size.width), "height": .number(size.height)])
    }

    private static func call(_ method: AppStateMethod, _ tree: String, _ parameters: [String: JSONValue] = [:]) -> VarlinkCall {
        VarlinkCall(method: method.rawValue, parameters: parameters.merging(["tree": .string(tree)]) { $1 })
    }
}
