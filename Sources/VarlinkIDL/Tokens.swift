/// The tokens of an interface definition, each with the comment lines right before it:
/// words (names and types such as `?[]Item`), `(`, `)`, `,`, `:` and `->`.
struct Tokens {
    struct Token {
        let text: String
        let doc: [String]
    }

    private var rest: Substring

    init(_ text: String) {
        rest = Substring(text)
    }

    /// The next token, or nil at the end.
    mutating func next() -> Token? {
        var doc: [String] = []
        while true {
            rest = rest.drop { $0.isWhitespace }
            guard rest.first == "#" else { break }
            let line = rest.prefix { $0 != "\n" }
            rest = rest.dropFirst(line.count)
            let text = line.dropFirst()
            doc.append(String(text.first == " " ? text.dropFirst() : text))
        }
        guard let first = rest.first else { return nil }
        if rest.hasPrefix("->") {
            rest = rest.dropFirst(2)
            return Token(text: "->", doc: doc)
        }
        if "(),:".contains(first) {
            rest = rest.dropFirst()
            return Token(text: String(first), doc: doc)
        }
        let word = rest.prefix { !$0.isWhitespace && !"(),:#".contains($0) }
        rest = rest.dropFirst(word.count)
        return Token(text: String(word), doc: doc)
    }

    mutating func word(_ what: String) throws(InterfaceDefinitionError) -> String {
        guard let token = next(), !"(),:->".contains(token.text) else { throw InterfaceDefinitionError("expected \(what)") }
        return token.text
    }

    mutating func expect(_ text: String) throws(InterfaceDefinitionError) {
        guard let token = next(), token.text == text else { throw InterfaceDefinitionError("expected \"\(text)\"") }
    }

    /// `( name: type, … )`.
    mutating func members() throws(InterfaceDefinitionError) -> [InterfaceDefinition.Member] {
        try expect("(")
        var members: [InterfaceDefinition.Member] = []
        while let token = next() {
            switch token.text {
            case ")": return members
            case ",": continue
            default:
                try expect(":")
                members.append(InterfaceDefinition.Member(name: token.text, type: try type(), doc: token.doc))
            }
        }
        throw InterfaceDefinitionError("unclosed member list")
    }

    /// A type: a word (`?[]Item`), or prefixes followed by an enum or struct in parentheses,
    /// kept as text.
    private mutating func type() throws(InterfaceDefinitionError) -> String {
        guard let first = next() else { throw InterfaceDefinitionError("expected a type") }
        var text = ""
        if first.text != "(" {
            text = first.text
            let isOnlyPrefixes = text.replacing("[string]", with: "").allSatisfy { "?[]".contains($0) }
            guard isOnlyPrefixes else { return text }
            try expect("(")
        }
        text += "("
        var depth = 1
        while depth > 0 {
            guard let inner = next() else { throw InterfaceDefinitionError("unclosed type") }
            if inner.text == "(" { depth += 1 }
            if inner.text == ")" { depth -= 1 }
            text += inner.text == "," ? ", " : inner.text == ":" ? ": " : inner.text
        }
        return text
    }
}
