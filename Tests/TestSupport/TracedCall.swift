/// One completed system call of an `strace -f -ttt -yy` log (with or without `-xx`).
public struct TracedCall: Equatable, Sendable {
    /// The thread that made the call.
    public let thread: Int
    /// The system call's name, e.g. `fsync`.
    public let name: String
    /// Everything between the parentheses, as strace printed it.
    public let arguments: String
    /// The return value; nil when strace printed none (`?`).
    public let result: Int?

    /// Creates a call from its parts.
    public init(thread: Int, name: String, arguments: String, result: Int?) {
        self.thread = thread
        self.name = name
        self.arguments = arguments
        self.result = result
    }

    /// What the first argument's descriptor is (`-yy`): a path, or a socket's description,
    /// with strace's escapes decoded.
    public var descriptor: String? {
        guard let open = arguments.firstIndex(of: "<"), arguments[..<open].allSatisfy(\.isNumber) else { return nil }
        let rest = arguments[arguments.index(after: open)...]
        let end = rest.range(of: ">, ")?.lowerBound ?? rest.lastIndex(of: ">")
        return end.map { Self.decodedText(rest[..<$0]) }
    }

    /// Whether this is a successful write to a socket whose peer is the socket `inode` (`-yy`
    /// shows a connected socket as `UNIX-STREAM:[own->peer,"path"]`): a message sent to
    /// the process that holds `inode`.
    public func isWrite(toPeer inode: UInt64) -> Bool {
        guard ["write", "writev", "pwrite64", "sendmsg", "sendto"].contains(name), (result ?? 0) > 0, let descriptor,
            let range = descriptor.range(of: "->\(inode)")
        else { return false }
        return descriptor[range.upperBound...].first.map { $0 == "," || $0 == "]" } ?? false
    }

    /// The quoted strings among the arguments, decoded, e.g. both paths of a `rename`.
    public var quotedArguments: [String] {
        quotedBytes.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The quoted arguments as bytes, escapes decoded: what a `write` wrote, for instance,
    /// when strace printed it whole (`-s` large enough, `-xx` for any byte).
    public var quotedBytes: [[UInt8]] {
        var strings: [[UInt8]] = []
        var bytes = Array(arguments.utf8)[...]
        while let quote = bytes.firstIndex(of: UInt8(ascii: "\"")) {
            let (value, consumed) = Self.decoded(Array(bytes[(quote + 1)...]), until: UInt8(ascii: "\""))
            strings.append(value)
            bytes = bytes[(quote + 1 + consumed)...]
        }
        return strings
    }

    /// The arguments split where strace separates them, outside quotes, braces and brackets.
    public var argumentList: [String] {
        var list: [String] = []
        var current = ""
        var depth = 0
        var quoted = false
        var escaped = false
        for character in arguments {
            if quoted {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted = false
                }
            } else if character == "\"" {
                quoted = true
            } else if "{[(".contains(character) {
                depth += 1
            } else if "}])".contains(character) {
                depth -= 1
            } else if character == ",", depth == 0 {
                list.append(current.trimmingPrefix(" ").description)
                current = ""
                continue
            }
            current.append(character)
        }
        if !current.isEmpty { list.append(current.trimmingPrefix(" ").description) }
        return list
    }

    /// The path an argument names: a quoted path, made absolute with the directory the
    /// descriptor argument before it stands for (`AT_FDCWD</cwd>`, `3</dir>`) when relative.
    /// - Parameter index: Which quoted argument (0 for the first).
    /// - Returns: The absolute path, or nil when the call has no such argument.
    public func path(quoted index: Int) -> String? {
        var seen = 0
        var directory: String?
        for argument in argumentList {
            if argument.hasPrefix("\"") {
                if seen == index {
                    let path = String(decoding: Self.decoded(Array(argument.utf8.dropFirst()), until: UInt8(ascii: "\"")).bytes, as: UTF8.self)
                    if path.hasPrefix("/") { return path }
                    return directory.map { $0 + "/" + path }
                }
                seen += 1
            } else if let open = argument.firstIndex(of: "<"), argument.hasSuffix(">") {
                directory = Self.decodedText(argument[argument.index(after: open)...].dropLast())
            }
        }
        return nil
    }

    /// Decodes strace's C escapes (`\xHH`, `\NNN`, `\n`, `\"`…) up to an unescaped `end`.
    /// - Returns: The bytes and how many input bytes were consumed, `end` included.
    private static func decoded(_ input: [UInt8], until end: UInt8? = nil) -> (bytes: [UInt8], consumed: Int) {
        var output: [UInt8] = []
        var index = 0
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while index < input.count {
            let byte = input[index]
            index += 1
            if byte == end { return (output, index) }
            guard byte == UInt8(ascii: "\\"), index < input.count else {
                output.append(byte)
                continue
            }
            let escape = input[index]
            index += 1
            switch escape {
            case UInt8(ascii: "x"):
                var value: UInt8 = 0
                var digits = 0
                while digits < 2, index < input.count, let digit = hex(input[index]) {
                    value = value << 4 | digit
                    index += 1
                    digits += 1
                }
                output.append(value)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = Int(escape - UInt8(ascii: "0"))
                var digits = 1
                while digits < 3, index < input.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(input[index]) {
                    value = value * 8 + Int(input[index] - UInt8(ascii: "0"))
                    index += 1
                    digits += 1
                }
                output.append(UInt8(truncatingIfNeeded: value))
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "v"): output.append(0x0B)
            case UInt8(ascii: "f"): output.append(0x0C)
            default: output.append(escape)
            }
        }
        return (output, index)
    }

    private static func decodedText(_ text: some StringProtocol) -> String {
        String(decoding: decoded(Array(text.utf8)).bytes, as: UTF8.self)
    }
}
