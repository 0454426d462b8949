@testable import AppStateFollowers

/// The fuzzer's bytes read as a program: each call takes what it needs from the front, and
/// an input that runs out gives empty or default values, never a trap.
struct Program {
    private var bytes: ArraySlice<UInt8>
    /// How deep values nest: the bus allows 64; a few levels reach every decoder's branch.
    private static let maximumDepth = 4

    init(_ bytes: [UInt8]) {
        self.bytes = bytes[...]
    }

    /// The next byte, or nil at the end.
    mutating func next() -> UInt8? {
        bytes.popFirst()
    }

    /// One of `choices`, chosen by the next byte.
    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int(next() ?? 0) % choices.count]
    }

    /// A path: one logind uses, one it does not, or the seat's.
    mutating func path() -> String {
        pick(Vocabulary.sessions + [Vocabulary.seat, LogindSeatState.managerPath, "/", "/x"] + OnScreenKeyboardKind.allCases.map(\.objectPath))
    }

    /// A value of any shape.
    mutating func value(depth: Int = 0) -> BusValue {
        let kind = Int(next() ?? 0) % (depth < Self.maximumDepth ? 12 : 7)
        switch kind {
        case 0: return .string(pick(Vocabulary.users + Vocabulary.classes + Vocabulary.properties))
        case 1: return .objectPath(path())
        case 2: return .boolean((next() ?? 0) & 1 == 1)
        case 3: return .integer(Int64(Int8(bitPattern: next() ?? 0)))
        case 4: return .unsigned(UInt64(next() ?? 0))
        case 5: return .double(Double(next() ?? 0) / 3)
        case 6: return .signature(pick(["s", "(so)", "a{sv}", ""]))
        case 7: return .variant(value(depth: depth + 1))
        case 8: return .structure(values(depth: depth + 1))
        case 9: return .array(values(depth: depth + 1))
        case 10: return .dictionaryEntry(.string(pick(Vocabulary.properties)), .variant(value(depth: depth + 1)))
        default: return .array(properties(depth: depth + 1).map { .dictionaryEntry(.string($0.key), $0.value) })
        }
    }

    /// Up to seven values.
    mutating func values(depth: Int = 0) -> [BusValue] {
        (0..<Int(next() ?? 0) % 8).map { _ in value(depth: depth) }
    }

    /// A property table as `PropertiesChanged` and `GetAll` carry it: the properties the
    /// followers read, with values of any type.
    mutating func properties(depth: Int = 0) -> [String: BusValue] {
        var table: [String: BusValue] = [:]
        for _ in 0..<Int(next() ?? 0) % 5 {
            table[pick(Vocabulary.properties)] = .variant(value(depth: depth + 1))
        }
        return table
    }

    /// A signal from logind, the keyboard or elsewhere.
    mutating func signal() -> BusSignal {
        let (interface, member) = pick(Vocabulary.signals)
        var arguments: [BusValue]
        if member == "PropertiesChanged", (next() ?? 0) & 1 == 0 {
            let interfaceName = BusValue.string(
                pick([LogindSeatState.seatInterface, LogindSeatState.sessionInterface, "x"] + OnScreenKeyboardKind.allCases.map(\.interface)))
            let changed = BusValue.array(properties().map { .dictionaryEntry(.string($0.key), $0.value) })
            arguments = [interfaceName, changed, .array(values())]
        } else {
            arguments = values()
        }
        return BusSignal(sender: pick([":1.1", ":1.2"]), path: path(), interface: interface, member: member, arguments: arguments)
    }
}
