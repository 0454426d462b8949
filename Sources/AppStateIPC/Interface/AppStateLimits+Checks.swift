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

extension AppStateLimits {
    /// The longest path of a Unix socket, in bytes: `sun_path` holds 108 with the final NUL.
    public static let maximumSocketPathLength = 107

    /// What is wrong with the path of a Unix socket a client names (`ReportFrontEnd`'s
    /// `socket`): it must be absolute, fit `sun_path`, and hold no control characters.
    /// - Parameter path: The path.
    /// - Returns: A phrase naming the problem, or nil for a path a socket can have.
    static func socketPathProblem(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return "must be an absolute path, not \(String(reflecting: path))" }
        guard path.utf8.count <= maximumSocketPathLength else { return "must be at most \(maximumSocketPathLength) bytes, the longest socket path" }
        guard !path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return "must not contain control characters"
        }
        return nil
    }
}
