import AppStateCore

/// `io.appstate.SetPage(path: ?string, index: ?int, id: ?string, step: ?int) -> (index: int, path: string)`:
/// shows another page of a paginated container.
public enum SetPage: VarlinkMethod {
    /// `io.appstate.SetPage`.
    public static let name = AppStateMethod.setPage.rawValue

    /// Which page to show; the wire carries exactly one of `index`, `id` and `step`.
    public enum Target: Hashable, Sendable {
        /// The page at this index, from 0.
        case index(Int)
        /// The page with this identifier.
        case id(String)
        /// The page this many places away: 1 for the next, -1 for the previous.
        case step(Int)
    }

    /// The parameters.
    public struct Parameters: VarlinkObject {
        /// The members the method declares.
        public static let memberNames = ["tree", "path", "index", "id", "step"]

        /// The tree to change; the first tree when `nil`.
        public var tree: String?
        /// The paginated container; the first one in the tree when `nil`.
        public var path: String?
        /// Which page to show.
        public var target: Target

        /// Creates the parameters.
        /// - Parameters:
        ///   - tree: The tree to change; the first tree when `nil`.
        ///   - path: The paginated container; the first one in the tree when `nil`.
        ///   - target: Which page to show.
        public init(tree: String? = nil, path: String? = nil, target: Target) {
            self.tree = tree
            self.path = path
            self.target = target
        }

        private enum CodingKeys: String, CodingKey {
            case tree, path, index, id, step
        }

        /// Decodes the parameters.
        /// - Parameter decoder: The call's parameters.
        /// - Throws: `org.varlink.service.InvalidParameter` naming the offending member;
        ///   `io.appstate.InvalidValue` unless exactly one of `index`, `id` and `step` is given.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            tree = try container.decodeIfPresent(String.self, forKey: .tree)
            path = try container.decodeIfPresent(String.self, forKey: .path)
            let index = try container.decodeIfPresent(Int.self, forKey: .index)
            let id = try container.decodeIfPresent(String.self, forKey: .id)
            let step = try container.decodeIfPresent(Int.self, forKey: .step)
            switch (index, id, step) {
            case (let index?, nil, nil): target = .index(index)
            case (nil, let id?, nil): target = .id(id)
            case (nil, nil, let step?): target = .step(step)
            case (nil, nil, nil):
                throw VarlinkError.invalidValue(parameter: "index", reason: "one of index, id and step is required")
            default:
                throw VarlinkError.invalidValue(parameter: step != nil ? "step" : "id", reason: "give only one of index, id and step")
            }
        }

        /// Encodes the parameters, with the one member that names the target.
        /// - Parameter encoder: Where the members go.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(tree, forKey: .tree)
            try container.encodeIfPresent(path, forKey: .path)
            switch target {
            case .index(let index): try container.encode(index, forKey: .index)
            case .id(let id): try container.encode(id, forKey: .id)
            case .step(let step): try container.encode(step, forKey: .step)
            }
        }
    }

    /// The reply.
    public struct Reply: VarlinkObject {
        /// The members of the reply.
        public static let memberNames = ["index", "path"]

        /// The index of the page shown.
        public var index: Int
        /// The full path of the page shown.
        public var path: String

        /// Creates the reply.
        /// - Parameters:
        ///   - index: The index of the page shown.
        ///   - path: The full path of the page shown.
        public init(index: Int, path: String) {
            self.index = index
            self.path = path
        }
    }
}
