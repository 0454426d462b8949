/// The exit statuses of `appstatectl`, from BSD's `sysexits.h`, so that scripts can tell a
/// refused request from a missing daemon or a slow one. A wrong command line exits 64
/// (`EX_USAGE`), which argument-parser already does for its own errors.
public enum ExitStatus {
    /// The daemon answered with an error: the request was understood and refused.
    public static let failure: Int32 = 1
    /// The command line, or the environment standing in for it, is wrong (`EX_USAGE`): for
    /// instance no socket is given and there is no default one.
    public static let usage: Int32 = 64
    /// The daemon could not be reached (`EX_UNAVAILABLE`).
    public static let unavailable: Int32 = 69
    /// A bug in `appstatectl` itself (`EX_SOFTWARE`).
    public static let software: Int32 = 70
    /// A system call failed for a reason unrelated to the daemon (`EX_OSERR`).
    public static let systemError: Int32 = 71
    /// An output file could not be written (`EX_CANTCREAT`).
    public static let cannotCreate: Int32 = 73
    /// The daemon did not answer in time; trying again may work (`EX_TEMPFAIL`).
    public static let temporaryFailure: Int32 = 75
    /// The daemon answered with something that is not the `io.appstate` protocol (`EX_PROTOCOL`).
    public static let protocolError: Int32 = 76
}
