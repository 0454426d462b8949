import VarlinkJSON

/// A violation of the Varlink wire protocol itself, as opposed to a method failing.
///
/// A server cannot tell where the next message of a peer that sends one of these starts
/// with any confidence, so the expected reaction is to close the connection (after
/// answering the error its interface declares for ``Kind/messageTooLarge``). A client that
/// receives a malformed reply treats the connection as broken.
public struct VarlinkProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The category of a ``VarlinkProtocolError``, for matching in code.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: Hashable, Sendable {
            case invalidJSON, notAnObject, missingMethod, invalidField, messageTooLarge
        }

        private let code: Code

        private init(_ code: Code) { self.code = code }

        /// The message is not valid JSON; ``VarlinkProtocolError/jsonError`` says why.
        public static let invalidJSON = Kind(.invalidJSON)
        /// The message is JSON but not an object.
        public static let notAnObject = Kind(.notAnObject)
        /// A call has no `method` member, or it is not a string.
        public static let missingMethod = Kind(.missingMethod)
        /// A member the protocol defines has the wrong type; ``VarlinkProtocolError/field`` names it.
        public static let invalidField = Kind(.invalidField)
        /// A message exceeds the size limit; ``VarlinkProtocolError/limit`` gives it.
        public static let messageTooLarge = Kind(.messageTooLarge)

        /// A short English description of the category.
        public var description: String {
            switch code {
            case .invalidJSON: "invalid JSON"
            case .notAnObject: "message is not a JSON object"
            case .missingMethod: "call has no method string"
            case .invalidField: "message member has the wrong type"
            case .messageTooLarge: "message too large"
            }
        }
    }

    private enum Code: Hashable, Sendable {
        case invalidJSON(JSONParseError)
        case notAnObject
        case missingMethod
        case invalidField(String)
        case messageTooLarge(Int)
    }

    private let code: Code

    private init(_ code: Code) { self.code = code }

    /// The message is not valid JSON.
    /// - Parameter error: Why the parser rejected it.
    public static func invalidJSON(_ error: JSONParseError) -> VarlinkProtocolError { .init(.invalidJSON(error)) }
    /// The message is JSON but not an object.
    public static let notAnObject = VarlinkProtocolError(.notAnObject)
    /// A call has no `method` string.
    public static let missingMethod = VarlinkProtocolError(.missingMethod)
    /// A member the protocol defines has the wrong type.
    /// - Parameter field: The member, e.g. `oneway`.
    public static func invalidField(_ field: String) -> VarlinkProtocolError { .init(.invalidField(field)) }
    /// A message exceeds the size limit.
    /// - Parameter limit: The maximum message size in bytes, not counting the NUL terminator.
    public static func messageTooLarge(limit: Int) -> VarlinkProtocolError { .init(.messageTooLarge(limit)) }

    /// What is wrong.
    public var kind: Kind {
        switch code {
        case .invalidJSON: .invalidJSON
        case .notAnObject: .notAnObject
        case .missingMethod: .missingMethod
        case .invalidField: .invalidField
        case .messageTooLarge: .messageTooLarge
        }
    }

    /// For ``Kind/invalidJSON``: the parser's reason.
    public var jsonError: JSONParseError? {
        if case .invalidJSON(let error) = code { return error }
        return nil
    }

    /// For ``Kind/invalidField``: the member with the wrong type.
    public var field: String? {
        if case .invalidField(let field) = code { return field }
        return nil
    }

    /// For ``Kind/messageTooLarge``: the maximum message size in bytes.
    public var limit: Int? {
        if case .messageTooLarge(let limit) = code { return limit }
        return nil
    }

    /// The problem in words, e.g. `invalid JSON: unexpected end of input at byte 7`.
    public var description: String {
        switch code {
        case .invalidJSON(let error): "invalid JSON: \(error)"
        case .notAnObject: "message is not a JSON object"
        case .missingMethod: "call has no \"method\" string"
        case .invalidField(let field): "message member \"\(field)\" has the wrong type"
        case .messageTooLarge(let limit): "message larger than \(limit) bytes"
        }
    }
}
