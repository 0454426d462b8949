import AppStateIPC
import ServicePorts

/// One batch of calls on its way through a ``RequestProcessor``: what it has answered so far,
/// and the changes whose events wait for its commit.
@MainActor final class Batch {
    let calls: [VarlinkCall]
    let routes: [Route]
    /// The connection, or nil for a follower's batch, whose session is not refused as
    /// logind's and which cannot `Watch`, or for an idle step's.
    let connection: ConnectionContext?
    /// Whether an idle step makes the calls: they are no activity, and a session that logind
    /// owns is refused them as a client's calls.
    let isIdleStep: Bool
    /// Receives the replies once the batch is done.
    let reply: @MainActor ([VarlinkReply?]) -> Void
    /// Whether the caller may mutate, decided before the batch runs.
    var mayMutate = false
    /// The next call to answer.
    var next = 0
    /// A reply for every call, `oneway` ones too, so that each is counted by its outcome
    /// and a refused commit refuses them too; the connection is sent none of theirs.
    var replies: [VarlinkReply] = []
    var events: [(event: Event, durable: Bool)] = []
    /// The indices of the replies to durable mutations, which wait for the commit.
    var mutated: [Int] = []
    /// Whether a call of this batch may have changed the trees since they were published.
    var changed = false

    init(
        calls: [VarlinkCall], routes: [Route], connection: ConnectionContext?, isIdleStep: Bool = false,
        reply: @escaping @MainActor ([VarlinkReply?]) -> Void
    ) {
        self.calls = calls
        self.routes = routes
        self.connection = connection
        self.isIdleStep = isIdleStep
        self.reply = reply
    }

    /// Whether the calls come from a client rather than a follower.
    var fromClient: Bool { connection != nil }
}
