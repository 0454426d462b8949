import AppStateIPC

/// The on-screen keyboard the daemon follows (`--follow-osk`), asked to show or hide itself
/// for `RequestKeyboard`: squeekboard, KWin's virtual keyboard or Onboard, whichever the
/// keyboard follower follows. The followers implement it, off the main thread; what the
/// keyboard then does reaches the trees through the follower, as any change of the keyboard
/// does.
package protocol SystemKeyboard: Sendable {
    /// Asks the keyboard to slide in or out; returns without waiting.
    /// - Parameters:
    ///   - visible: True to show the keyboard, false to hide it.
    ///   - answer: Called once, on any thread: when the keyboard answered, or at once when
    ///     none is followed. Its failure is the error for the caller:
    ///     `io.appstate.NoKeyboardFollowed` or `io.appstate.KeyboardRequestFailed`.
    func request(visible: Bool, answer: @escaping @Sendable (Result<Void, VarlinkError>) -> Void)
}
