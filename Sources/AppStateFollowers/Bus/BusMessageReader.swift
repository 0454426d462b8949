import CSystemd

/// Reads every argument of an sd-bus message into ``BusValue``s, whatever their types.
/// Reading is bounded: a message with more than ``maximumValues`` values in all, or nested
/// deeper than ``maximumDepth``, is refused, so a hostile peer cannot make the follower's
/// thread build an unbounded value.
struct BusMessageReader {
    /// The most values one message may hold, counting the members of containers.
    static let maximumValues = 4096
    /// The deepest nesting of containers read.
    static let maximumDepth = 16

    private let message: OpaquePointer
    private var count = 0

    /// Creates a reader at the start of a message's arguments.
    /// - Parameter message: The message (`sd_bus_message *`); it must outlive the reader.
    init(message: OpaquePointer) {
        self.message = message
    }

    /// Reads the remaining arguments of the message.
    /// - Throws: ``BusError/Code/unexpectedReply`` for a message too large or too deep, or one
    ///   sd-bus cannot read.
    mutating func readAll() throws(BusError) -> [BusValue] {
        try readValues(depth: 0)
    }

    /// Reads values until the end of the message or of the container the reader is in.
    private mutating func readValues(depth: Int) throws(BusError) -> [BusValue] {
        var values: [BusValue] = []
        while let value = try readValue(depth: depth) {
            values.append(value)
        }
        return values
    }

    private mutating func readValue(depth: Int) throws(BusError) -> BusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let peeked = sd_bus_message_peek_type(message, &type, &contents)
        guard peeked > 0 else {
            if peeked < 0 { throw BusError(.unexpectedReply, "unreadable message", result: peeked) }
            return nil
        }
        count += 1
        guard count <= Self.maximumValues else {
            throw BusError(.unexpectedReply, "a message with more than \(Self.maximumValues) values was refused")
        }
        let code = UInt8(bitPattern: type)
        switch code {
        case UInt8(ascii: "a"), UInt8(ascii: "r"), UInt8(ascii: "v"), UInt8(ascii: "e"):
            guard depth < Self.maximumDepth else {
                throw BusError(.unexpectedReply, "a message nested deeper than \(Self.maximumDepth) levels was refused")
            }
            try check(sd_bus_message_enter_container(message, type, contents), "entering a container")
            let members = try readValues(depth: depth + 1)
            try check(sd_bus_message_exit_container(message), "leaving a container")
            switch code {
            case UInt8(ascii: "a"): return .array(members)
            case UInt8(ascii: "r"): return .structure(members)
            case UInt8(ascii: "v"):
                guard members.count == 1 else { throw BusError(.unexpectedReply, "a variant without exactly one value") }
                return .variant(members[0])
            default:
                guard members.count == 2 else { throw BusError(.unexpectedReply, "a dictionary entry without a key and a value") }
                return .dictionaryEntry(members[0], members[1])
            }
        default:
            return try readBasic(type)
        }
    }

    private func readBasic(_ type: CChar) throws(BusError) -> BusValue {
        var basic = appstate_bus_basic()
        try check(sd_bus_message_read_basic(message, type, &basic), "reading a value")
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "s"): return .string(basic.text.map { String(cString: $0) } ?? "")
        case UInt8(ascii: "o"): return .objectPath(basic.text.map { String(cString: $0) } ?? "")
        case UInt8(ascii: "g"): return .signature(basic.text.map { String(cString: $0) } ?? "")
        case UInt8(ascii: "b"): return .boolean(basic.boolean != 0)
        case UInt8(ascii: "y"): return .integer(Int64(basic.byte))
        case UInt8(ascii: "n"): return .integer(Int64(basic.int16))
        case UInt8(ascii: "i"): return .integer(Int64(basic.int32))
        case UInt8(ascii: "x"): return .integer(basic.int64)
        case UInt8(ascii: "q"): return .unsigned(UInt64(basic.uint16))
        case UInt8(ascii: "u"): return .unsigned(UInt64(basic.uint32))
        case UInt8(ascii: "t"): return .unsigned(basic.uint64)
        case UInt8(ascii: "d"): return .double(basic.real)
        case UInt8(ascii: "h"): return .fileDescriptor
        default: throw BusError(.unexpectedReply, "a value of unknown type \(UnicodeScalar(UInt8(bitPattern: type)))")
        }
    }

    private func check(_ result: CInt, _ what: String) throws(BusError) {
        if result < 0 { throw BusError(.unexpectedReply, "\(what) of a message failed", result: result) }
    }
}
