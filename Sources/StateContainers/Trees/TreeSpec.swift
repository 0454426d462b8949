import AppStateCore

/// One named tree of a tree file: the window it is shown in, its root controller, and the
/// controllers its root may present.
///
/// ```yaml
/// name: kiosk                          # unique in the file; a-z, 0-9 and -
/// window: { width: 1080, height: 1920 } # optional; 1280×800 when left out
/// offline: file:///srv/kiosk/offline.html # optional; the page a kiosk shows while a screen's fails
/// root: { type: Controller, id: main }
/// presentations:                        # optional; what the root's presentation context presents
///   - { type: Controller, id: attract }
/// ```
/// The daemon's tree files give a tree keys of the daemon's own as well (see <doc:TreeFiles>),
/// which its loader reads beside these.
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
    /// The controllers the root's presentation context may present, by identifier
    /// (`Controller.present(identifier:style:animated:completion:)`), each built afresh for
    /// each presentation, with the schema of any node. A presented controller's path is the
    /// root's followed by its identifier; it takes part in restoration unless its
    /// `restorationId` is null.
    public var presentations: [NodeSpec] = []

    /// Creates a tree.
    /// - Parameters:
    ///   - name: The name: lowercase letters, digits and `-`, unique in its file.
    ///   - window: The size of the window.
    ///   - root: The root controller.
    ///   - presentations: The controllers the root may present.
    public init(name: String, window: Size = TreeSpec.defaultWindowSize, root: NodeSpec, presentations: [NodeSpec] = []) {
        self.name = name
        self.window = window
        self.root = root
        self.presentations = presentations
    }
}

extension TreeSpec: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, window, offline, root, presentations
    }

    /// The keys of a tree's mapping that the model reads, in the order the format documents them.
    package static let keyNames = CodingKeys.allCases.map(\.stringValue)

    enum WindowKeys: String, CodingKey, CaseIterable {
        case width, height
    }

    /// Decodes a tree, rejecting unknown keys; a missing or null `window` gives ``defaultWindowSize``.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for a value of the wrong type, a missing key, or an unknown key
    ///   when the decoder collects none (see ``TreeFile/decode(using:)``).
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, mappingKeys: Self.keyNames)
    }

    /// Decodes a tree from a mapping that may hold keys of its reader's as well, which the
    /// reader decodes itself: the daemon's tree files give each tree keys of the daemon's own.
    /// - Parameters:
    ///   - decoder: The decoder.
    ///   - keys: Every key the mapping may hold, ``keyNames`` among them, in the order an
    ///     unknown key's message lists them.
    /// - Throws: `DecodingError`, as ``init(from:)`` throws it, for a key not in `keys`.
    package init(from decoder: any Decoder, mappingKeys keys: [String]) throws {
        _ = try decoder.strictContainer(expecting: keys)
        let container = try decoder.container(keyedBy: CodingKeys.self)
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
        presentations = try container.decodeIfPresent([NodeSpec].self, forKey: .presentations) ?? []
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
        if !presentations.isEmpty { try container.encode(presentations, forKey: .presentations) }
    }
}
