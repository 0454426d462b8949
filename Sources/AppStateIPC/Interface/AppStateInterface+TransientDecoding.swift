import AppStateCore

// The parameters of the transient changes, decoded by hand rather than through the derived
// decoding: a UI sends them many times a second (a keyboard that slides, a window being
// resized), and their decoding lies on the path from reading such a change to writing its
// event to the watchers, which should hold nothing it can do without.

extension ShowKeyboard.Parameters {
    /// Decodes and validates the parameters.
    /// - Parameter parameters: The call's parameters.
    /// - Throws: `org.varlink.service.InvalidParameter` naming the offending member, or
    ///   `io.appstate.InvalidValue` from ``validate()``.
    public init(parameters: [String: JSONValue]) throws(VarlinkError) {
        try VarlinkObjectDecoder.checkDeclared(Self.memberNames, parameters)
        self.init(
            tree: try VarlinkObjectDecoder.optionalString("tree", in: parameters),
            height: try VarlinkObjectDecoder.double("height", in: parameters),
            duration: try VarlinkObjectDecoder.optionalDouble("duration", in: parameters))
        try validate()
    }
}

extension HideKeyboard.Parameters {
    /// Decodes and validates the parameters.
    /// - Parameter parameters: The call's parameters.
    /// - Throws: `org.varlink.service.InvalidParameter` naming the offending member, or
    ///   `io.appstate.InvalidValue` from ``validate()``.
    public init(parameters: [String: JSONValue]) throws(VarlinkError) {
        try VarlinkObjectDecoder.checkDeclared(Self.memberNames, parameters)
        self.init(
            tree: try VarlinkObjectDecoder.optionalString("tree", in: parameters),
            duration: try VarlinkObjectDecoder.optionalDouble("duration", in: parameters))
        try validate()
    }
}

extension Resize.Parameters {
    /// Decodes and validates the parameters.
    /// - Parameter parameters: The call's parameters.
    /// - Throws: `org.varlink.service.InvalidParameter` naming the offending member, or
    ///   `io.appstate.InvalidValue` from ``validate()``.
    public init(parameters: [String: JSONValue]) throws(VarlinkError) {
        try VarlinkObjectDecoder.checkDeclared(Self.memberNames, parameters)
        self.init(
            tree: try VarlinkObjectDecoder.optionalString("tree", in: parameters),
            width: try VarlinkObjectDecoder.double("width", in: parameters),
            height: try VarlinkObjectDecoder.double("height", in: parameters))
        try validate()
    }
}
