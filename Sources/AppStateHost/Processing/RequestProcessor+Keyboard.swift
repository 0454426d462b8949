import AppStateIPC

extension RequestProcessor {
    /// What `RequestKeyboard` answers when the daemon was started without a keyboard follower.
    static let noKeyboardFollower = "the daemon was started without --follow-osk"

    /// The request that asks the followed on-screen keyboard to show or hide itself, for
    /// `RequestKeyboard`. The tree only names the front-end that asks: there is one keyboard
    /// for the whole screen, and what it then does reaches every tree through its follower.
    /// - Parameter parameters: The call's parameters.
    /// - Returns: The request; its answer comes back through the runner, in a later turn.
    /// - Throws: `NoSuchTree` for an unknown tree, `NoKeyboardFollowed` without a keyboard
    ///   follower; nothing is asked then.
    func requestKeyboard(_ parameters: RequestKeyboard.Parameters) throws(VarlinkError) -> MethodRegistry.Request<RequestKeyboard.Reply> {
        _ = try host.tree(named: parameters.tree)
        guard let systemKeyboard else { throw .noKeyboardFollowed(reason: Self.noKeyboardFollower) }
        let runner = self.runner
        return { answer in
            systemKeyboard.request(visible: parameters.visible) { outcome in
                runner.execute { answer(outcome.map { RequestKeyboard.Reply() }) }
            }
        }
    }
}
