import AppStateCore

// The `io.appstate` errors, declared in io.appstate.varlink (their names, parameters and when
// the daemon sends them) and here: the factory that builds each, and one table of what the
// clients make of each. A new error is one declaration there and one factory and one row here.

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

extension AppStateErrorName {
    /// The error's sentence, `appstatectl`'s exit status (a refusal, 1, unless said) and the
    /// gateway's HTTP status: the client's (4xx) for a refused call, 404 for what is not
    /// there, 409 for a change the state does not permit, 422 for an impossible value; 5xx
    /// where the daemon or what it asked cannot serve.
    public var entry: ErrorCatalogueEntry {
        switch self {
        case .noSuchTree:
            ErrorCatalogueEntry(http: 404, example: .noSuchTree("kiosk")) { "no tree named \($0["tree"])" }
        case .noSuchNode:
            ErrorCatalogueEntry(http: 404, example: .noSuchNode(path: "session/nope")) { "no node at \($0["path"])" }
        case .wrongContainerType:
            ErrorCatalogueEntry(
                http: 422, example: .wrongContainerType(path: "session/home", expected: "PaginatedController", actual: "MenuController")
            ) { "\($0["path"]) is \($0.withArticle("actual")), not \($0.withArticle("expected"))" }
        case .invalidTransition:
            ErrorCatalogueEntry(http: 409, example: .invalidTransition(path: "session/home/inbox", reason: "the root cannot be popped")) {
                "cannot change \($0["path"]): \($0["reason"])"
            }
        case .alreadyLoggedIn:
            ErrorCatalogueEntry(http: 409, example: .alreadyLoggedIn(user: "ada")) {
                "\($0["user"]) is already logged in (log in with switch to replace them)"
            }
        case .outOfRange:
            ErrorCatalogueEntry(http: 422, example: .outOfRange(path: "session/home/pages", index: 42, count: 3)) {
                "\($0["path"]) has \($0.count("count", "page")); \($0["index"]) is out of range"
            }
        case .noSuchChild:
            ErrorCatalogueEntry(http: 404, example: .noSuchChild(path: "session/home", id: "reports")) {
                "\($0["path"]) has no child named \($0["id"])"
            }
        case .noSuchPresentation:
            ErrorCatalogueEntry(http: 404, example: .noSuchPresentation(tree: "kiosk", id: "sheet")) {
                "the tree \($0["tree"]) has no presentation named \($0["id"]) (its tree file lists them under presentations)"
            }
        case .alreadyPresenting:
            ErrorCatalogueEntry(http: 409, example: .alreadyPresenting(path: "session", presented: "session/screensaver")) {
                "\($0["path"]) already presents \($0["presented"]) (dismiss it first)"
            }
        case .transitionInProgress:
            ErrorCatalogueEntry(http: 409, example: .transitionInProgress(path: "session/home/pages")) {
                "\($0["path"]) is in the middle of a transition; try again when it has finished"
            }
        case .tooManyConnections:
            // The daemon closes the connection after this reply: it cannot be reached now.
            ErrorCatalogueEntry(exit: .unavailable, http: 503, example: .tooManyConnections(limit: 256)) {
                "appstated is serving its maximum of \($0["limit"]) connections; try again later"
            }
        case .messageTooLarge:
            ErrorCatalogueEntry(http: 413, example: .messageTooLarge(limit: 1_048_576)) {
                "the request is larger than appstated accepts (at most \($0["limit"]) bytes)"
            }
        case .watcherTooSlow:
            ErrorCatalogueEntry(http: 503, example: .watcherTooSlow(queued: 1024)) {
                "appstated ended the watch because its replies were not read fast enough (\($0["queued"]) were waiting)"
            }
        case .storageFailure:
            ErrorCatalogueEntry(http: 500, example: .storageFailure(reason: "No space left on device")) {
                "appstated could not save the change, so it did not make it: \($0["reason"])"
            }
        case .sessionOwnedByLogind:
            ErrorCatalogueEntry(http: 409, example: .sessionOwnedByLogind(tree: "default", seat: "seat0")) {
                "the tree \($0["tree"]) follows logind on \($0["seat"]): log in, out, lock and unlock there (for example with the greeter or loginctl)"
            }
        case .windowOwnedByOutput:
            ErrorCatalogueEntry(http: 409, example: .windowOwnedByOutput(tree: "kiosk", output: "HDMI-A-1")) {
                let output = $0.has("output") ? "the output \($0["output"])" : "the compositor's first output"
                return "the tree \($0["tree"]) follows \(output): its size is the output's (change it in the compositor, e.g. with swaymsg output)"
            }
        case .noKeyboardFollowed:
            // The reason says whether appstated runs without --follow-osk or finds no keyboard.
            ErrorCatalogueEntry(http: 409, example: .noKeyboardFollowed(reason: "the daemon was started without --follow-osk")) {
                "appstated has no on-screen keyboard to ask: \($0["reason"])"
            }
        case .keyboardRequestFailed:
            ErrorCatalogueEntry(
                http: 502,
                example: .keyboardRequestFailed(keyboard: "squeekboard", reason: "sm.puri.OSK0.SetVisible on /sm/puri/OSK0 got no answer")
            ) { "\($0["keyboard"]) did not do what was asked: \($0["reason"])" }
        case .noKiosk:
            ErrorCatalogueEntry(http: 404, example: .noKiosk(tree: "lobby")) {
                "no appstate-kiosk shows the tree \($0["tree"]) (is it running, and reporting to this appstated?)"
            }
        case .invalidValue:
            ErrorCatalogueEntry(http: 422, example: .invalidValue(parameter: "height", reason: "must be from 0 to 1000000 points, not -1")) {
                "invalid \($0["parameter"]): \($0["reason"])"
            }
        }
    }
}
