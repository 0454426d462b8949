import AppStateCore

extension VarlinkError {
    private init(_ name: AppStateErrorName, _ parameters: [String: JSONValue]) {
        self.init(name: name.rawValue, parameters: parameters)
    }

    /// `io.appstate.NoSuchTree`: no tree has this name.
    /// - Parameter tree: The name that was asked for.
    public static func noSuchTree(_ tree: String) -> VarlinkError {
        VarlinkError(.noSuchTree, ["tree": .string(tree)])
    }

    /// `io.appstate.NoSuchNode`: no controller is at this path.
    /// - Parameter path: The path that was asked for.
    public static func noSuchNode(path: String) -> VarlinkError {
        VarlinkError(.noSuchNode, ["path": .string(path)])
    }

    /// `io.appstate.WrongContainerType`: the controller is not the container the method needs.
    /// - Parameters:
    ///   - path: The path of the controller.
    ///   - expected: The kind the method needs, e.g. `PaginatedController`.
    ///   - actual: The controller's kind.
    public static func wrongContainerType(path: String, expected: String, actual: String) -> VarlinkError {
        VarlinkError(.wrongContainerType, ["path": .string(path), "expected": .string(expected), "actual": .string(actual)])
    }

    /// `io.appstate.InvalidTransition`: the container cannot make this change now.
    /// - Parameters:
    ///   - path: The path of the container.
    ///   - reason: Why, in words.
    public static func invalidTransition(path: String, reason: String) -> VarlinkError {
        VarlinkError(.invalidTransition, ["path": .string(path), "reason": .string(reason)])
    }

    /// `io.appstate.AlreadyLoggedIn`: a different user is logged in.
    /// - Parameter user: The user logged in.
    public static func alreadyLoggedIn(user: String) -> VarlinkError {
        VarlinkError(.alreadyLoggedIn, ["user": .string(user)])
    }

    /// `io.appstate.OutOfRange`: a page index outside the container's pages.
    /// - Parameters:
    ///   - path: The path of the container.
    ///   - index: The index that was asked for.
    ///   - count: How many pages the container has.
    public static func outOfRange(path: String, index: Int, count: Int) -> VarlinkError {
        VarlinkError(.outOfRange, ["path": .string(path), "index": .number(Double(index)), "count": .number(Double(count))])
    }

    /// `io.appstate.NoSuchChild`: the container has no child with this identifier.
    /// - Parameters:
    ///   - path: The path of the container.
    ///   - id: The identifier that was asked for.
    public static func noSuchChild(path: String, id: String) -> VarlinkError {
        VarlinkError(.noSuchChild, ["path": .string(path), "id": .string(id)])
    }

    /// `io.appstate.NoSuchPresentation`: the tree has no presentation with this identifier.
    /// - Parameters:
    ///   - tree: The tree.
    ///   - id: The identifier that was asked for.
    public static func noSuchPresentation(tree: String, id: String) -> VarlinkError {
        VarlinkError(.noSuchPresentation, ["tree": .string(tree), "id": .string(id)])
    }

    /// `io.appstate.AlreadyPresenting`: the root presents a controller already.
    /// - Parameters:
    ///   - path: The path of the controller that presents it.
    ///   - presented: The path of the controller presented.
    public static func alreadyPresenting(path: String, presented: String) -> VarlinkError {
        VarlinkError(.alreadyPresenting, ["path": .string(path), "presented": .string(presented)])
    }

    /// `io.appstate.TransitionInProgress`: the container is in the middle of a transition.
    /// - Parameter path: The path of the container.
    public static func transitionInProgress(path: String) -> VarlinkError {
        VarlinkError(.transitionInProgress, ["path": .string(path)])
    }

    /// `io.appstate.TooManyConnections`: the daemon serves as many connections as it may.
    /// - Parameter limit: The maximum number of connections.
    public static func tooManyConnections(limit: Int) -> VarlinkError {
        VarlinkError(.tooManyConnections, ["limit": .number(Double(limit))])
    }

    /// `io.appstate.MessageTooLarge`: a message exceeded the maximum size.
    /// - Parameter limit: The maximum message size in bytes.
    public static func messageTooLarge(limit: Int) -> VarlinkError {
        VarlinkError(.messageTooLarge, ["limit": .number(Double(limit))])
    }

    /// `io.appstate.WatcherTooSlow`: a watcher fell behind and is disconnected.
    /// - Parameter queued: How many replies were waiting.
    public static func watcherTooSlow(queued: Int) -> VarlinkError {
        VarlinkError(.watcherTooSlow, ["queued": .number(Double(queued))])
    }

    /// `io.appstate.StorageFailure`: the change could not be saved, so it was not made.
    /// - Parameter reason: What failed, in words.
    public static func storageFailure(reason: String) -> VarlinkError {
        VarlinkError(.storageFailure, ["reason": .string(reason)])
    }

    /// `io.appstate.SessionOwnedByLogind`: the tree follows logind, which owns its session.
    /// - Parameters:
    ///   - tree: The tree that follows logind.
    ///   - seat: The logind seat it follows.
    public static func sessionOwnedByLogind(tree: String, seat: String) -> VarlinkError {
        VarlinkError(.sessionOwnedByLogind, ["tree": .string(tree), "seat": .string(seat)])
    }

    /// `io.appstate.WindowOwnedByOutput`: the tree's window follows a compositor's output,
    /// which owns its size.
    /// - Parameters:
    ///   - tree: The tree that follows the output.
    ///   - output: The output's name; nil when the tree follows the first output.
    public static func windowOwnedByOutput(tree: String, output: String?) -> VarlinkError {
        VarlinkError(.windowOwnedByOutput, ["tree": .string(tree)].merging(output.map { ["output": .string($0)] } ?? [:]) { $1 })
    }

    /// `io.appstate.NoKeyboardFollowed`: the daemon follows no on-screen keyboard it could ask.
    /// - Parameter reason: Why, in words.
    public static func noKeyboardFollowed(reason: String) -> VarlinkError {
        VarlinkError(.noKeyboardFollowed, ["reason": .string(reason)])
    }

    /// `io.appstate.KeyboardRequestFailed`: the on-screen keyboard asked to show or hide
    /// itself answered with an error, or not in time.
    /// - Parameters:
    ///   - keyboard: The keyboard, e.g. `squeekboard`.
    ///   - reason: What failed, in words.
    public static func keyboardRequestFailed(keyboard: String, reason: String) -> VarlinkError {
        VarlinkError(.keyboardRequestFailed, ["keyboard": .string(keyboard), "reason": .string(reason)])
    }

    /// `io.appstate.NoKiosk`: no kiosk that is up reports for the tree.
    /// - Parameter tree: The tree.
    public static func noKiosk(tree: String) -> VarlinkError {
        VarlinkError(.noKiosk, ["tree": .string(tree)])
    }

    /// `io.appstate.InvalidValue`: a parameter of the right type with an impossible value.
    /// - Parameters:
    ///   - parameter: The name of the parameter.
    ///   - reason: What is wrong with the value, in words.
    public static func invalidValue(parameter: String, reason: String) -> VarlinkError {
        VarlinkError(.invalidValue, ["parameter": .string(parameter), "reason": .string(reason)])
    }
}
