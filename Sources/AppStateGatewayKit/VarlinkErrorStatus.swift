/// The HTTP status of each error the daemon may answer a call with.
///
/// The call reached the daemon and was refused, so most are the client's (4xx): a method the
/// daemon does not have is 501 (it is allowed, but this daemon does not implement it), a
/// missing node or tree 404, a bad parameter 400 or 422, a change the state does not permit
/// 409, a refusal of the gateway's own user 403. A daemon that is full is 503, one that
/// cannot save is 500, and an on-screen keyboard that failed what the daemon asked of it 502.
/// An error this table does not know is 400: the call was refused.
public enum VarlinkErrorStatus {
    private static let statuses: [String: Int] = [
        "org.varlink.service.MethodNotFound": 501,
        "org.varlink.service.MethodNotImplemented": 501,
        "org.varlink.service.InterfaceNotFound": 501,
        "org.varlink.service.InvalidParameter": 400,
        "org.varlink.service.ExpectedMore": 400,
        "org.varlink.service.PermissionDenied": 403,
        "io.appstate.NoSuchTree": 404,
        "io.appstate.NoSuchNode": 404,
        "io.appstate.NoSuchChild": 404,
        "io.appstate.NoSuchPresentation": 404,
        "io.appstate.WrongContainerType": 422,
        "io.appstate.OutOfRange": 422,
        "io.appstate.InvalidValue": 422,
        "io.appstate.InvalidTransition": 409,
        "io.appstate.AlreadyLoggedIn": 409,
        "io.appstate.AlreadyPresenting": 409,
        "io.appstate.TransitionInProgress": 409,
        "io.appstate.SessionOwnedByLogind": 409,
        "io.appstate.WindowOwnedByOutput": 409,
        "io.appstate.NoKeyboardFollowed": 409,
        "io.appstate.NoKiosk": 404,
        "io.appstate.MessageTooLarge": 413,
        "io.appstate.TooManyConnections": 503,
        "io.appstate.WatcherTooSlow": 503,
        "io.appstate.StorageFailure": 500,
        "io.appstate.KeyboardRequestFailed": 502,
    ]

    /// The status for an error.
    /// - Parameter name: The error's full name, e.g. `io.appstate.NoSuchNode`.
    public static func status(for name: String) -> Int {
        statuses[name] ?? 400
    }

    /// Whether the table gives the error a status of its own rather than the default.
    /// - Parameter name: The error's full name.
    public static func knows(_ name: String) -> Bool {
        statuses[name] != nil
    }
}
