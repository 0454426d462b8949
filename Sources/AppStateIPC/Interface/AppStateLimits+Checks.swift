extension AppStateLimits {
    /// Checks a size in points: finite, not above ``maximumLength``, and above zero unless
    /// `allowingZero`.
    /// - Throws: `io.appstate.InvalidValue` naming `member`.
    static func checkLength(_ value: Double, _ member: String, allowingZero: Bool) throws(VarlinkError) {
        let limit = Int(maximumLength)
        if allowingZero {
            guard value >= 0, value <= maximumLength else {
                throw .invalidValue(parameter: member, reason: "must be from 0 to \(limit) points, not \(value)")
            }
        } else {
            guard value > 0, value <= maximumLength else {
                throw .invalidValue(parameter: member, reason: "must be above 0 and at most \(limit) points, not \(value)")
            }
        }
    }

    /// Checks an animation duration in seconds: from 0 to ``maximumDuration``.
    /// - Throws: `io.appstate.InvalidValue` naming `member`.
    static func checkDuration(_ value: Double?, _ member: String) throws(VarlinkError) {
        guard let value else { return }
        guard value >= 0, value <= maximumDuration else {
            throw .invalidValue(parameter: member, reason: "must be from 0 to \(Int(maximumDuration)) seconds, not \(value)")
        }
    }
}
