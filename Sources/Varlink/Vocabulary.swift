public import VarlinkJSON

// The JSON that every message is made of is declared in VarlinkJSON, a leaf with no I/O that a
// module of values can depend on without the client and its sockets. Each of its public types
// is named here as well, so that `import Varlink` alone gives the whole API: Swift has no
// supported way to re-export a module, so each type gets an alias, which names the same type.

/// Where a ``JSONObjectEncodable`` value's members go: VarlinkJSON's `JSONMemberSink`.
public typealias JSONMemberSink = VarlinkJSON.JSONMemberSink

/// A value that writes its members in key order to a sink: VarlinkJSON's `JSONObjectEncodable`.
public typealias JSONObjectEncodable = VarlinkJSON.JSONObjectEncodable

/// Writes one JSON object member by member, in ascending order of the keys: VarlinkJSON's `JSONObjectWriter`.
public typealias JSONObjectWriter = VarlinkJSON.JSONObjectWriter

/// Why a byte sequence is not acceptable JSON, and where parsing stopped: VarlinkJSON's `JSONParseError`.
public typealias JSONParseError = VarlinkJSON.JSONParseError

/// A strict JSON parser (RFC 8259) that reads bytes into `JSONValue`: VarlinkJSON's `JSONParser`.
public typealias JSONParser = VarlinkJSON.JSONParser

/// A sink that writes members as JSON text: VarlinkJSON's `JSONTextSink`.
public typealias JSONTextSink = VarlinkJSON.JSONTextSink

/// A JSON value, what every Varlink message is made of: VarlinkJSON's `JSONValue`.
public typealias JSONValue = VarlinkJSON.JSONValue

/// A sink that collects members as JSON values: VarlinkJSON's `JSONValueSink`.
public typealias JSONValueSink = VarlinkJSON.JSONValueSink

/// Serialises `JSONValue` to compact UTF-8 JSON, deterministically: VarlinkJSON's `JSONWriter`.
public typealias JSONWriter = VarlinkJSON.JSONWriter
