import AppStateIPC

/// An idle inhibitor a client holds with `Inhibit`, for as long as its connection is open.
struct HeldInhibitor: Sendable {
    /// Tells it apart from the others, in the order they were taken.
    let number: Int
    /// The tree whose steps it holds back.
    let tree: String
    /// The holder's user id.
    let uid: UInt32
    /// The holder's process id.
    let pid: Int32
    /// Why, in the holder's words.
    let why: String
    /// When it was taken, on the idle timer.
    let taken: Duration
}
