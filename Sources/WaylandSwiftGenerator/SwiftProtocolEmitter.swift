/// Writes the Swift of one protocol from what wayland-scanner's `private-code` declares: the
/// interface tables libwayland marshals with (``WaylandInterfaceTable`` builds them at run
/// time, as the C would have been laid out), and for each interface its version and the
/// opcodes of its requests and events.
struct SwiftProtocolEmitter {
    /// The protocol's file name without `.xml`, e.g. `xdg-output-unstable-v1`.
    let protocolName: String
    /// What wayland-scanner declared.
    let code: ScannerCode

    /// The Swift source.
    /// - Throws: ``ScannerCodeError`` when a message names an interface the file neither
    ///   defines nor declares.
    func emit() throws(ScannerCodeError) -> String {
        let namespace = Self.typeName(protocolName.replacingOccurrences(of: "-", with: "_"))
        let indices = Dictionary(code.interfaces.enumerated().map { ($1.symbol, $0) }) { first, _ in first }
        var lines = [
            "// Generated at build time by WaylandSwiftGenerator from the C that wayland-scanner writes",
            "// (`private-code`) for \(protocolName).xml. Do not edit: the protocol file is the source.",
            "import CWaylandClient",
            "",
            "/// The interfaces of the Wayland protocol `\(protocolName)`.",
            "package enum \(namespace) {",
            "    /// The interface tables, made once and kept: proxies point at them for as long as they live.",
            "    static let table = WaylandInterfaceTable(",
            "        types: [",
        ]
        for symbol in code.types {
            guard let symbol else {
                lines.append("            .none,")
                continue
            }
            if let index = indices[symbol] {
                lines.append("            .defined(\(index)),")
            } else {
                // Another protocol's interface (the core's wl_output): its library's own symbol.
                lines.append("            .external(appstate_\(symbol)()),")
            }
        }
        lines += ["        ],", "        interfaces: ["]
        for interface in code.interfaces {
            lines.append("            WaylandInterfaceTable.Interface(")
            lines.append("                name: \(Self.literal(interface.name)), version: \(interface.version),")
            lines.append("                requests: \(Self.messages(interface.requests)),")
            lines.append("                events: \(Self.messages(interface.events))),")
        }
        lines += ["        ])", "}"]
        for (index, interface) in code.interfaces.enumerated() {
            lines += [
                "",
                "/// `\(interface.name)`, of the protocol `\(protocolName)`.",
                "package enum \(Self.typeName(interface.name)) {",
                "    /// The interface, to bind it and to make its objects with.",
                "    package static var interface: UnsafePointer<wl_interface> { \(namespace).table.interface(\(index)) }",
                "    /// The highest version the protocol file declares.",
                "    package static let version: UInt32 = \(interface.version)",
            ]
            lines += Self.opcodes("Request", "The requests, by opcode.", interface.requests)
            lines += Self.opcodes("Event", "The events, by opcode.", interface.events)
            lines.append("}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func messages(_ messages: [ScannerCode.Message]) -> String {
        guard !messages.isEmpty else { return "[]" }
        let entries = messages.map { "WaylandInterfaceTable.Message(\(literal($0.name)), \(literal($0.signature)), \($0.typesOffset))" }
        return "[\n" + entries.map { "                    \($0)," }.joined(separator: "\n") + "\n                ]"
    }

    private static func opcodes(_ name: String, _ documentation: String, _ messages: [ScannerCode.Message]) -> [String] {
        guard !messages.isEmpty else { return [] }
        var lines = ["    /// \(documentation)", "    package enum \(name): UInt32, Sendable {"]
        for (opcode, message) in messages.enumerated() {
            lines.append("        case \(caseName(message.name)) = \(opcode)")
        }
        lines.append("    }")
        return lines
    }

    /// `zxdg_output_v1` → `ZxdgOutputV1`.
    static func typeName(_ name: String) -> String {
        name.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// `logical_size` → `logicalSize`, with backticks around a Swift keyword.
    static func caseName(_ name: String) -> String {
        let type = typeName(name)
        let camel = type.prefix(1).lowercased() + type.dropFirst()
        return keywords.contains(camel) ? "`\(camel)`" : camel
    }

    private static let keywords: Set<String> = [
        "as", "break", "case", "catch", "class", "continue", "default", "defer", "deinit", "do", "else", "enum", "extension",
        "fallthrough", "false", "for", "func", "guard", "if", "import", "in", "init", "inout", "internal", "is", "let", "nil",
        "operator", "private", "protocol", "public", "repeat", "return", "self", "static", "struct", "subscript", "super", "switch",
        "throw", "throws", "true", "try", "var", "where", "while",
    ]

    /// A Swift string literal of text wayland-scanner wrote (names and signatures: no escapes).
    private static func literal(_ text: String) -> String {
        "\"\(text)\""
    }
}
