import AppStateFollowers

extension DaemonConfiguration {
    /// What every tree follows unless its tree file says otherwise: systemd-logind's seat, the
    /// on-screen keyboard on the session bus, the compositor's output.
    package struct Followers: Sendable {
        /// Whether trees with a login-state container follow logind's ``seat``
        /// (`--follow-logind`); a tree file's `logindSeat` makes a tree follow its own seat
        /// without it.
        package var followLogind: Bool
        /// The logind seat followed by trees that name none (`--seat`).
        package var seat: String
        /// Whether the trees follow the on-screen keyboard (`--follow-osk`).
        package var followOnScreenKeyboard: Bool
        /// The one keyboard `--follow-osk` follows (`--osk-source`); nil for whichever of
        /// squeekboard, KWin's and Onboard is on the session bus.
        package var onScreenKeyboardSource: OnScreenKeyboardKind?
        /// The keyboard's height in points (`--osk-height`); nil for squeekboard's own sizing
        /// rule, ``OnScreenKeyboardHeight/squeekboard(for:)``.
        package var onScreenKeyboardHeight: Double?
        /// Whether every tree's window follows a Wayland output's size (`--follow-output`); a
        /// tree file's `output` makes a tree follow its own output without it.
        package var followOutput: Bool
        /// The output followed by trees that name none (`--follow-output NAME`); nil for the
        /// compositor's first output.
        package var output: String?

        /// Creates the part, following nothing unless told.
        /// - Parameters:
        ///   - followLogind: Whether trees with a login-state container follow logind.
        ///   - seat: The logind seat followed by trees that name none.
        ///   - followOnScreenKeyboard: Whether the trees follow the on-screen keyboard.
        ///   - onScreenKeyboardSource: The one keyboard to follow; nil for whichever is there.
        ///   - onScreenKeyboardHeight: The keyboard's height in points; nil for squeekboard's rule.
        ///   - followOutput: Whether every tree's window follows a Wayland output.
        ///   - output: The output followed; nil for the first.
        package init(
            followLogind: Bool = false, seat: String = "seat0", followOnScreenKeyboard: Bool = false,
            onScreenKeyboardSource: OnScreenKeyboardKind? = nil, onScreenKeyboardHeight: Double? = nil, followOutput: Bool = false,
            output: String? = nil
        ) {
            self.followLogind = followLogind
            self.seat = seat
            self.followOnScreenKeyboard = followOnScreenKeyboard
            self.onScreenKeyboardSource = onScreenKeyboardSource
            self.onScreenKeyboardHeight = onScreenKeyboardHeight
            self.followOutput = followOutput
            self.output = output
        }
    }
}
