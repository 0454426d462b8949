import StateContainers

/// One tree of the daemon's tree files: the model's tree, and the daemon's policy for it, which
/// is no part of the model: the logind seat its session follows, the Wayland output its window
/// follows, and what happens when nobody uses it.
///
/// ```yaml
/// name: kiosk                           # the model's keys: name, window, root, presentations
/// root: { type: LoginStateController, id: session, children: [...] }
/// logindSeat: seat0                     # optional; the session follows this logind seat
/// output: HDMI-A-1                      # optional; the window follows this Wayland output's size
/// idle: [{ after: 300, lock: true }]    # optional; what happens when nobody touches it
/// ```
/// The daemon's keys sit in the tree's mapping beside the model's, so that a file is one format
/// to its author; they are read and checked here, the model's by ``TreeSpec``, whose members
/// read as the hosted tree's own (`tree.name`, `tree.root`).
@dynamicMemberLookup
package struct HostedTreeSpec: Hashable, Sendable {
    /// The tree the model builds.
    package var spec: TreeSpec
    /// The systemd-logind seat whose active session the tree's login-state container follows
    /// (as `appstated --follow-logind --seat` does for every tree), e.g. `seat0`; nil when
    /// the command line decides. The tree must have a login-state container.
    package var logindSeat: String?
    /// The Wayland output whose logical size the tree's window follows (as
    /// `appstated --follow-output NAME` does for every tree), e.g. `HDMI-A-1`; nil when the
    /// command line decides.
    package var output: String?
    /// What happens after a time without activity, in the order the steps fire; empty for
    /// nothing.
    package var idle: [IdleStep]

    /// Creates a tree.
    /// - Parameters:
    ///   - spec: The tree the model builds.
    ///   - logindSeat: The logind seat the session follows, if the tree says.
    ///   - output: The Wayland output the window follows, if the tree says.
    ///   - idle: The idle steps, in the order they fire.
    package init(_ spec: TreeSpec, logindSeat: String? = nil, output: String? = nil, idle: [IdleStep] = []) {
        self.spec = spec
        self.logindSeat = logindSeat
        self.output = output
        self.idle = idle
    }

    /// A member of the model's tree: its name, window, root or presentations.
    /// - Parameter keyPath: The member.
    package subscript<Value>(dynamicMember keyPath: WritableKeyPath<TreeSpec, Value>) -> Value {
        get { spec[keyPath: keyPath] }
        set { spec[keyPath: keyPath] = newValue }
    }
}

extension HostedTreeSpec: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case logindSeat, output, idle
    }

    /// Every key of a tree's mapping, the model's and the daemon's, in the order the format
    /// documents them: what the tree follows after its root, the idle steps after the
    /// presentations they may name.
    package static let keyNames = ["name", "window", "offline", "root", "logindSeat", "output", "presentations", "idle"]

    /// Decodes a tree, rejecting unknown keys.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a value of the wrong type, a missing key, or an unknown key
    ///   when the decoder collects none (see ``HostedTreeFile/decode(using:)``).
    package init(from decoder: any Decoder) throws {
        spec = try TreeSpec(from: decoder, mappingKeys: Self.keyNames)
        // The model's decoding checked the mapping's keys against all of them.
        let container = try decoder.container(keyedBy: CodingKeys.self)
        logindSeat = try container.decodeIfPresent(String.self, forKey: .logindSeat)
        output = try container.decodeIfPresent(String.self, forKey: .output)
        idle = try container.decodeIfPresent([IdleStep].self, forKey: .idle) ?? []
    }

    /// Encodes the tree as a file would hold it: the model's keys and the daemon's in one mapping.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    package func encode(to encoder: any Encoder) throws {
        try spec.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(logindSeat, forKey: .logindSeat)
        try container.encodeIfPresent(output, forKey: .output)
        if !idle.isEmpty { try container.encode(idle, forKey: .idle) }
    }
}
