import AppStateCore

/// One named tree of a tree file: the window it is shown in, its root controller, and the
/// controllers its root may present.
///
/// ```yaml
/// name: kiosk                          # unique in the file; a-z, 0-9 and -
/// window: { width: 1080, height: 1920 } # optional; 1280×800 when left out
/// offline: file:///srv/kiosk/offline.html # optional; the page a kiosk shows while a screen's fails
/// root: { type: Controller, id: main }
/// logindSeat: seat0                     # optional; the session follows this logind seat
/// output: HDMI-A-1                      # optional; the window follows this Wayland output's size
/// presentations:                        # optional; what the root's presentation context presents
///   - { type: Controller, id: attract }
/// idle: [{ after: 300, logout: true }]  # optional; what happens when nobody touches it
/// ```
public struct TreeSpec: Hashable, Sendable {
    /// The window size a tree gets when its file gives none.
    public static let defaultWindowSize = Size(width: 1280, height: 800)

    /// The tree's name, by which clients choose it: lowercase letters, digits and `-`.
    public var name: String
    /// The size of the tree's window.
    public var window: Size
    /// The page a kiosk browser shows while a screen's own page cannot be loaded: an `http:`,
    /// `https:` or `file:` URL, checked as a node's `url` is (``NodeSpec/urlProblem(_:key:)``);
    /// nil for the kiosk's built-in one. Snapshots carry it as the root's `offline`.
    public var offline: String?
    /// The root controller.
    public var root: NodeSpec
    /// The systemd-logind seat whose active session the tree's login-state container follows
    /// (as `appstated --follow-logind --seat` does for every tree), e.g. `seat0`; nil when
    /// the command line decides. The tree must have a login-state container.
    public var logindSeat: String?
    /// The Wayland output whose logical size the tree's window follows (as
    /// `appstated --follow-output NAME` does for every tree), e.g. `HDMI-A-1`; nil when the
    /// command line decides.
    public var output: String?
    /// The controllers the root's presentation context may present, by identifier
    /// (`Controller.present(identifier:style:animated:completion:)`), each built afresh for
    /// each presentation, with the schema of any node. A presented controller's path is the
    /// root's followed by its identifier; it takes part in restoration unless its
    /// `restorationId` is null.
    public var presentations: [NodeSpec] = []
    /// What happens after a time without activity, in the order the steps fire; empty for
    /// nothing.
    public var idle: [IdleStep]

    /// Creates a tree.
    /// - Parameters:
    ///   - name: The name: lowercase letters, digits and `-`, unique in its file.
    ///   - window: The size of the window.
    ///   - root: The root controller.
    ///   - logindSeat: The logind seat the session follows, if the tree says.
    ///   - output: The Wayland output the window follows, if the tree says.
    ///   - offline: The page a kiosk shows while a screen's cannot be loaded, if the tree says.
    ///   - presentations: The controllers the root may present.
    ///   - idle: The idle steps, in the order they fire.
    public init(
        name: String, window: Size = TreeSpec.defaultWindowSize, root: NodeSpec, logindSeat: String? = nil, output: String? = nil,
        offline: String? = nil, presentations: [NodeSpec] = [], idle: [IdleStep] = []
    ) {
        self.name = name
        self.window = window
        self.root = root
        self.logindSeat = logindSeat
        self.output = output
        self.offline = offline
        self.presentations = presentations
        self.idle = idle
    }
}

extension TreeSpec {
    /// What is wrong with a logind seat name, by logind's rule for them: `seat` followed by
    /// ASCII letters, digits, `-` and `_`, at most 255 bytes (`seat0`, `seat-usb1`).
    /// - Parameter seat: The name, from a tree file's `logindSeat` or `appstated --seat`.
    /// - Returns: A sentence naming the problem, or nil for a valid name.
    public static func seatNameProblem(_ seat: String) -> String? {
        let rest = seat.unicodeScalars.dropFirst(4)
        let valid =
            seat.hasPrefix("seat") && seat.utf8.count <= 255
            && rest.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
        return valid ? nil : "logind seat \"\(seat)\" must be \"seat\" followed by letters, digits, \"-\" and \"_\" (e.g. seat0)"
    }
}

extension TreeSpec {
    /// What is wrong with a Wayland output's name, from a tree file's `output` or
    /// `appstated --follow-output`: compositors name outputs with printable characters
    /// (`HDMI-A-1`, `eDP-1`, `HEADLESS-1`), never empty or longer than 255 bytes.
    /// - Parameter output: The name.
    /// - Returns: A sentence naming the problem, or nil for a valid name.
    public static func outputNameProblem(_ output: String) -> String? {
        let valid = !output.isEmpty && output.utf8.count <= 255 && output.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F }
        return valid ? nil : "output \"\(output)\" must be a compositor's output name: 1 to 255 printable characters without spaces (e.g. HDMI-A-1)"
    }
}

extension TreeSpec: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, window, offline, root, logindSeat, output
        case presentations, idle
    }

    enum WindowKeys: String, CodingKey, CaseIterable {
        case width, height
    }

    /// Decodes a tree, rejecting unknown keys; a missing or null `window` gives ``defaultWindowSize``.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a value of the wrong type, a missing key, or an unknown key
    ///   when the decoder collects none (see ``TreeFile/decode(using:)``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        if container.contains(.window), try !container.decodeNil(forKey: .window) {
            // Through a decoder of its own, so that the window mapping is checked for
            // unknown keys like every other mapping of the file.
            let window = try container.superDecoder(forKey: .window).strictContainer(keyedBy: WindowKeys.self)
            self.window = Size(width: try window.decode(Double.self, forKey: .width), height: try window.decode(Double.self, forKey: .height))
        } else {
            window = Self.defaultWindowSize
        }
        offline = try container.decodeIfPresent(String.self, forKey: .offline)
        root = try container.decode(NodeSpec.self, forKey: .root)
        logindSeat = try container.decodeIfPresent(String.self, forKey: .logindSeat)
        output = try container.decodeIfPresent(String.self, forKey: .output)
        presentations = try container.decodeIfPresent([NodeSpec].self, forKey: .presentations) ?? []
        idle = try container.decodeIfPresent([IdleStep].self, forKey: .idle) ?? []
    }

    /// Encodes the tree as a file would hold it.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        var window = container.nestedContainer(keyedBy: WindowKeys.self, forKey: .window)
        try window.encode(self.window.width, forKey: .width)
        try window.encode(self.window.height, forKey: .height)
        try container.encodeIfPresent(offline, forKey: .offline)
        try container.encode(root, forKey: .root)
        try container.encodeIfPresent(logindSeat, forKey: .logindSeat)
        try container.encodeIfPresent(output, forKey: .output)
        if !presentations.isEmpty { try container.encode(presentations, forKey: .presentations) }
        if !idle.isEmpty { try container.encode(idle, forKey: .idle) }
    }
}
