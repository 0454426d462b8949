import VarlinkIDL

/// How a member of the interface looks in Swift: its property name and type, its default,
/// and how it is encoded.
struct SwiftMember {
    /// Where a member is declared: a method's parameters and replies take `?bool` as a flag;
    /// a type's members keep it optional, as "not said" differs from false there.
    enum Context {
        case method
        case type
    }

    let member: InterfaceDefinition.Member
    /// The property's name: the member's, unless that is a Swift keyword.
    let name: String
    /// The property's type.
    let type: String
    /// An optional `bool` of a method is a plain `Bool` that is false when absent, as
    /// Varlink's own `more` and `oneway` are, and is only sent when true.
    let isFlag: Bool
    /// The initialiser parameter's default, if the type has an empty value.
    let defaultValue: String?
    /// What a JSON member sink is given for the value (see `JSONMemberSink`): the property
    /// itself, or an enumeration's raw value.
    private let encodedSuffix: String
    /// The member's type as written, without its optional.
    private let base: String
    private let types: [String: SwiftTypeName]

    /// The names Swift reserves that members use, with the property name each gets.
    private static let renamed = ["switch": "switching", "struct": "structure", "enum": "enumeration"]

    /// Reads a member.
    /// - Parameters:
    ///   - member: The member as the interface declares it.
    ///   - context: Whether it belongs to a method or to a type.
    ///   - types: The interface's struct types by name, with their Swift names.
    init(_ member: InterfaceDefinition.Member, in context: Context, types: [String: SwiftTypeName]) throws(InterfaceDefinitionError) {
        self.member = member
        name = Self.renamed[member.name] ?? member.name
        isFlag = context == .method && member.type == "?bool"
        let base = member.isOptional ? String(member.type.dropFirst()) : member.type
        let swift = try Self.swiftType(base, member: member.name, types: types)
        type = isFlag ? "Bool" : member.isOptional ? swift + "?" : swift
        encodedSuffix = Self.enumCases(base).isEmpty ? "" : ".rawValue"
        self.base = base
        self.types = types
        defaultValue =
            isFlag
            ? "false"
            : member.isOptional
                ? "nil"
                : base == "bool"
                    ? "false"
                    : base.hasPrefix("[]")
                        ? "[]"
                        : Self.enumCases(base).first.map { ".\($0)" }
                            ?? types[base].flatMap { $0.hasZero ? ".zero" : nil }
    }

    /// Whether the synthesised `Codable` conformance fits this member.
    var isPlain: Bool { name == member.name && !isFlag }

    /// The type to decode: the property's without the optional. An `object` is spelt
    /// `Dictionary<String, JSONValue>`: as `[String: JSONValue].self`, Swift reads a dictionary
    /// literal of metatypes, since `JSONValue` is expressible by one.
    var decodedType: String {
        (member.isOptional && !isFlag ? String(type.dropLast()) : type).replacing("[String: JSONValue]", with: "Dictionary<String, JSONValue>")
    }

    /// The parameter of the memberwise initialiser, with its default.
    var parameter: String {
        defaultValue.map { "\(name): \(type) = \($0)" } ?? "\(name): \(type)"
    }

    /// The Swift statement that gives the member to a `JSONMemberSink` named `sink`, reading
    /// it from `receiver` (empty for `self`): nothing for nil, and a flag only when true.
    func sinkStatement(receiver: String) -> String {
        let value = "\(receiver)\(name)"
        let key = "\"\(member.name)\""
        if isFlag { return "if \(value) { sink.member(\(key), true) }" }
        let encoded = { (value: String) in
            Self.isDirectlyEncodable(base, types: types) ? value + encodedSuffix : Self.jsonValue(of: value, as: base, types: types)
        }
        if member.isOptional { return "if let \(name) = \(value) { sink.member(\(key), \(encoded(name))) }" }
        return "sink.member(\(key), \(encoded(value)))"
    }

    /// The anonymous struct types a member's type holds, each with the Swift name it is
    /// declared under (nested in the struct of the member): `(first: int, second: string)`,
    /// also behind `?`, `[]` and `[string]`.
    var anonymousStruct: (name: String, members: [InterfaceDefinition.Member])? {
        InterfaceDefinition.structMembers(of: Self.innermost(base)).map { (Self.typeName(member.name), $0) }
    }

    /// The cases of the enumeration a member's type holds, also behind `?`, `[]` and
    /// `[string]`, with the Swift name it is declared under; nil when it holds none.
    var enumeration: (name: String, cases: [String])? {
        let cases = Self.enumCases(Self.innermost(base))
        return cases.isEmpty ? nil : (Self.typeName(member.name), cases)
    }

    /// The type inside the prefixes `?`, `[]` and `[string]` (but not a set, `[string]()`).
    private static func innermost(_ idl: String) -> String {
        if idl.hasPrefix("?") { return innermost(String(idl.dropFirst())) }
        if idl.hasPrefix("[]") { return innermost(String(idl.dropFirst(2))) }
        if idl.hasPrefix("[string]"), idl != "[string]()" { return innermost(String(idl.dropFirst(8))) }
        return idl
    }

    /// The Swift type named after a member: `nullable_array_struct` → `NullableArrayStruct`.
    private static func typeName(_ member: String) -> String {
        member.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The Swift expression of the `JSONValue` of `value`, of the interface type `idl`: for
    /// the types no `JSONMemberSink` method takes as they are (maps, sets, optional elements).
    private static func jsonValue(of value: String, as idl: String, types: [String: SwiftTypeName]) -> String {
        if idl.hasPrefix("?") { return "\(value).map { \(jsonValue(of: "$0", as: String(idl.dropFirst()), types: types)) } ?? JSONValue.null" }
        if idl.hasPrefix("[]") { return "JSONValue.array(\(value).map { \(jsonValue(of: "$0", as: String(idl.dropFirst(2)), types: types)) })" }
        if idl == "[string]()" { return "\(value).jsonValue" }
        if idl.hasPrefix("[string]") {
            return "JSONValue.object(\(value).mapValues { \(jsonValue(of: "$0", as: String(idl.dropFirst(8)), types: types)) })"
        }
        if !enumCases(idl).isEmpty { return "JSONValue.string(\(value).rawValue)" }
        switch idl {
        case "string": return "JSONValue.string(\(value))"
        case "int": return "JSONValue.number(Double(\(value)))"
        case "float": return "JSONValue.number(\(value))"
        case "bool": return "JSONValue.bool(\(value))"
        case "object": return "JSONValue.object(\(value))"
        default: return "JSONValue.object(\(value).jsonMembers)"
        }
    }

    /// The cases of an enumeration type such as `(on, off)`; empty for any other type.
    static func enumCases(_ idl: String) -> [String] {
        guard idl.hasPrefix("("), idl.hasSuffix(")"), !idl.contains(":"), idl != "()" else { return [] }
        return idl.dropFirst().dropLast().split(separator: ",").map { String($0.trimmingPrefix(while: \.isWhitespace)) }
    }

    /// An enumeration member's Swift type is named after the member (`state` takes
    /// `State`): a `String` raw-value enumeration declared by hand, whose cases a test
    /// holds equal to the interface's.
    private static func swiftType(_ idl: String, member: String, types: [String: SwiftTypeName]) throws(InterfaceDefinitionError) -> String {
        if idl.hasPrefix("?") { return try swiftType(String(idl.dropFirst()), member: member, types: types) + "?" }
        if idl.hasPrefix("[]") { return "[\(try swiftType(String(idl.dropFirst(2)), member: member, types: types))]" }
        if idl == "[string]()" { return "VarlinkStringSet" }
        if idl.hasPrefix("[string]") { return "[String: \(try swiftType(String(idl.dropFirst(8)), member: member, types: types))]" }
        if !enumCases(idl).isEmpty || InterfaceDefinition.structMembers(of: idl) != nil { return typeName(member) }
        switch idl {
        case "string": return "String"
        case "int": return "Int"
        case "float": return "Double"
        case "bool": return "Bool"
        case "object": return "[String: JSONValue]"
        default:
            guard let type = types[idl] else {
                throw InterfaceDefinitionError("\(idl): declare it as a type to generate Swift for it")
            }
            return type.swiftName
        }
    }

    /// Whether a `JSONMemberSink` takes a value of the type (without its optional) as it is;
    /// the others are given as their ``jsonValue(of:as:types:)``.
    private static func isDirectlyEncodable(_ idl: String, types: [String: SwiftTypeName]) -> Bool {
        switch idl {
        case "string", "int", "float", "bool", "object", "[]string": true
        default: !enumCases(idl).isEmpty || isStruct(idl, types: types) || idl.hasPrefix("[]") && isStruct(String(idl.dropFirst(2)), types: types)
        }
    }

    /// Whether the type is a struct: one the interface declares, or an anonymous one.
    private static func isStruct(_ idl: String, types: [String: SwiftTypeName]) -> Bool {
        types[idl] != nil || InterfaceDefinition.structMembers(of: idl) != nil
    }
}

/// A struct type of the interface as Swift names it.
struct SwiftTypeName {
    /// The Swift type's name.
    let swiftName: String
    /// Whether every member is a `float`: such a type (a point, a size) has a `.zero`,
    /// which members of its type take as their default.
    let hasZero: Bool
}
