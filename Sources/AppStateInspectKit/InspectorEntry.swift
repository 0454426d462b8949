import AppStateCore
import AppStateCtlKit
import AppStateIPC
import AppStateRendering

/// One step of the inspector's timeline: a `Watch` reply with everything the page shows
/// for it, prepared once by the inspector so that every viewer, and every later look
/// back at it, costs the browser no more than inserting text.
///
/// The wireframe is drawn here by the same ``WireframeRenderer`` as `appstatectl tree
/// --svg`, so the page shows exactly that drawing, and the tree by the same
/// ``TreeRenderer``, rather than by a second implementation in JavaScript that could
/// drift from them.
public struct InspectorEntry: Sendable {
    /// The entry's number, from 1, in the order the inspector received the replies.
    public var sequence: Int
    /// What caused it: the event's name, or `Snapshot` for the first reply of a `Watch`.
    public var name: String
    /// The path of the container that changed, when the event names one.
    public var path: String?
    /// The deepest current path after the event.
    public var current: String
    /// The path of the controller presented on top of the screen after the event, if any:
    /// the last one marked `presented` on the way to ``current``.
    public var presented: String?
    /// When the reply reached the inspector, in milliseconds since 1970 (the clock the
    /// browser's `performance.timeOrigin` uses, so the page can measure how long it took
    /// to show it).
    public var receivedAt: Double
    /// The tree after the event.
    public var root: Node
    /// What the event changed, against the entry before it; empty for the first.
    public var changes: [NodeChange]

    /// Makes an entry from a `Watch` reply.
    /// - Parameters:
    ///   - sequence: The entry's number.
    ///   - event: The reply's event; `nil` for the first reply, the snapshot.
    ///   - root: The tree after the event.
    ///   - previous: The tree of the entry before, to compute what changed.
    ///   - receivedAt: When the reply arrived, in milliseconds since 1970.
    public init(sequence: Int, event: Event?, root: Node, previous: Node?, receivedAt: Double) {
        self.sequence = sequence
        name = event?.name ?? "Snapshot"
        path = event?.path
        current = root.deepestCurrentPath
        presented = Self.topPresented(in: root)
        self.receivedAt = receivedAt
        self.root = root
        changes = previous.map { NodeChange.changes(from: $0, to: root) } ?? []
    }

    /// The entry as the timeline lists it, without the drawings: `seq`, `name`, `path`,
    /// `current`, `presented` (when something is), `receivedAt` and `changes`. The page keeps
    /// only these for older entries and fetches the whole of one when it is clicked.
    public var summaryMembers: [String: JSONValue] {
        var members: [String: JSONValue] = [
            "seq": .number(Double(sequence)),
            "name": .string(name),
            "current": .string(current),
            "receivedAt": .number(receivedAt),
            "changes": .array(changes.map(\.json)),
        ]
        members["path"] = path.map(JSONValue.string)
        members["presented"] = presented.map(JSONValue.string)
        return members
    }

    /// The whole entry as the page reads it: the summary with the wireframe's SVG (`svg`) and
    /// the tree's text (`tree`) already drawn.
    public var json: JSONValue {
        var members = summaryMembers
        members["svg"] = .string(WireframeRenderer().render(root))
        members["tree"] = .string(TreeRenderer().render(root))
        return .object(members)
    }

    /// The path of the last presented controller on the chain that leads to the deepest
    /// current path, which goes through a presented child rather than the current one.
    private static func topPresented(in root: Node) -> String? {
        var node = root
        var presented: String?
        while true {
            if let child = node.children.last, child.presented == true {
                presented = child.path
                node = child
            } else if let current = node.current, let child = node.children.first(where: { $0.identifier == current }) {
                node = child
            } else {
                return presented
            }
        }
    }
}
