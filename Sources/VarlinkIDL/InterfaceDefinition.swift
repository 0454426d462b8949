/// A Varlink interface definition (an `.varlink` file), parsed: its name, its types,
/// methods and errors in the order they are declared, each with its doc comment.
///
/// Types are kept as written (`?[]Item`, `[string]int`, `(a, b)`), with white space removed:
/// this reader serves a code generator and tests that compare the file with the Swift
/// types, not a type checker.
public struct InterfaceDefinition: Sendable, Equatable {
    /// One member of a type, error, method input or method output.
    public struct Member: Sendable, Equatable {
        /// The member's name.
        public var name: String
        /// The member's type as written, e.g. `?string`.
        public var type: String
        /// The member's doc comment, one element a line, without the `#`.
        public var doc: [String]

        /// Whether the type is optional (`?`).
        public var isOptional: Bool { type.hasPrefix("?") }

        /// Creates a member.
        /// - Parameters:
        ///   - name: The member's name.
        ///   - type: Its type as written.
        ///   - doc: Its doc comment's lines.
        public init(name: String, type: String, doc: [String] = []) {
            self.name = name
            self.type = type
            self.doc = doc
        }
    }

    /// A `type` or `error` declaration.
    public struct Declaration: Sendable, Equatable {
        /// The declared name.
        public var name: String
        /// The doc comment's lines.
        public var doc: [String]
        /// The members, in order.
        public var members: [Member]
    }

    /// A `method` declaration.
    public struct Method: Sendable, Equatable {
        /// The method's name.
        public var name: String
        /// The doc comment's lines.
        public var doc: [String]
        /// The parameters, in order.
        public var input: [Member]
        /// The reply's members, in order.
        public var output: [Member]
    }

    /// The interface's fully-qualified name, e.g. `org.varlink.service`.
    public private(set) var name = ""
    /// The interface's doc comment.
    public private(set) var doc: [String] = []
    /// The `type` declarations, in order.
    public private(set) var types: [Declaration] = []
    /// The `method` declarations, in order.
    public private(set) var methods: [Method] = []
    /// The `error` declarations, in order.
    public private(set) var errors: [Declaration] = []

    /// Parses an interface definition.
    /// - Parameter text: The definition's text.
    /// - Throws: ``InterfaceDefinitionError`` naming what is malformed.
    public init(parsing text: String) throws(InterfaceDefinitionError) {
        var tokens = Tokens(text)
        while let keyword = tokens.next() {
            switch keyword.text {
            case "interface":
                name = try tokens.word("an interface name")
                doc = keyword.doc
            case "type":
                types.append(Declaration(name: try tokens.word("a type name"), doc: keyword.doc, members: try tokens.members()))
            case "error":
                errors.append(Declaration(name: try tokens.word("an error name"), doc: keyword.doc, members: try tokens.members()))
            case "method":
                let methodName = try tokens.word("a method name")
                let input = try tokens.members()
                try tokens.expect("->")
                methods.append(Method(name: methodName, doc: keyword.doc, input: input, output: try tokens.members()))
            default:
                throw InterfaceDefinitionError("unexpected \"\(keyword.text)\" at the top level")
            }
        }
        guard !name.isEmpty else { throw InterfaceDefinitionError("no interface declaration") }
    }

    /// The method with a name, if declared.
    /// - Parameter name: The method's short name, e.g. `GetInfo`.
    public func method(named name: String) -> Method? { methods.first { $0.name == name } }

    /// The type with a name, if declared.
    /// - Parameter name: The type's name, e.g. `Item`.
    public func type(named name: String) -> Declaration? { types.first { $0.name == name } }

    /// The members of an anonymous struct type as written, such as `(first: int, second: string)`.
    /// - Parameter type: A member's type without its prefixes (`?`, `[]`, `[string]`).
    /// - Returns: The members; nil when the type is not an anonymous struct (an enumeration
    ///   `(one, two)` included).
    public static func structMembers(of type: String) -> [Member]? {
        guard type.hasPrefix("("), type.contains(":") else { return nil }
        var tokens = Tokens(type)
        return try? tokens.members()
    }

    /// The error with a name, if declared.
    /// - Parameter name: The error's short name, e.g. `MethodNotFound`.
    public func error(named name: String) -> Declaration? { errors.first { $0.name == name } }
}
