import AppStateCore

extension VarlinkError: CustomStringConvertible {
    /// The error as a sentence for people, e.g. `no node at "session/nowhere"`, built from
    /// the error's parameters; errors this library does not know are shown by name with
    /// their parameters as JSON.
    public var message: String {
        switch AppStateErrorName(rawValue: name) {
        case .noSuchTree?: return "no tree named \(quoted("tree"))"
        case .noSuchNode?: return "no node at \(quoted("path"))"
        case .wrongContainerType?:
            return "\(quoted("path")) is a \(text("actual")), not a \(text("expected"))"
        case .invalidTransition?: return "cannot change \(quoted("path")): \(text("reason"))"
        case .alreadyLoggedIn?: return "\(quoted("user")) is already logged in (switch users to replace them)"
        case .outOfRange?:
            return "page \(text("index")) of \(quoted("path")) is out of range: it has \(text("count")) pages"
        case .noSuchChild?: return "\(quoted("path")) has no child \(quoted("id"))"
        case .noSuchPresentation?: return "tree \(quoted("tree")) has no presentation \(quoted("id"))"
        case .alreadyPresenting?: return "\(quoted("path")) already presents \(quoted("presented")) (dismiss it first)"
        case .transitionInProgress?: return "\(quoted("path")) is in the middle of a transition; try again"
        case .tooManyConnections?: return "too many connections (the limit is \(text("limit")))"
        case .messageTooLarge?: return "message too large (the limit is \(text("limit")) bytes)"
        case .watcherTooSlow?: return "watcher too slow: \(text("queued")) replies were waiting"
        case .storageFailure?: return "could not save the state: \(text("reason"))"
        case .sessionOwnedByLogind?:
            return "tree \(quoted("tree")) follows logind's \(quoted("seat")): logind decides who is logged in and whether the session is locked"
        case .windowOwnedByOutput?:
            let output = parameters["output"] == nil ? "the first output" : "the output \(quoted("output"))"
            return "tree \(quoted("tree")) follows \(output): the compositor decides the window's size"
        case .noKeyboardFollowed?: return "no on-screen keyboard to ask: \(text("reason"))"
        case .keyboardRequestFailed?: return "the on-screen keyboard \(quoted("keyboard")) failed the request: \(text("reason"))"
        case .noKiosk?: return "no kiosk shows tree \(quoted("tree"))"
        case .invalidValue?: return "invalid value for \(quoted("parameter")): \(text("reason"))"
        case nil: break
        }
        switch VarlinkServiceErrorName(rawValue: name) {
        case .interfaceNotFound?: return "no interface \(quoted("interface"))"
        case .methodNotFound?: return "no method \(quoted("method"))"
        case .methodNotImplemented?: return "method \(quoted("method")) is not implemented"
        case .invalidParameter?: return "invalid parameter \(quoted("parameter"))"
        case .permissionDenied?: return "permission denied"
        case .expectedMore?: return "the method must be called with more"
        case nil: break
        }
        return parameters.isEmpty ? name : "\(name) \(JSONValue.object(parameters).jsonText)"
    }

    /// The sentence of ``message`` followed by the error's name, for logs.
    public var description: String { "\(message) [\(name)]" }

    private func text(_ key: String) -> String {
        switch parameters[key] {
        case .string(let text)?: text
        case .number(let number)?: JSONValue.number(number).jsonText
        case let value?: value.jsonText
        case nil: "?"
        }
    }

    private func quoted(_ key: String) -> String {
        "\"\(text(key))\""
    }
}
