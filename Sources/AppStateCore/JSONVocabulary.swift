public import VarlinkJSON

// The JSON value and its codec are the Varlink library's (VarlinkJSON, a leaf with no I/O), so
// that the library needs nothing of appstate; the vocabulary names each of its public types, as
// it names its own, so that StateContainers and AppStateIPC pass them on to their users.

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
