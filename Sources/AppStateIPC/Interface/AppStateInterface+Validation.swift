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

extension ReportFrontEnd.Parameters {
    /// The kinds of front-end: `kiosk` (appstate-kiosk) and `page` (a page through
    /// appstate.js and the gateway).
    public static let kinds = ["kiosk", "page"]

    /// The states a front-end reports, as ``FrontEnd/state`` lists them.
    public static let states = ["live", "loading", "recovering", "offline", "down"]

    /// The longest reason, in UTF-8 bytes: a sentence or two, on one line of `appstatectl status`.
    public static let maximumReasonLength = 1024

    /// The shortest and the longest liveness interval, in seconds: a front-end's reports
    /// cost a call each, and an hour is long enough for anything that still means "live".
    public static let livenessIntervals: ClosedRange<Double> = 0.1...3600

    /// Checks the kind, the state, the name, the reason, the counts, the liveness interval and
    /// the socket.
    /// - Throws: `io.appstate.InvalidValue` naming the member.
    public func validate() throws(VarlinkError) {
        guard Self.kinds.contains(kind) else {
            throw .invalidValue(parameter: "kind", reason: "must be one of \(Self.kinds.joined(separator: ", ")), not \(String(reflecting: kind))")
        }
        guard Self.states.contains(state) else {
            throw .invalidValue(parameter: "state", reason: "must be one of \(Self.states.joined(separator: ", ")), not \(String(reflecting: state))")
        }
        if let problem = PrintableName.problem(with: name) { throw .invalidValue(parameter: "name", reason: "the name \(problem)") }
        if let reason {
            guard reason.utf8.count <= Self.maximumReasonLength else {
                throw .invalidValue(parameter: "reason", reason: "must be at most \(Self.maximumReasonLength) bytes")
            }
            // Shown on one line, as a name is: nothing may break or rewrite it.
            if reason.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.isBidiControl })
                || reason.unicodeScalars.contains(where: { [.lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory) })
            {
                throw .invalidValue(parameter: "reason", reason: "must not contain control characters, bidirectional controls or line separators")
            }
        }
        for (member, count) in [("reloads", reloads), ("restarts", restarts)] where (count ?? 0) < 0 {
            throw .invalidValue(parameter: member, reason: "must be at least 0, not \(count ?? 0)")
        }
        guard Self.livenessIntervals.contains(livenessInterval) else {
            throw .invalidValue(parameter: "livenessInterval", reason: "must be from 0.1 to 3600 seconds, not \(livenessInterval)")
        }
        if let socket, let problem = AppStateLimits.socketPathProblem(socket) {
            throw .invalidValue(parameter: "socket", reason: problem)
        }
    }
}
