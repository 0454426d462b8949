import VarlinkIDL

/// Writes an interface's Swift declarations: the enums of its method and error names, and
/// per method a `VarlinkMethod` with its `Parameters` and `Reply`.
///
/// Members shaped like one of the library's shared types (``sharedShapes``) use that type,
/// so that code can handle, say, every method that takes only a tree alike; a member list
/// repeated by a later method reuses the first one's struct. Methods named as hand-written
/// get only their name's case: their Swift type says more than the members do.
struct SwiftEmitter {
    let interface: InterfaceDefinition
    let prefix: String
    let handWritten: Set<String>
    private var output = ""
    private var generated: [String: String] = [:]

    /// The library's hand-written member lists, by the type that declares them.
    private static let sharedShapes: [(type: String, members: String)] = [
        ("EmptyParameters", ""),
        ("TreeParameters", "tree:?string"),
        ("PathParameters", "tree:?string,path:?string"),
        ("ChildParameters", "tree:?string,path:?string,id:string"),
        ("PathReply", "path:string"),
    ]

    init(interface: InterfaceDefinition, prefix: String, handWritten: Set<String>) {
        self.interface = interface
        self.prefix = prefix
        self.handWritten = handWritten
    }

    mutating func emit() throws(InterfaceDefinitionError) -> String {
        line("// Generated from \(interface.name).varlink by VarlinkSwiftGenerator (the package's build plugin).")
        line("// Edit the interface file, not this one.")
        line("import AppStateCore")
        line("")
        emitMethodNames()
        emitErrorNames()
        for method in interface.methods where !handWritten.contains(method.name) {
            try emit(method)
        }
        return output
    }

    private mutating func emitMethodNames() {
        line("/// The methods of the `\(interface.name)` interface, by fully-qualified name, for dispatching")
        line("/// a ``VarlinkCall`` on its ``VarlinkCall/method``.")
        line("public enum \(prefix)Method: String, VarlinkQualifiedName, CaseIterable, Sendable {")
        for method in interface.methods {
            line("    /// ``\(method.name)``.")
            line("    case \(Self.caseName(method.name)) = \"\(interface.name).\(method.name)\"")
        }
        line("")
        line("    /// The type that describes the method's parameters and reply.")
        line("    public var declaration: any VarlinkMethod.Type {")
        line("        switch self {")
        for method in interface.methods {
            line("        case .\(Self.caseName(method.name)): \(method.name).self")
        }
        line("        }")
        line("    }")
        line("}")
        line("")
    }

    private mutating func emitErrorNames() {
        line("/// The errors the `\(interface.name)` interface declares, by fully-qualified name.")
        line("public enum \(prefix)ErrorName: String, VarlinkQualifiedName, CaseIterable, Sendable {")
        for error in interface.errors {
            let members = error.members.map { "`\($0.name)`" }.joined(separator: ", ")
            line("    /// \(error.doc.joined(separator: " "))" + (members.isEmpty ? "" : " Members: \(members)."))
            line("    case \(Self.caseName(error.name)) = \"\(interface.name).\(error.name)\"")
        }
        line("}")
    }

    private mutating func emit(_ method: InterfaceDefinition.Method) throws(InterfaceDefinitionError) {
        line("")
        for text in method.doc { line("/// \(text)") }
        line("public enum \(method.name): VarlinkMethod {")
        line("    /// `\(interface.name).\(method.name)`.")
        line("    public static let name = \(prefix)Method.\(Self.caseName(method.name)).rawValue")
        line("")
        try emitObject("Parameters", of: method, members: method.input, role: "parameters", membersAre: "The members the method declares.")
        line("")
        try emitObject("Reply", of: method, members: method.output, role: "reply", membersAre: "The members of the reply.")
        line("}")
    }

    private mutating func emitObject(
        _ name: String, of method: InterfaceDefinition.Method, members: [InterfaceDefinition.Member], role: String, membersAre: String
    ) throws(InterfaceDefinitionError) {
        let shape = members.map { "\($0.name):\($0.type)" }.joined(separator: ",")
        if let shared = Self.sharedShapes.first(where: { $0.members == shape })?.type ?? generated[shape] {
            line("    /// The \(role), shaped as ``\(shared.replacing(".", with: "/"))``.")
            line("    public typealias \(name) = \(shared)")
            return
        }
        generated[shape] = "\(method.name).\(name)"
        let properties = try members.map { member throws(InterfaceDefinitionError) in try SwiftMember(member) }
        line("    /// The \(role).")
        line("    public struct \(name): VarlinkObject {")
        line("        /// \(membersAre)")
        line("        public static let memberNames = [\(members.map { "\"\($0.name)\"" }.joined(separator: ", "))]")
        for property in properties {
            line("")
            for text in property.member.doc { line("        /// \(text)") }
            line("        public var \(property.name): \(property.type)")
        }
        line("")
        line("        /// Creates the \(role).")
        if properties.count == 1, let only = properties.first {
            line("        /// - Parameter \(only.name): \(only.member.doc.joined(separator: " "))")
        } else {
            line("        /// - Parameters:")
            for property in properties { line("        ///   - \(property.name): \(property.member.doc.joined(separator: " "))") }
        }
        line("        public init(\(properties.map(\.parameter).joined(separator: ", "))) {")
        for property in properties { line("            self.\(property.name) = \(property.name)") }
        line("        }")
        if !properties.allSatisfy(\.isPlain) { emitCodable(properties) }
        line("    }")
    }

    /// `Codable` by hand, for members whose property is renamed or whose absence means false.
    private mutating func emitCodable(_ properties: [SwiftMember]) {
        let keys = properties.map { $0.name == $0.member.name ? $0.name : "\($0.name) = \"\($0.member.name)\"" }
        let flags = properties.filter(\.isFlag).map { "`\($0.member.name)`" }.joined(separator: ", ")
        line("")
        line("        private enum CodingKeys: String, CodingKey {")
        line("            case \(keys.joined(separator: ", "))")
        line("        }")
        line("")
        line("        /// Decodes the members\(flags.isEmpty ? "" : "; an absent \(flags) is false").")
        line("        /// - Parameter decoder: The members as the wire carries them.")
        line("        /// - Throws: `org.varlink.service.InvalidParameter` naming the offending member.")
        line("        public init(from decoder: any Decoder) throws {")
        line("            let container = try decoder.container(keyedBy: CodingKeys.self)")
        for property in properties {
            let read = property.member.isOptional ? "decodeIfPresent" : "decode"
            let fallback = property.isFlag ? " ?? false" : ""
            line("            \(property.name) = try container.\(read)(\(property.decodedType).self, forKey: .\(property.name))\(fallback)")
        }
        line("        }")
        line("")
        line("        /// Encodes the members\(flags.isEmpty ? "" : "; \(flags) only when true").")
        line("        /// - Parameter encoder: Where the members go.")
        line("        public func encode(to encoder: any Encoder) throws {")
        line("            var container = encoder.container(keyedBy: CodingKeys.self)")
        for property in properties {
            if property.isFlag {
                line("            if \(property.name) { try container.encode(true, forKey: .\(property.name)) }")
            } else {
                let write = property.member.isOptional ? "encodeIfPresent" : "encode"
                line("            try container.\(write)(\(property.name), forKey: .\(property.name))")
            }
        }
        line("        }")
    }

    private mutating func line(_ text: String) {
        output += text
        output += "\n"
    }

    /// `GetTree` → `getTree`.
    private static func caseName(_ name: String) -> String {
        name.prefix(1).lowercased() + name.dropFirst()
    }
}
