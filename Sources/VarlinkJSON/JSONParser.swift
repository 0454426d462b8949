/// A strict JSON parser (RFC 8259) that reads bytes straight into `JSONValue`.
///
/// Foundation's `JSONSerialization` is too slow for the daemon's pipelined calls, and too
/// lenient for a protocol boundary. This parser rejects, with a ``JSONParseError``:
/// malformed UTF-8 (overlong forms, encoded surrogates, code points above U+10FFFF),
/// unescaped control characters, unpaired `\u` surrogates, `NaN` and `Infinity`, numbers a
/// `Double` cannot hold (`1e999`), duplicate object keys, data after the value, and
/// nesting deeper than ``maximumDepth``. Numbers become `Double`; integers beyond 2^53
/// are rounded, as every JSON peer that uses doubles does.
public struct JSONParser: Sendable {
    /// The nesting limit used when none is given: deep enough for any tree snapshot a
    /// client sends back, shallow enough that recursion cannot exhaust a thread's stack.
    public static let defaultMaximumDepth = 64

    /// How many arrays and objects may enclose each other; the outermost counts as 1.
    public let maximumDepth: Int
    /// Whether an object may name a key twice, the first value counting, as Foundation's
    /// decoder reads it; off, that is a ``JSONParseError/Kind/duplicateKey``.
    public let allowsDuplicateKeys: Bool

    /// Creates a parser.
    /// - Parameters:
    ///   - maximumDepth: How many arrays and objects may enclose each other.
    ///   - allowsDuplicateKeys: Whether a key named twice in an object is let pass, the
    ///     first value counting; for files other tools read leniently, never for messages.
    public init(maximumDepth: Int = JSONParser.defaultMaximumDepth, allowsDuplicateKeys: Bool = false) {
        self.maximumDepth = maximumDepth
        self.allowsDuplicateKeys = allowsDuplicateKeys
    }

    /// Parses one JSON value that spans all of `bytes` (surrounding whitespace allowed).
    /// - Parameter bytes: UTF-8 encoded JSON text.
    /// - Returns: The value.
    /// - Throws: ``JSONParseError`` describing the first problem and its offset.
    public func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        var scanner = Scanner(bytes: bytes, maximumDepth: maximumDepth, allowsDuplicateKeys: allowsDuplicateKeys)
        scanner.skipWhitespace()
        let value = try scanner.parseValue(depth: 0)
        scanner.skipWhitespace()
        guard scanner.index == bytes.count else { throw JSONParseError(.trailingData, at: scanner.index) }
        return value
    }

    /// Parses one JSON value that spans all of `bytes`, as ``parse(_:)-([UInt8])`` does, but
    /// hands the members of a top-level object to `member` in document order instead of
    /// building a dictionary; Varlink messages use this to skip one dictionary per message.
    /// - Parameters:
    ///   - bytes: UTF-8 encoded JSON text.
    ///   - member: Receives each member of the top-level object.
    /// - Returns: Whether the top-level value is an object (any other value is still
    ///   checked completely, then dropped).
    /// - Throws: ``JSONParseError`` describing the first problem and its offset.
    package func parseMembers(_ bytes: UnsafeRawBufferPointer, _ member: (String, JSONValue) -> Void) throws(JSONParseError) -> Bool {
        var scanner = Scanner(bytes: bytes, maximumDepth: maximumDepth)
        scanner.skipWhitespace()
        let isObject = scanner.index < bytes.count && bytes[scanner.index] == UInt8(ascii: "{")
        if isObject {
            try scanner.parseTopLevelMembers(member)
        } else {
            _ = try scanner.parseValue(depth: 0)
        }
        scanner.skipWhitespace()
        guard scanner.index == bytes.count else { throw JSONParseError(.trailingData, at: scanner.index) }
        return isObject
    }

    /// Parses one JSON value that spans all of `bytes` (surrounding whitespace allowed).
    /// - Parameter bytes: UTF-8 encoded JSON text.
    /// - Returns: The value.
    /// - Throws: ``JSONParseError`` describing the first problem and its offset.
    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(JSONParseError) in try parse(raw) } }
        return try result.get()
    }

    /// Parses one JSON value from the UTF-8 form of `text`.
    /// - Parameter text: JSON text.
    /// - Returns: The value.
    /// - Throws: ``JSONParseError`` describing the first problem and its offset.
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

/// The cursor of one parse. Kept private so that the raw buffer it borrows never outlives
/// the call that lent it.
private struct Scanner {
    let bytes: UnsafeRawBufferPointer
    let maximumDepth: Int
    let allowsDuplicateKeys: Bool
    var index = 0

    init(bytes: UnsafeRawBufferPointer, maximumDepth: Int, allowsDuplicateKeys: Bool = false) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        self.allowsDuplicateKeys = allowsDuplicateKeys
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw JSONParseError(.unexpectedEnd, at: index) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw JSONParseError(.unexpectedCharacter, at: index)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let text = literal.utf8Start
        for offset in 0..<count {
            guard index < bytes.count else { throw JSONParseError(.unexpectedEnd, at: index) }
            guard bytes[index] == text[offset] else { throw JSONParseError(.unexpectedCharacter, at: index) }
            index += 1
        }
    }

    private mutating func expect(_ byte: UInt8) throws(JSONParseError) {
        guard index < bytes.count else { throw JSONParseError(.unexpectedEnd, at: index) }
        guard bytes[index] == byte else { throw JSONParseError(.unexpectedCharacter, at: index) }
        index += 1
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        var members: [String: JSONValue] = [:]
        let allowsDuplicateKeys = self.allowsDuplicateKeys
        try parseMembers(depth: depth) { key, keyOffset, value throws(JSONParseError) in
            // A dictionary grown from empty reallocates and rehashes each time it fills:
            // room for a small object's members is taken once, at its first member.
            if members.isEmpty { members.reserveCapacity(6) }
            if let first = members.updateValue(value, forKey: key) {
                guard allowsDuplicateKeys else { throw JSONParseError(.duplicateKey, at: keyOffset) }
                members[key] = first
            }
        }
        return .object(members)
    }

    /// Reads the members of the top-level object (whose `{` is at `index`) and hands them
    /// over in document order, so that a Varlink message's own members need no dictionary.
    mutating func parseTopLevelMembers(_ member: (String, JSONValue) -> Void) throws(JSONParseError) {
        var keys: [String] = []
        try parseMembers(depth: 1) { key, keyOffset, value throws(JSONParseError) in
            if keys.isEmpty { keys.reserveCapacity(8) }
            if keys.contains(key) { throw JSONParseError(.duplicateKey, at: keyOffset) }
            keys.append(key)
            member(key, value)
        }
    }

    /// Reads an object whose `{` is at `index`, handing each member and the offset of its
    /// key to `member`.
    private mutating func parseMembers(
        depth: Int, _ member: (String, Int, JSONValue) throws(JSONParseError) -> Void
    ) throws(JSONParseError) {
        guard depth <= maximumDepth else { throw JSONParseError(.tooDeep, at: index) }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw JSONParseError(.unexpectedEnd, at: index) }
            guard bytes[index] == UInt8(ascii: "\"") else { throw JSONParseError(.unexpectedCharacter, at: index) }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            try member(key, keyOffset, try parseValue(depth: depth))
            guard try continuesAfterElement(closedBy: UInt8(ascii: "}")) else { return }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maximumDepth else { throw JSONParseError(.tooDeep, at: index) }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            guard try continuesAfterElement(closedBy: UInt8(ascii: "]")) else { return .array(elements) }
        }
    }

    /// Reads what follows an object member or an array element: a comma (another one
    /// comes) or the closing bracket (the container ends).
    /// - Parameter closing: `}` or `]`.
    /// - Returns: Whether another member or element follows.
    private mutating func continuesAfterElement(closedBy closing: UInt8) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw JSONParseError(.unexpectedEnd, at: index) }
        let byte = bytes[index]
        guard byte == UInt8(ascii: ",") || byte == closing else { throw JSONParseError(.unexpectedCharacter, at: index) }
        index += 1
        return byte == UInt8(ascii: ",")
    }

    /// Reads a string whose opening quote is at `index`. Strings without escapes (nearly
    /// all of them in Varlink traffic) are validated and copied once, straight from the input.
    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
            if byte < 0x20 { throw JSONParseError(.controlCharacter, at: index) }
            if byte < 0x80 {
                index += 1
            } else {
                try skipUTF8Sequence()
            }
        }
        throw JSONParseError(.unexpectedEnd, at: index)
    }

    private mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(index - start + 16)
        text.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try appendEscape(to: &text)
            case 0..<0x20:
                throw JSONParseError(.controlCharacter, at: index)
            case 0..<0x80:
                text.append(byte)
                index += 1
            default:
                let sequenceStart = index
                try skipUTF8Sequence()
                text.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[sequenceStart..<index]))
            }
        }
        throw JSONParseError(.unexpectedEnd, at: index)
    }

    private mutating func appendEscape(to text: inout [UInt8]) throws(JSONParseError) {
        let escapeStart = index
        index += 1
        guard index < bytes.count else { throw JSONParseError(.unexpectedEnd, at: index) }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(letter)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHexQuad()
            switch unit {
            case 0xD800...0xDBFF:
                guard index < bytes.count else { throw JSONParseError(.unexpectedEnd, at: index) }
                guard bytes[index] == UInt8(ascii: "\\") else { throw JSONParseError(.loneSurrogate, at: escapeStart) }
                guard index + 1 < bytes.count else { throw JSONParseError(.unexpectedEnd, at: index + 1) }
                guard bytes[index + 1] == UInt8(ascii: "u") else { throw JSONParseError(.loneSurrogate, at: escapeStart) }
                index += 2
                let low = try readHexQuad()
                guard (0xDC00...0xDFFF).contains(low) else { throw JSONParseError(.loneSurrogate, at: escapeStart) }
                appendUTF8(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), to: &text)
            case 0xDC00...0xDFFF:
                throw JSONParseError(.loneSurrogate, at: escapeStart)
            default:
                appendUTF8(unit, to: &text)
            }
        default:
            throw JSONParseError(.invalidEscape, at: escapeStart)
        }
    }

    private mutating func readHexQuad() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw JSONParseError(.unexpectedEnd, at: index) }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONParseError(.invalidEscape, at: index)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func appendUTF8(_ scalar: UInt32, to text: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            text.append(UInt8(scalar))
        case 0x80..<0x800:
            text.append(UInt8(0xC0 | scalar >> 6))
            text.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            text.append(UInt8(0xE0 | scalar >> 12))
            text.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            text.append(UInt8(0x80 | scalar & 0x3F))
        default:
            text.append(UInt8(0xF0 | scalar >> 18))
            text.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            text.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            text.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Steps over one multi-byte UTF-8 sequence starting at `index`, accepting only the
    /// well-formed sequences of Unicode's table 3-7 (no overlong forms, no surrogates,
    /// nothing above U+10FFFF).
    private mutating func skipUTF8Sequence() throws(JSONParseError) {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default: throw JSONParseError(.invalidUTF8, at: index)
        }
        for offset in 1..<length {
            guard index + offset < bytes.count else { throw JSONParseError(.unexpectedEnd, at: bytes.count) }
            let range = offset == 1 ? secondRange : 0x80...0xBF
            guard range.contains(bytes[index + offset]) else { throw JSONParseError(.invalidUTF8, at: index) }
        }
        index += length
    }

    /// Reads a number. Most numbers (up to 15 significant digits and a power of ten within
    /// 10^±22) are converted exactly with one multiplication or division, which is
    /// correctly rounded because both operands are exact doubles (Clinger's fast path);
    /// the rest go through the standard library's correctly rounded conversion.
    private mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var exponent = 0

        guard index < bytes.count else { throw JSONParseError(.unexpectedEnd, at: index) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw JSONParseError(.invalidNumber, at: index) }
        } else if isDigit(bytes[index]) {
            while index < bytes.count, isDigit(bytes[index]) {
                accumulate(bytes[index], into: &mantissa, digits: &significantDigits)
                index += 1
            }
        } else {
            throw JSONParseError(.invalidNumber, at: index)
        }

        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            try requireDigit()
            while index < bytes.count, isDigit(bytes[index]) {
                accumulate(bytes[index], into: &mantissa, digits: &significantDigits)
                exponent -= 1
                index += 1
            }
        }

        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            try requireDigit()
            var written = 0
            while index < bytes.count, isDigit(bytes[index]) {
                // Clamped: any exponent this large already over- or underflows a Double.
                if written < 1_000_000 { written = written * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                index += 1
            }
            exponent += exponentNegative ? -written : written
        }

        let value: Double
        if mantissa == 0 {
            value = 0
        } else if significantDigits <= 15, (-22...22).contains(exponent) {
            let power = Scanner.powersOfTen[abs(exponent)]
            value = exponent < 0 ? Double(mantissa) / power : Double(mantissa) * power
        } else {
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            guard let converted = Double(text) else { throw JSONParseError(.invalidNumber, at: start) }
            guard converted.isFinite else { throw JSONParseError(.numberOutOfRange, at: start) }
            return converted
        }
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    private mutating func requireDigit() throws(JSONParseError) {
        guard index < bytes.count else { throw JSONParseError(.unexpectedEnd, at: index) }
        guard isDigit(bytes[index]) else { throw JSONParseError(.invalidNumber, at: index) }
    }

    /// Adds a digit to the mantissa; leading zeros do not count as significant, and once
    /// more than 15 digits are seen the fast path is abandoned, so the mantissa only needs
    /// to stay exact up to that point.
    private func accumulate(_ byte: UInt8, into mantissa: inout UInt64, digits: inout Int) {
        let digit = UInt64(byte - UInt8(ascii: "0"))
        if mantissa == 0, digit == 0 { return }
        digits += 1
        if digits <= 19 { mantissa = mantissa &* 10 &+ digit }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
