import AppStateCtlKit
import AppStateIPC

extension ConnectionOptions {
    /// Logs out, locks or unlocks: prints the path of the screen shown, and says on standard
    /// error when nothing changed (which is still a success, as for `systemctl stop` of a
    /// stopped unit).
    /// - Parameters:
    ///   - method: `Logout`, `Lock` or `Unlock`.
    ///   - unchanged: What to say when nothing changed.
    /// - Throws: `ExitCode` after reporting a failure.
    func changeSession<Method: VarlinkMethod>(_ method: Method.Type, unchanged: String) throws
    where Method.Parameters == TreeParameters, Method.Reply == Logout.Reply {
        let reply = try withClient { try $0.call(Method.self, TreeParameters(tree: tree)) }
        if !reply.changed, !json { Console.error(unchanged) }
        emit(reply, human: reply.path)
    }
}
