import AppStateCore
import StateContainers

/// A JSON tree file's parsed value as `node(_:depth:)` reads it: each shape
/// as ``JSONValueDecoder`` reads it, strictly (`"id": 3` is not a string).
package struct JSONSpecDocument: SpecDocument {
    /// Creates the reading.
    package init() {}

    package func members(of value: JSONValue) -> [String: JSONValue]? { value.objectValue }

    package func elements(of value: JSONValue) -> [JSONValue]? { value.arrayValue }

    package func string(_ value: JSONValue) -> String? { value.stringValue }

    package func number(_ value: JSONValue) -> Double? { value.doubleValue }

    package func isNull(_ value: JSONValue) -> Bool { value == .null }
}
