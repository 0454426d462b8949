import VarlinkIDL

/// How a member of the interface looks in Swift: its property name and type.
struct SwiftMember {
    let member: InterfaceDefinition.Member
    /// The property's name: the member's, unless that is a Swift keyword.
    let name: String
    /// The property's type.
    let type: String
    /// An optional `bool` is a plain `Bool` that is false when absent, as Varlink's own
    /// `more` and `oneway` are, and is only sent when true.
    let isFlag: Bool

    /// The names Swift reserves that members use, with the property name each gets.
    private static let renamed = ["switch": "switching"]

    init(_ member: InterfaceDefinition.Member) throws(InterfaceDefinitionError) {
        self.member = member
        name = Self.renamed[member.name] ?? member.name
        isFlag = member.type == "?bool"
        type = isFlag ? "Bool" : try Self.swiftType(member.type)
    }

    /// Whether the synthesised `Codable` conformance fits this member.
    var isPlain: Bool { name == member.name && !isFlag }

    /// The type to decode: the property's without the optional.
    var decodedType: String { member.isOptional && !isFlag ? String(type.dropLast()) : type }

    /// The parameter of the memberwise initialiser, with its default.
    var parameter: String {
        isFlag ? "\(name): Bool = false" : member.isOptional ? "\(name): \(type) = nil" : "\(name): \(type)"
    }

    private static func swiftType(_ idl: String) throws(InterfaceDefinitionError) -> String {
        if idl.hasPrefix("?") { return try swiftType(String(idl.dropFirst())) + "?" }
        if idl.hasPrefix("[]") { return "[\(try swiftType(String(idl.dropFirst(2))))]" }
        if idl.hasPrefix("[string]") { return "[String: \(try swiftType(String(idl.dropFirst(8))))]" }
        switch idl {
        case "string": return "String"
        case "int": return "Int"
        case "float": return "Double"
        case "bool": return "Bool"
        case "object": return "[String: JSONValue]"
        default:
            guard idl.first?.isUppercase == true, idl.allSatisfy({ $0.isLetter || $0.isNumber }) else {
                throw InterfaceDefinitionError("\(idl): declare it as a type to generate Swift for it")
            }
            return idl
        }
    }
}
