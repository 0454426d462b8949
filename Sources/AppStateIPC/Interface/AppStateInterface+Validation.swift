import AppStateCore

// What the interface file can only say in words: the ranges of values, and which methods
// stream. The declarations themselves are generated from io.appstate.varlink.

extension ShowKeyboard.Parameters {
    /// Checks that the height and the duration are within the interface's limits.
    /// - Throws: `io.appstate.InvalidValue` naming the member.
    public func validate() throws(VarlinkError) {
        try AppStateLimits.checkLength(height, "height", allowingZero: true)
        try AppStateLimits.checkDuration(duration, "duration")
    }
}

extension HideKeyboard.Parameters {
    /// Checks that the duration is within the interface's limits.
    /// - Throws: `io.appstate.InvalidValue` naming it.
    public func validate() throws(VarlinkError) {
        try AppStateLimits.checkDuration(duration, "duration")
    }
}

extension Resize.Parameters {
    /// The new size.
    public var size: Size { Size(width: width, height: height) }

    /// Checks that both lengths are within the interface's limits.
    /// - Throws: `io.appstate.InvalidValue` naming the member.
    public func validate() throws(VarlinkError) {
        try AppStateLimits.checkLength(width, "width", allowingZero: false)
        try AppStateLimits.checkLength(height, "height", allowingZero: false)
    }
}

extension Watch {
    /// Without `more` there is no stream to send, so the call answers `ExpectedMore`.
    public static var requiresMore: Bool { true }
}

extension Inhibit {
    /// Without `more` the inhibitor would end with the call, so the call answers `ExpectedMore`.
    public static var requiresMore: Bool { true }
}

extension Inhibit.Parameters {
    /// Checks that `why` can be shown on one line.
    /// - Throws: `io.appstate.InvalidValue` naming it.
    public func validate() throws(VarlinkError) {
        if let problem = PrintableName.problem(with: why) { throw .invalidValue(parameter: "why", reason: "the reason \(problem)") }
    }
}
