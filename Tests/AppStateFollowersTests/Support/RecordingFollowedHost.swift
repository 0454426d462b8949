import AppStateCore
import AppStateIPC
import ServicePorts

/// Trees as a follower sees them, which take its calls as the host would: `Resize` changes a
/// window, `ShowKeyboard` and `HideKeyboard` the keyboard's frame; every batch is recorded,
/// and what each tree's idle clock is told.
@MainActor final class RecordingFollowedHost: FollowedHost {
    private(set) var trees: [FollowedTree]
    private(set) var batches: [[VarlinkCall]] = []
    /// Each tree told of logind's idleness, and whether it was idle, in order.
    private(set) var idle: [(tree: String, idle: Bool)] = []

    init(_ trees: [FollowedTree]) {
        self.trees = trees
    }

    var followedTrees: [FollowedTree] { trees }

    /// The methods of every call made so far, without their interface.
    var methods: [String] { batches.flatMap { $0.map { String($0.method.dropFirst("io.appstate.".count)) } } }

    func processFollowed(_ calls: [VarlinkCall], reply: @escaping @MainActor ([VarlinkReply?]) -> Void) {
        batches.append(calls)
        for call in calls {
            guard case .string(let name)? = call.parameters["tree"], let index = trees.firstIndex(where: { $0.name == name }) else { continue }
            let tree = trees[index]
            var size = tree.windowSize
            var frame = tree.keyboardFrame
            switch call.method {
            case Resize.name:
                size = Size(width: call.parameters["width"]?.doubleValue ?? 0, height: call.parameters["height"]?.doubleValue ?? 0)
            case ShowKeyboard.name:
                let height = call.parameters["height"]?.doubleValue ?? 0
                frame = Rect(x: 0, y: size.height - height, width: size.width, height: height)
            case HideKeyboard.name:
                frame = nil
            default:
                break
            }
            trees[index] = FollowedTree(
                name: tree.name, windowSize: size, session: tree.session, declaredSize: tree.declaredSize, keyboardFrame: frame)
        }
        reply(calls.map { _ in VarlinkReply(parameters: [:]) })
    }

    func followedIdle(tree: String, idleFor duration: Duration?) {
        idle.append((tree, duration != nil))
    }
}
