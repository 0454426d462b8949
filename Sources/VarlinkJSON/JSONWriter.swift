/// Serialises `JSONValue` to compact UTF-8 JSON, deterministically.
///
/// Object members are written in ascending order of their keys, so that equal values give
/// equal bytes (which tests, caches and diffs rely on). Integer-valued numbers are written
/// without a fraction (`3`, not `3.0`); other numbers in the shortest form that reads back
/// to the same `Double`. Non-finite numbers, which JSON cannot express, are written as
/// `null`, as JavaScript's `JSON.stringify` does; the parser never produces them, so they
/// only appear when a program builds such a value itself. Strings are escaped as RFC 8259
/// requires (quote, backslash and control characters) and otherwise written as UTF-8.
public enum JSONWriter {
    /// Appends the JSON text of a value to a buffer.
    /// - Parameters:
    ///   - value: The value to write.
    ///   - buffer: The buffer to append to.
    public static func write(_ value: JSONValue, into buffer: inout [UInt8]) {
        switch value {
        case .null: appendASCII("null", to: &buffer)
        case .bool(let flag): appendASCII(flag ? "true" : "false", to: &buffer)
        case .number(let number): writeNumber(number, into: &buffer)
        case .string(let text): writeString(text, into: &buffer)
        case .array(let elements):
            buffer.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { buffer.append(UInt8(ascii: ",")) }
                write(element, into: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let members): writeObject(members, into: &buffer)
        }
    }

    /// Appends the JSON text of an object, members sorted by key.
    /// - Parameters:
    ///   - members: The object's members.
    ///   - buffer: The buffer to append to.
    public static func writeObject(_ members: [String: JSONValue], into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "{"))
        if members.count == 1, let (key, value) = members.first {
            writeMember(key, value, into: &buffer)
        } else {
            // Sorting the pairs, not the keys, spares hashing every key a second time.
            for (position, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if position > 0 { buffer.append(UInt8(ascii: ",")) }
                writeMember(member.key, member.value, into: &buffer)
            }
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// Appends a JSON string literal, quotes included.
    /// - Parameters:
    ///   - text: The string to write.
    ///   - buffer: The buffer to append to.
    public static func writeString(_ text: String, into buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendEscape(for: byte, to: &buffer)
                runStart = index + 1
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Appends a JSON number.
    /// - Parameters:
    ///   - number: The number; a non-finite one is written as `null`.
    ///   - buffer: The buffer to append to.
    public static func writeNumber(_ number: Double, into buffer: inout [UInt8]) {
        guard number.isFinite else {
            appendASCII("null", to: &buffer)
            return
        }
        // Every double at or beyond 2^53 is an integer, and all of them below 2^63 fit an
        // Int64 exactly, so this prints the double's exact value without a fraction.
        if number.rounded(.towardZero) == number, abs(number) < 9.2e18 {
            writeInteger(Int64(number), into: &buffer)
        } else {
            buffer.append(contentsOf: number.description.utf8)
        }
    }

    /// Appends the JSON text of a value and returns the bytes.
    /// - Parameter value: The value to write.
    /// - Returns: The UTF-8 JSON text.
    public static func bytes(of value: JSONValue) -> [UInt8] {
        var buffer: [UInt8] = []
        write(value, into: &buffer)
        return buffer
    }

    private static func writeMember(_ key: String, _ value: JSONValue, into buffer: inout [UInt8]) {
        writeString(key, into: &buffer)
        buffer.append(UInt8(ascii: ":"))
        write(value, into: &buffer)
    }

    private static func writeInteger(_ integer: Int64, into buffer: inout [UInt8]) {
        if integer < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = integer.magnitude
        // 20 digits hold the magnitude of any Int64.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var position = scratch.count
            repeat {
                position -= 1
                scratch[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[position...]))
        }
    }

    private static func appendEscape(for byte: UInt8, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer.append(byte)
        case 0x08: buffer.append(UInt8(ascii: "b"))
        case 0x0C: buffer.append(UInt8(ascii: "f"))
        case 0x0A: buffer.append(UInt8(ascii: "n"))
        case 0x0D: buffer.append(UInt8(ascii: "r"))
        case 0x09: buffer.append(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            buffer.append(UInt8(ascii: "u"))
            buffer.append(UInt8(ascii: "0"))
            buffer.append(UInt8(ascii: "0"))
            buffer.append(hex.utf8Start[Int(byte >> 4)])
            buffer.append(hex.utf8Start[Int(byte & 0x0F)])
        }
    }

    private static func appendASCII(_ text: StaticString, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
