/// What a call of a method does, which decides who may make it, where it is answered and
/// whether its reply waits for a write.
package enum MethodEffect: Sendable {
    /// Reads what the host publishes after every change (the trees): answerable on any
    /// thread from the latest publication.
    case readsPublished
    /// Reads the host's own state (statistics), on the main actor where it lives.
    case readsLive
    /// Streams replies: the connection carries only them from then on.
    case streams
    /// Records that someone used a tree: it changes no state and writes nothing, so that it is
    /// answerable on any thread while no idle step has fired, and open to every peer that may
    /// connect, as reads are.
    case reportsActivity
    /// Holds an idle inhibitor for as long as the connection stays open, which then carries
    /// nothing else. It holds back what the daemon would do (lock, log out), so it needs the
    /// caller to be allowed to mutate.
    case holds
    /// Changes restorable state (who is logged in, pages, menus, stacks): the reply waits
    /// until the change is on disk.
    case changesDurably
    /// Changes transient state (the keyboard, the window size), which is not saved.
    case changesTransiently
    /// Asks a system service to change what it shows (the on-screen keyboard to slide in or
    /// out): it changes no tree and writes nothing, yet it changes the screen, so it needs the
    /// caller to be allowed to mutate. Its reply waits for the service's answer, and the
    /// service's own report of the change reaches the trees through its follower.
    case asksSystem
    /// Tells the daemon how a front-end that shows a tree is doing: it changes no tree, writes
    /// nothing and is no activity, but what it says is trusted (`GetKiosk` hands out the
    /// socket it names, and the metrics count its recoveries), so it needs the caller to be
    /// allowed to mutate.
    case reportsFrontEnd

    /// Whether it changes what the daemon shows or trusts, and so needs the caller to be
    /// allowed to mutate.
    package var isMutation: Bool {
        switch self {
        case .readsPublished, .readsLive, .streams, .reportsActivity: false
        case .changesDurably, .changesTransiently, .holds, .asksSystem, .reportsFrontEnd: true
        }
    }

    /// Whether it changes a tree, so that a client's call is someone using the tree.
    var changesTrees: Bool {
        self == .changesDurably || self == .changesTransiently
    }
}
