import AppStateCore

/// The keyed state one controller saves and restores, as `NSCoder` is for UIKit's state
/// restoration. Values are JSON so that the saved document is plain, versioned JSON.
@MainActor public final class RestorationCoder {
    /// Everything encoded so far, by key.
    public private(set) var values: [String: JSONValue]

    /// Creates a coder.
    /// - Parameter values: Saved values to decode from; empty to encode into.
    public init(values: [String: JSONValue] = [:]) {
        self.values = values
    }

    /// Saves a value.
    /// - Parameters:
    ///   - value: The value.
    ///   - key: The key it is saved under.
    public func encode(_ value: JSONValue, forKey key: String) {
        values[key] = value
    }

    /// Saves a string.
    /// - Parameters:
    ///   - value: The string.
    ///   - key: The key it is saved under.
    public func encode(_ value: String, forKey key: String) {
        values[key] = .string(value)
    }

    /// Saves an integer.
    /// - Parameters:
    ///   - value: The integer.
    ///   - key: The key it is saved under.
    public func encode(_ value: Int, forKey key: String) {
        values[key] = .number(Double(value))
    }

    /// Saves a list of strings.
    /// - Parameters:
    ///   - value: The strings.
    ///   - key: The key they are saved under.
    public func encode(_ value: [String], forKey key: String) {
        values[key] = .array(value.map(JSONValue.string))
    }

    /// Forgets every value, so that one coder encodes controller after controller.
    func removeAllValues() {
        values = [:]
    }

    /// Whether a value is saved under `key`.
    /// - Parameter key: The key.
    public func containsValue(forKey key: String) -> Bool {
        values[key] != nil
    }

    /// The string saved under `key`, if a string is.
    /// - Parameter key: The key.
    public func decodeString(forKey key: String) -> String? {
        values[key]?.stringValue
    }

    /// The integer saved under `key`, if an integral number is.
    /// - Parameter key: The key.
    public func decodeInteger(forKey key: String) -> Int? {
        values[key]?.intValue
    }

    /// The strings saved under `key`, if a list of strings is.
    /// - Parameter key: The key.
    public func decodeStrings(forKey key: String) -> [String]? {
        guard let array = values[key]?.arrayValue else { return nil }
        let strings = array.compactMap(\.stringValue)
        return strings.count == array.count ? strings : nil
    }
}
