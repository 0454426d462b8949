import AppStateCore
import AppStateHTTP
import AppStateIPC
import Synchronization

/// The inspector's memory and its fan-out: the last entries of the timeline (at most
/// ``capacity``, the oldest dropped first) and the browsers following it.
///
/// A browser that connects gets, in this order and before any later change: the current
/// entry (`snapshot`, so it can draw the window at once), the summaries of the whole bounded
/// history (`history`: what the timeline lists, without the drawings, which the page asks
/// for with ``entry(sequence:)`` when one is clicked), and the daemon connection's state
/// (`status`), where the tree's idle steps stand (`idle`) and the tree's front-ends
/// (`frontends`); then each change, whole, as it is published (`change`), and each new idle
/// state and list of front-ends. Publishing and subscribing take the same lock and hand their
/// messages to the viewers while holding it, so a viewer never misses a change or sees
/// one twice, whenever it connects.
///
/// Messages are Server-Sent Events: `event: NAME`, one `data:` line of JSON, a blank line.
public final class InspectorHub: Sendable {
    /// How many entries the history keeps when not told otherwise.
    public static let defaultCapacity = 1_000

    /// How many entries the history keeps.
    public let capacity: Int

    private let state: Mutex<State>

    private struct State {
        /// The entries' whole JSON texts and their summaries', oldest first; their sequence
        /// numbers follow each other.
        var history: [(whole: String, summary: String)] = []
        var firstSequence = 1
        var lastRoot: Node?
        var sequence = 0
        var status = #"{"connected":false,"message":"connecting to appstated"}"#
        var idle = #"{"inhibitors":[]}"#
        var frontEnds = #"{"frontEnds":[]}"#
        var viewers: [Int: @Sendable (String) -> Void] = [:]
        var nextViewer = 0
    }

    /// Creates an empty hub.
    /// - Parameter capacity: How many entries the history keeps; at least 1.
    public init(capacity: Int = InspectorHub.defaultCapacity) {
        self.capacity = max(1, capacity)
        state = Mutex(State())
    }

    /// Adds a `Watch` reply to the history and sends it to every viewer.
    /// - Parameters:
    ///   - event: The reply's event; `nil` for the snapshot a `Watch` starts with.
    ///   - root: The tree after the event.
    ///   - receivedAt: When the reply arrived, in milliseconds since 1970.
    public func publish(event: Event?, root: Node, receivedAt: Double) {
        state.withLock { state in
            state.sequence += 1
            let entry = InspectorEntry(
                sequence: state.sequence, event: event, root: root, previous: state.lastRoot, receivedAt: receivedAt
            )
            let text = entry.json.jsonText
            state.lastRoot = root
            state.history.append((text, JSONValue.object(entry.summaryMembers).jsonText))
            if state.history.count > capacity {
                state.firstSequence += state.history.count - capacity
                state.history.removeFirst(state.history.count - capacity)
            }
            let message = Self.message("change", text)
            for send in state.viewers.values { send(message) }
        }
    }

    /// Records whether the inspector is connected to the daemon and tells every viewer.
    /// - Parameters:
    ///   - connected: Whether a `Watch` is running.
    ///   - message: What to show, e.g. `appstated is not running: … does not exist`.
    public func publishStatus(connected: Bool, message: String) {
        state.withLock { state in
            state.status = JSONValue.object(["connected": .bool(connected), "message": .string(message)]).jsonText
            let text = Self.message("status", state.status)
            for send in state.viewers.values { send(text) }
        }
    }

    /// Records where the followed tree's idle steps stand and tells every viewer, when it
    /// changed.
    /// - Parameters:
    ///   - idle: The tree's idle state; nil when the tree has no idle steps.
    ///   - inhibitors: The inhibitors held on the tree.
    public func publishIdle(_ idle: IdleState?, inhibitors: [Inhibitor]) {
        var members: [String: JSONValue] = ["inhibitors": .array(inhibitors.map { .object($0.parameters) })]
        if let idle { members["idle"] = .object(idle.parameters) }
        let text = JSONValue.object(members).jsonText
        state.withLock { state in
            guard text != state.idle else { return }
            state.idle = text
            let message = Self.message("idle", text)
            for send in state.viewers.values { send(message) }
        }
    }

    /// Records the followed tree's front-ends and tells every viewer, when they changed.
    /// - Parameter frontEnds: The tree's front-ends, as `GetStats` lists them.
    public func publishFrontEnds(_ frontEnds: [FrontEnd]) {
        let text = JSONValue.object(["frontEnds": .array(frontEnds.map { .object($0.parameters) })]).jsonText
        state.withLock { state in
            guard text != state.frontEnds else { return }
            state.frontEnds = text
            let message = Self.message("frontends", text)
            for send in state.viewers.values { send(message) }
        }
    }

    /// Adds a viewer: sends it the current entry, the history, the status, the idle state and
    /// the front-ends, then every later message until it is removed.
    /// - Parameter send: Writes one message to the viewer; called with the hub's lock held,
    ///   so it must only queue the write.
    /// - Returns: The viewer's number, for ``unsubscribe(_:)``.
    public func subscribe(_ send: @escaping @Sendable (String) -> Void) -> Int {
        state.withLock { state in
            send(ServerSentEvent.retry(milliseconds: 1000))
            if let current = state.history.last {
                send(Self.message("snapshot", current.whole))
                send(Self.message("history", #"{"entries":["# + state.history.map(\.summary).joined(separator: ",") + "]}"))
            }
            send(Self.message("status", state.status))
            send(Self.message("idle", state.idle))
            send(Self.message("frontends", state.frontEnds))
            state.nextViewer += 1
            state.viewers[state.nextViewer] = send
            return state.nextViewer
        }
    }

    /// One entry of the history, whole.
    /// - Parameter sequence: The entry's number.
    /// - Returns: Its JSON text, or `nil` when the history does not hold it (any more).
    public func entry(sequence: Int) -> String? {
        state.withLock { state in
            let index = sequence - state.firstSequence
            return state.history.indices.contains(index) ? state.history[index].whole : nil
        }
    }

    /// Stops sending to a viewer.
    /// - Parameter viewer: The number ``subscribe(_:)`` returned.
    public func unsubscribe(_ viewer: Int) {
        state.withLock { _ = $0.viewers.removeValue(forKey: viewer) }
    }

    /// One Server-Sent Event. The JSON writer escapes line breaks inside strings, so the
    /// data fits on the one `data:` line the format needs.
    private static func message(_ name: String, _ data: String) -> String {
        ServerSentEvent(name: name, data: data).text
    }
}
