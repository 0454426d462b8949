/// Why a byte sequence is not acceptable JSON, and where parsing stopped.
///
/// The parser is strict on purpose: whatever it accepts is unambiguous to every other
/// JSON implementation a Varlink peer might use.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The category of a ``JSONParseError``, for matching in code.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: Hashable, Sendable {
            case unexpectedEnd
            case unexpectedCharacter
            case invalidUTF8
            case controlCharacter
            case invalidEscape
            case loneSurrogate
            case invalidNumber
            case numberOutOfRange
            case tooDeep
            case duplicateKey
            case trailingData
        }

        private let code: Code

        private init(_ code: Code) { self.code = code }

        /// The input ended inside a value.
        public static let unexpectedEnd = Kind(.unexpectedEnd)
        /// A byte that cannot start or continue the expected token (this includes `NaN`,
        /// `Infinity`, single quotes and comments).
        public static let unexpectedCharacter = Kind(.unexpectedCharacter)
        /// A string holds bytes that are not well-formed UTF-8 (including overlong forms and
        /// encoded surrogates).
        public static let invalidUTF8 = Kind(.invalidUTF8)
        /// A string holds an unescaped byte below 0x20.
        public static let controlCharacter = Kind(.controlCharacter)
        /// A backslash escape that JSON does not define, or a malformed `\u` escape.
        public static let invalidEscape = Kind(.invalidEscape)
        /// A `\u` escape of a UTF-16 surrogate without its partner.
        public static let loneSurrogate = Kind(.loneSurrogate)
        /// A number that does not follow JSON's number grammar (leading zeros, a bare `-`, `1.`).
        public static let invalidNumber = Kind(.invalidNumber)
        /// A number too large for a `Double`, such as `1e999`.
        public static let numberOutOfRange = Kind(.numberOutOfRange)
        /// Arrays and objects nested deeper than the parser's limit.
        public static let tooDeep = Kind(.tooDeep)
        /// An object names the same member twice; peers would disagree on which one wins.
        public static let duplicateKey = Kind(.duplicateKey)
        /// Something other than whitespace follows the value.
        public static let trailingData = Kind(.trailingData)

        /// A short English description of the category.
        public var description: String {
            switch code {
            case .unexpectedEnd: "unexpected end of input"
            case .unexpectedCharacter: "unexpected character"
            case .invalidUTF8: "invalid UTF-8"
            case .controlCharacter: "unescaped control character in string"
            case .invalidEscape: "invalid escape sequence"
            case .loneSurrogate: "unpaired UTF-16 surrogate escape"
            case .invalidNumber: "invalid number"
            case .numberOutOfRange: "number out of range"
            case .tooDeep: "nesting too deep"
            case .duplicateKey: "duplicate object key"
            case .trailingData: "data after the JSON value"
            }
        }
    }

    /// What is wrong.
    public let kind: Kind
    /// The byte offset in the input at which the problem was found.
    public let offset: Int

    /// Creates an error.
    /// - Parameters:
    ///   - kind: What is wrong.
    ///   - offset: The byte offset at which the problem was found.
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// The category and offset in words, e.g. `invalid UTF-8 at byte 12`.
    public var description: String { "\(kind) at byte \(offset)" }
}
