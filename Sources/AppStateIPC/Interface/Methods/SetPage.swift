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

        /// Decodes the parameters.
        /// - Parameter parameters: The call's parameters.
        /// - Throws: `org.varlink.service.InvalidParameter` naming the offending parameter;
        ///   `io.appstate.InvalidValue` unless exactly one of `index`, `id` and `step` is given.
        public init(parameters: [String: JSONValue]) throws(VarlinkError) {
            let reader = try ParameterReader(parameters, declared: Parameters.memberNames)
            tree = try reader.optionalString("tree")
            path = try reader.optionalString("path")
            let index = try reader.optionalInt("index")
            let id = try reader.optionalString("id")
            let step = try reader.optionalInt("step")
            switch (index, id, step) {
            case (let index?, nil, nil): target = .index(index)
            case (nil, let id?, nil): target = .id(id)
            case (nil, nil, let step?): target = .step(step)
            case (nil, nil, nil):
                throw .invalidValue(parameter: "index", reason: "one of index, id and step is required")
            default:
                throw .invalidValue(parameter: step != nil ? "step" : "id", reason: "give only one of index, id and step")
            }
        }

        /// The parameters for encoding.
        public var parameters: [String: JSONValue] {
            var members: [String: JSONValue] = [:]
            members["tree"] = tree.map(JSONValue.string)
            members["path"] = path.map(JSONValue.string)
            switch target {
            case .index(let index): members["index"] = .number(Double(index))
            case .id(let id): members["id"] = .string(id)
            case .step(let step): members["step"] = .number(Double(step))
            }
            return members
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

        /// Decodes the reply.
        /// - Parameter parameters: The reply's parameters.
        /// - Throws: `org.varlink.service.InvalidParameter` naming the offending member.
        public init(parameters: [String: JSONValue]) throws(VarlinkError) {
            let reader = try ParameterReader(parameters, declared: Reply.memberNames)
            index = try reader.int("index")
            path = try reader.string("path")
        }

        /// The reply's parameters.
        public var parameters: [String: JSONValue] { ["index": .number(Double(index)), "path": .string(path)] }
    }
}
