import VarlinkIDL

/// Writes an interface's Swift declarations. With a prefix (the module that speaks the
/// interface): the enums of its method and error names, and per method a `VarlinkMethod` with
/// its `Parameters` and `Reply`. For every type placed with `--type`: its struct, or the
/// struct of its members (see ``TypePlacement``). Every struct generated gets its JSON encoding
/// (`JSONObjectEncodable`): one walk of its members, in ascending order of their keys, that
/// writes JSON text and JSON values alike.
///
/// Members shaped like one of the library's shared types (``sharedShapes``) use that type,
/// so that code can handle every method of one shape alike; a member list
/// repeated by a later method reuses the first one's struct. Methods named as hand-written
/// get only their name's case: their Swift type says more than the members do.
struct SwiftEmitter {
    let interface: InterfaceDefinition
    /// The Swift names' prefix of the interface's methods and errors; nil for a module that
    /// only declares some of its types.
    let prefix: String?
    let handWritten: Set<String>
    let placements: [TypePlacement]
    let imports: [String]
    /// Whether the enumerations the members hold are declared here, nested in the struct of
    /// their member, rather than by hand.
    let generatesEnums: Bool
    private let types: [String: SwiftTypeName]
    private var output = ""
    private var generated: [String: String] = [:]

    /// Types written by hand for a list of members (`--shape`), which every object of the
    /// same members then uses.
    let sharedShapes: [SharedShape]
    init(
        interface: InterfaceDefinition, prefix: String?, handWritten: Set<String>, placements: [TypePlacement], imports: [String],
        sharedShapes: [SharedShape] = [], generatesEnums: Bool = false
    ) {
        self.sharedShapes = sharedShapes
        self.generatesEnums = generatesEnums
        self.interface = interface
        self.prefix = prefix
        self.handWritten = handWritten
        self.placements = placements
        self.imports = imports
        types = Dictionary(
            placements.map { placement in
                let members = interface.type(named: placement.name)?.members ?? []
                return (
                    placement.name,
                    SwiftTypeName(swiftName: placement.swiftName, hasZero: !members.isEmpty && members.allSatisfy { $0.type == "float" })
                )
            }, uniquingKeysWith: { first, _ in first })
    }

    mutating func emit() throws(InterfaceDefinitionError) -> String {
        line("// Generated from \(interface.name).varlink by VarlinkSwiftGenerator (the package's build plugin).")
        line("// Edit the interface file, not this one.")
        for module in imports { line("import \(module)") }
        for placement in placements where interface.type(named: placement.name) == nil {
            throw InterfaceDefinitionError("--type \(placement.name): the interface declares no such type")
        }
        if let prefix {
            // The module that speaks the interface says where each of its types is declared.
            for type in interface.types where types[type.name] == nil {
                throw InterfaceDefinitionError("type \(type.name): place it with --type (declared here, or imported)")
            }
            line("")
            emitMethodNames(prefix)
            emitErrorNames(prefix)
        }
        for placement in placements {
            guard let type = interface.type(named: placement.name) else { continue }
            try emit(type, as: placement)
        }
        if let prefix {
            for method in interface.methods where !handWritten.contains(method.name) {
                try emit(method, prefix: prefix)
            }
        }
        return output
    }

    private mutating func emitMethodNames(_ prefix: String) {
        line("/// The methods of the `\(interface.name)` interface, by fully-qualified name, for dispatching")
        line("/// a ``VarlinkCall`` on its `method`.")
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

    private mutating func emitErrorNames(_ prefix: String) {
        line("/// The errors the `\(interface.name)` interface declares, by fully-qualified name.")
        line("public enum \(prefix)ErrorName: String, VarlinkQualifiedName, CaseIterable, Sendable {")
        for error in interface.errors {
            let members = error.members.map { "`\($0.name)`" }.joined(separator: ", ")
            line("    /// \(error.doc.joined(separator: " "))" + (members.isEmpty ? "" : " Members: \(members)."))
            line("    case \(Self.caseName(error.name)) = \"\(interface.name).\(error.name)\"")
        }
        line("}")
    }

    // MARK: Types

    private mutating func emit(_ type: InterfaceDefinition.Declaration, as placement: TypePlacement) throws(InterfaceDefinitionError) {
        let properties = try type.members.map { member throws(InterfaceDefinitionError) in try SwiftMember(member, in: .type, types: types) }
        let name = placement.swiftName
        line("")
        switch placement.role {
        case .declare:
            for text in type.doc { line("/// \(text)") }
            let conformances = prefix == nil ? "Hashable, Codable, Sendable" : "VarlinkObject"
            let article = "AEIOU".contains(name.prefix(1)) ? "an" : "a"
            try emitStruct(
                name, conformances: conformances, properties: properties, role: "\(article) `\(name)`", indent: "",
                memberNames: prefix == nil ? nil : "The members of `\(interface.name).\(type.name)`.")
        case .members, .box:
            line("extension \(name) {")
            line("    /// The members of `\(interface.name).\(type.name)`, as the interface declares them.")
            let isBoxed = placement.role == .box
            let access = isBoxed ? "@usableFromInline " : ""
            line("    \(access)struct Members: Hashable, Decodable, Sendable {")
            for property in properties {
                for text in property.member.doc { line("        /// \(text)") }
                line("        \(access)var \(property.name): \(property.type)")
            }
            line("    }")
            if isBoxed { emitBoxAccessors(of: name, properties: properties, recursiveType: type.name) }
            line("}")
            line("")
            line("extension \(name): JSONObjectEncodable {")
            line("    /// Decodes the members, as the interface declares them.")
            line("    /// - Parameter decoder: The members as the wire carries them.")
            line("    /// - Throws: `DecodingError` when a required member is missing or a member has the wrong type.")
            line("    public init(from decoder: any Decoder) throws {")
            line("        self.init(members: try Members(from: decoder))")
            line("    }")
            emitEncoding(properties, receiver: isBoxed ? "" : "members.", indent: "    ")
            line("}")
        case .imported:
            break
        }
        if prefix != nil, placement.role != .declare {
            line("")
            line("extension \(name): VarlinkObject {")
            line("    /// The members of `\(interface.name).\(type.name)`.")
            line("    public static let memberNames = [\(type.members.map { "\"\($0.name)\"" }.joined(separator: ", "))]")
            line("}")
        }
    }

    /// The accessors of a boxed type's members, its memberwise initialiser, and the comparison
    /// of its own members (all but the lists of its own type: its children, in a recursive type).
    private mutating func emitBoxAccessors(of name: String, properties: [SwiftMember], recursiveType: String) {
        for property in properties {
            line("")
            for text in property.member.doc { line("    /// \(text)") }
            line("    @inlinable public var \(property.name): \(property.type) {")
            line("        get { storage.members.\(property.name) }")
            line("        set { uniqueStorage().members.\(property.name) = newValue }")
            line("    }")
        }
        line("")
        emitInitialiserDoc(properties, role: "a `\(name)` from its members", indent: "    ")
        line("    public init(\(properties.map(\.parameter).joined(separator: ", "))) {")
        line("        self.init(members: Members(\(properties.map { "\($0.name): \($0.name)" }.joined(separator: ", "))))")
        line("    }")
        let own = properties.filter { $0.member.type != "[]\(recursiveType)" }
        line("")
        line("    /// Whether every member but the children is equal. Compared member by member, not as")
        line("    /// copies with their children emptied, which would copy each one compared.")
        line("    /// - Parameter other: Another value.")
        line("    /// - Returns: True when the two differ in their children at most.")
        line("    public func hasSameOwnMembers(as other: \(name)) -> Bool {")
        line("        isIdentical(to: other)")
        for (position, property) in own.enumerated() {
            line("            \(position == 0 ? "||" : "&&") \(property.name) == other.\(property.name)")
        }
        line("    }")
    }

    // MARK: Methods

    private mutating func emit(_ method: InterfaceDefinition.Method, prefix: String) throws(InterfaceDefinitionError) {
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
        if let shared = sharedShapes.first(where: { $0.members == shape })?.type ?? generated[shape] {
            line("    /// The \(role), shaped as ``\(shared.replacing(".", with: "/"))``.")
            line("    public typealias \(name) = \(shared)")
            return
        }
        generated[shape] = "\(method.name).\(name)"
        let properties = try members.map { member throws(InterfaceDefinitionError) in try SwiftMember(member, in: .method, types: types) }
        line("    /// The \(role).")
        try emitStruct(name, conformances: "VarlinkObject", properties: properties, role: "the \(role)", indent: "    ", memberNames: membersAre)
    }

    // MARK: Structs

    private mutating func emitStruct(
        _ name: String, conformances: String, properties: [SwiftMember], role: String, indent: String, memberNames: String?
    ) throws(InterfaceDefinitionError) {
        line("\(indent)public struct \(name): \(conformances), JSONObjectEncodable {")
        if let memberNames {
            line("\(indent)    /// \(memberNames)")
            line("\(indent)    public static let memberNames: [String] = [\(properties.map { "\"\($0.member.name)\"" }.joined(separator: ", "))]")
        }
        for (position, property) in properties.enumerated() {
            if memberNames != nil || position > 0 { line("") }
            for text in property.member.doc { line("\(indent)    /// \(text)") }
            line("\(indent)    public var \(property.name): \(property.type)")
        }
        line("")
        emitInitialiserDoc(properties, role: role, indent: indent + "    ")
        line("\(indent)    public init(\(properties.map(\.parameter).joined(separator: ", "))) {")
        for property in properties { line("\(indent)        self.\(property.name) = \(property.name)") }
        line("\(indent)    }")
        if !properties.allSatisfy(\.isPlain) { emitDecoding(properties, indent: indent + "    ") }
        emitEncoding(properties, receiver: "", indent: indent + "    ")
        try emitNestedTypes(of: properties, conformances: conformances, indent: indent + "    ", hasMemberNames: memberNames != nil)
        line("\(indent)}")
    }

    /// The anonymous structs the members hold, and their enumerations when ``generatesEnums``,
    /// each named after its member.
    private mutating func emitNestedTypes(
        of properties: [SwiftMember], conformances: String, indent: String, hasMemberNames: Bool
    ) throws(InterfaceDefinitionError) {
        for property in properties {
            if let nested = property.anonymousStruct {
                let members = try nested.members.map { member throws(InterfaceDefinitionError) in try SwiftMember(member, in: .type, types: types) }
                line("")
                line("\(indent)/// The anonymous struct of `\(property.member.name)`.")
                try emitStruct(
                    nested.name, conformances: conformances, properties: members, role: "the `\(property.member.name)` struct", indent: indent,
                    memberNames: hasMemberNames ? "The members of the anonymous struct." : nil)
            }
            if generatesEnums, let enumeration = property.enumeration {
                line("")
                line("\(indent)/// The values of `\(property.member.name)`.")
                line("\(indent)public enum \(enumeration.name): String, Codable, Hashable, Sendable, CaseIterable {")
                for value in enumeration.cases {
                    line("\(indent)    /// `\(value)`.")
                    line("\(indent)    case `\(value)`")
                }
                line("\(indent)}")
            }
        }
    }

    private mutating func emitInitialiserDoc(_ properties: [SwiftMember], role: String, indent: String) {
        line("\(indent)/// Creates \(role).")
        if properties.count == 1, let only = properties.first {
            line("\(indent)/// - Parameter \(only.name): \(only.member.doc.joined(separator: " "))")
        } else if !properties.isEmpty {
            line("\(indent)/// - Parameters:")
            for property in properties { line("\(indent)///   - \(property.name): \(property.member.doc.joined(separator: " "))") }
        }
    }

    /// `Decodable` by hand, for members whose property is renamed or whose absence means false.
    private mutating func emitDecoding(_ properties: [SwiftMember], indent: String) {
        let keys = properties.map { $0.name == $0.member.name ? $0.name : "\($0.name) = \"\($0.member.name)\"" }
        let flags = properties.filter(\.isFlag).map { "`\($0.member.name)`" }.joined(separator: ", ")
        line("")
        line("\(indent)private enum CodingKeys: String, CodingKey {")
        line("\(indent)    case \(keys.joined(separator: ", "))")
        line("\(indent)}")
        line("")
        line("\(indent)/// Decodes the members\(flags.isEmpty ? "" : "; an absent \(flags) is false").")
        line("\(indent)/// - Parameter decoder: The members as the wire carries them.")
        line("\(indent)/// - Throws: `org.varlink.service.InvalidParameter` naming the offending member.")
        line("\(indent)public init(from decoder: any Decoder) throws {")
        line("\(indent)    let container = try decoder.container(keyedBy: CodingKeys.self)")
        for property in properties {
            let read = property.member.isOptional ? "decodeIfPresent" : "decode"
            let fallback = property.isFlag ? " ?? false" : ""
            line("\(indent)    \(property.name) = try container.\(read)(\(property.decodedType).self, forKey: .\(property.name))\(fallback)")
        }
        line("\(indent)}")
    }

    /// The one encoding of a struct's members: `writeMembers(into:)` gives them, in ascending
    /// order of their keys, to a JSON member sink; the JSON text, the JSON values and
    /// `Encodable` are that walk with one sink or the other.
    private mutating func emitEncoding(_ properties: [SwiftMember], receiver: String, indent: String) {
        line("")
        line("\(indent)/// Appends the JSON text of the members, in ascending order of their keys.")
        line("\(indent)/// - Parameter buffer: The buffer to append to.")
        line("\(indent)public func writeJSON(into buffer: inout [UInt8]) {")
        line("\(indent)    var sink = JSONTextSink(opening: &buffer)")
        line("\(indent)    writeMembers(into: &sink)")
        line("\(indent)    sink.close(into: &buffer)")
        line("\(indent)}")
        line("")
        line("\(indent)/// The members as JSON values; an optional member that is nil is left out.")
        line("\(indent)public var jsonMembers: [String: JSONValue] {")
        line("\(indent)    var sink = JSONValueSink(capacity: \(properties.count))")
        line("\(indent)    writeMembers(into: &sink)")
        line("\(indent)    return sink.members")
        line("\(indent)}")
        line("")
        line("\(indent)/// Encodes the members, as ``jsonMembers`` gives them.")
        line("\(indent)/// - Parameter encoder: Where the members go.")
        line("\(indent)/// - Throws: What the encoder throws.")
        line("\(indent)public func encode(to encoder: any Encoder) throws {")
        line("\(indent)    try JSONValue.object(jsonMembers).encode(to: encoder)")
        line("\(indent)}")
        line("")
        line("\(indent)private func writeMembers(into sink: inout some JSONMemberSink) {")
        if !receiver.isEmpty, !properties.isEmpty {
            line("\(indent)    let \(receiver.dropLast()) = self.\(receiver.dropLast())")
        }
        for property in properties.sorted(by: { $0.member.name < $1.member.name }) {
            line("\(indent)    \(property.sinkStatement(receiver: receiver))")
        }
        line("\(indent)}")
    }

    private mutating func line(_ text: String) {
        output += text
        output += "\n"
    }

    /// `GetInfo` → `getInfo`.
    private static func caseName(_ name: String) -> String {
        name.prefix(1).lowercased() + name.dropFirst()
    }
}
