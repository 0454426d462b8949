import AppStateIPC
import ServicePorts

/// The trees whose window follows a compositor's output: clients' `Resize` on them answers
/// `io.appstate.WindowOwnedByOutput`; the output follower's own calls go through.
struct OutputGate: Sendable {
    /// The output each such tree follows, by tree name.
    let owners: [String: FollowedOutput]

    /// The tree a client's call would resize, and the output that owns its size; nil when the
    /// call may go ahead. A `tree` of the wrong type is left to the method's decoding to refuse.
    /// - Parameters:
    ///   - call: The call.
    ///   - trees: The trees' names, the default one first.
    func owner(of call: VarlinkCall, trees: [String]) -> (tree: String, output: FollowedOutput)? {
        guard !owners.isEmpty, call.method == Resize.name else { return nil }
        let name: String?
        switch call.parameters["tree"] {
        case .string(let tree)?: name = tree
        case .null?, nil: name = trees.first
        default: name = nil
        }
        guard let name, let output = owners[name] else { return nil }
        return (name, output)
    }
}
