/// Whether outputs are on, as the compositor reports it through wlr-output-power-management.
package enum OutputPower: Hashable, Sendable {
    /// An output is on.
    case on
    /// Every output asked for is off.
    case off
    /// Not reported yet: the compositor's first state or the modes are still to come.
    case unknown
    /// The compositor offers no power control over the outputs, and why, in words.
    case unsupported(String)
}
