/// What wayland-scanner's `private-code` declares for one protocol: the array of the
/// interfaces that messages' arguments name, each message array, and each interface. The
/// generator reads these declarations, not the protocol's XML, so that wayland-scanner stays
/// the one reader of protocol files and the Swift describes what libwayland's own C would.
struct ScannerCode {
    /// One request or event, as a `struct wl_message` initialiser gives it.
    struct Message {
        /// The name, e.g. `get_xdg_output`.
        let name: String
        /// libwayland's signature of its arguments, with the version it appeared in first, e.g. `2s`.
        let signature: String
        /// Where its arguments' interfaces start in ``ScannerCode/types``.
        let typesOffset: Int
    }

    /// One `struct wl_interface`.
    struct Interface {
        /// The symbol, e.g. `zxdg_output_v1_interface`.
        let symbol: String
        /// The interface's name on the wire, e.g. `zxdg_output_v1`.
        let name: String
        /// The highest version the protocol file declares.
        let version: Int
        /// Its requests, by opcode.
        let requests: [Message]
        /// Its events, by opcode.
        let events: [Message]
    }

    /// The symbol each slot of the types array points at (e.g. `wl_output_interface`); nil for `NULL`.
    let types: [String?]
    /// The interfaces the protocol defines, in the file's order.
    let interfaces: [Interface]

    /// Reads the declarations of a `private-code` file.
    /// - Parameter source: The file's text.
    /// - Throws: ``ScannerCodeError`` for a declaration of another shape than wayland-scanner writes.
    init(parsing source: String) throws(ScannerCodeError) {
        var types: [String?]?
        var typesName = ""
        var messages: [String: [Message]] = [:]
        var interfaces: [(symbol: String, values: [CToken])] = []
        for statement in Self.statements(try CToken.tokens(of: source)) {
            guard statement.first != .identifier("extern") else { continue }
            guard let equals = statement.firstIndex(of: .punctuation("=")),
                let name = statement[..<equals].last(where: { if case .identifier = $0 { true } else { false } })?.identifier
            else { throw ScannerCodeError("a declaration that is no definition: \(statement)") }
            let entries = try Self.entries(of: statement[statement.index(after: equals)...])
            if statement.contains(.identifier("wl_message")) {
                messages[name] = try entries.map { entry throws(ScannerCodeError) in
                    guard entry.count >= 5, entry[0] == .punctuation("{"), entry.last == .punctuation("}"),
                        case .string(let messageName) = entry[1], entry[2] == .punctuation(","),
                        case .string(let signature) = entry[3], entry[4] == .punctuation(",")
                    else { throw ScannerCodeError("a message of \(name) is not { \"name\", \"signature\", types + offset }") }
                    let offset = Array(entry[5..<(entry.count - 1)])
                    let typesOffset: Int
                    if offset == [.identifier(typesName)] {
                        typesOffset = 0
                    } else if offset.count == 3, offset[0] == .identifier(typesName), offset[1] == .punctuation("+"),
                        case .integer(let value) = offset[2]
                    {
                        typesOffset = value
                    } else {
                        throw ScannerCodeError("the message \(messageName) of \(name) does not point into \(typesName)")
                    }
                    return Message(name: messageName, signature: signature, typesOffset: typesOffset)
                }
            } else if statement.contains(.punctuation("*")), statement.contains(.identifier("wl_interface")) {
                guard types == nil else { throw ScannerCodeError("a second array of interfaces, \(name)") }
                typesName = name
                types = try entries.map { entry throws(ScannerCodeError) in
                    if entry == [.identifier("NULL")] { return nil }
                    guard entry.count == 2, entry[0] == .punctuation("&"), let symbol = entry[1].identifier else {
                        throw ScannerCodeError("an entry of \(name) is neither NULL nor the address of an interface")
                    }
                    return symbol
                }
            } else if statement.contains(.identifier("wl_interface")) {
                interfaces.append((name, entries.flatMap { $0 }))
            } else {
                throw ScannerCodeError("a definition of unknown kind, \(name)")
            }
        }
        self.types = types ?? []
        self.interfaces = try interfaces.map { symbol, values throws(ScannerCodeError) in
            guard values.count == 6, case .string(let name) = values[0], case .integer(let version) = values[1],
                case .integer(let requestCount) = values[2], case .integer(let eventCount) = values[4]
            else { throw ScannerCodeError("\(symbol) is not { \"name\", version, count, requests, count, events }") }
            func messageArray(_ token: CToken, count: Int) throws(ScannerCodeError) -> [Message] {
                if token == .identifier("NULL"), count == 0 { return [] }
                guard let array = token.identifier.flatMap({ messages[$0] }), array.count == count else {
                    throw ScannerCodeError("\(symbol) names \(count) messages that are not defined before it")
                }
                return array
            }
            return Interface(
                symbol: symbol, name: name, version: version, requests: try messageArray(values[3], count: requestCount),
                events: try messageArray(values[5], count: eventCount))
        }
        for interface in self.interfaces {
            for message in interface.requests + interface.events where message.typesOffset > self.types.count {
                throw ScannerCodeError("\(message.name) of \(interface.name) points past the end of \(typesName)")
            }
        }
    }

    /// The token lists between semicolons at the outermost level.
    private static func statements(_ tokens: [CToken]) -> [[CToken]] {
        var statements: [[CToken]] = []
        var current: [CToken] = []
        var depth = 0
        for token in tokens {
            if token == .punctuation("{") { depth += 1 }
            if token == .punctuation("}") { depth -= 1 }
            if token == .punctuation(";"), depth == 0 {
                if !current.isEmpty { statements.append(current) }
                current = []
            } else {
                current.append(token)
            }
        }
        return statements
    }

    /// The comma-separated entries of a braced initialiser, each as its tokens (nested braces kept).
    private static func entries(of initialiser: ArraySlice<CToken>) throws(ScannerCodeError) -> [[CToken]] {
        guard initialiser.first == .punctuation("{"), initialiser.last == .punctuation("}") else {
            throw ScannerCodeError("an initialiser without braces")
        }
        var entries: [[CToken]] = []
        var current: [CToken] = []
        var depth = 0
        for token in initialiser.dropFirst().dropLast() {
            if token == .punctuation("{") { depth += 1 }
            if token == .punctuation("}") { depth -= 1 }
            if token == .punctuation(","), depth == 0 {
                entries.append(current)
                current = []
            } else {
                current.append(token)
            }
        }
        if !current.isEmpty { entries.append(current) }
        return entries
    }
}
