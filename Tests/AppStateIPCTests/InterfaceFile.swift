/// A minimal reader of Varlink interface definitions, enough for tests to compare the
/// interface file with the Swift types: names, members, their types and optionality.
struct InterfaceFile {
    struct Member: Equatable {
        let name: String
        let type: String
        var isOptional: Bool { type.hasPrefix("?") }
    }

    struct Method {
        let name: String
        let input: [Member]
        let output: [Member]
    }

    private(set) var name = ""
    private(set) var types: [String: [Member]] = [:]
    private(set) var methods: [String: Method] = [:]
    private(set) var methodOrder: [String] = []
    private(set) var errors: [String: [Member]] = [:]

    init(_ text: String) {
        let code = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingPrefix(while: \.isWhitespace).hasPrefix("#") }
            .joined(separator: "\n")
        var scanner = Substring(code)
        while let keyword = InterfaceFile.word(&scanner) {
            switch keyword {
            case "interface":
                name = InterfaceFile.word(&scanner) ?? ""
            case "type":
                let typeName = InterfaceFile.word(&scanner) ?? ""
                types[typeName] = InterfaceFile.members(InterfaceFile.group(&scanner))
            case "error":
                let errorName = InterfaceFile.word(&scanner) ?? ""
                errors[errorName] = InterfaceFile.members(InterfaceFile.group(&scanner))
            case "method":
                let methodName = InterfaceFile.word(&scanner) ?? ""
                let input = InterfaceFile.members(InterfaceFile.group(&scanner))
                _ = InterfaceFile.word(&scanner)
                let output = InterfaceFile.members(InterfaceFile.group(&scanner))
                methods[methodName] = Method(name: methodName, input: input, output: output)
                methodOrder.append(methodName)
            default:
                return
            }
        }
    }

    /// The next run of non-space characters that are not parentheses (`->` included).
    private static func word(_ scanner: inout Substring) -> String? {
        scanner = scanner.drop { $0.isWhitespace }
        let word = scanner.prefix { !$0.isWhitespace && $0 != "(" && $0 != ")" }
        guard !word.isEmpty else { return nil }
        scanner = scanner.dropFirst(word.count)
        return String(word)
    }

    /// The text inside the next balanced pair of parentheses.
    private static func group(_ scanner: inout Substring) -> Substring {
        scanner = scanner.drop { $0.isWhitespace }
        guard scanner.first == "(" else { return "" }
        var depth = 0
        for index in scanner.indices {
            if scanner[index] == "(" { depth += 1 }
            if scanner[index] == ")" { depth -= 1 }
            if depth == 0 {
                let inside = scanner[scanner.index(after: scanner.startIndex)..<index]
                scanner = scanner[scanner.index(after: index)...]
                return inside
            }
        }
        return ""
    }

    /// Splits `name: type, …` at the commas outside nested parentheses.
    private static func members(_ text: Substring) -> [Member] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if character == ",", depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts.compactMap { part in
            let trimmed = part.filter { !$0.isWhitespace }
            guard let colon = trimmed.firstIndex(of: ":") else { return nil }
            return Member(name: String(trimmed[..<colon]), type: String(trimmed[trimmed.index(after: colon)...]))
        }
    }
}
