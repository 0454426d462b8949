import AppStateCore
import AppStateIPC

/// The `KEY=VALUE` arguments of `appstatectl post`, turned into a notification's userInfo.
///
/// A value that is valid JSON is taken as JSON, so `height=336`, `animated=true`,
/// `user=null`, `frame={"x":0,"y":464,"width":1280,"height":336}` and `name="007"` carry
/// a number, a Boolean, null, an object and a string; anything else is taken as a plain
/// string, so `user=ada` needs no quotes.
public enum UserInfoArguments {
    /// Parses the arguments.
    /// - Parameter arguments: `KEY=VALUE` words; the first `=` separates key and value.
    /// - Returns: The userInfo.
    /// - Throws: ``ArgumentError`` for a word without `=`, an empty key, or a key given twice.
    public static func parse(_ arguments: [String]) throws(ArgumentError) -> [String: JSONValue] {
        var userInfo: [String: JSONValue] = [:]
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "=") else {
                throw ArgumentError("\"\(argument)\" is not KEY=VALUE")
            }
            let key = String(argument[..<equals])
            guard !key.isEmpty else { throw ArgumentError("\"\(argument)\" has no key before =") }
            guard userInfo[key] == nil else { throw ArgumentError("the key \"\(key)\" is given twice") }
            userInfo[key] = value(String(argument[argument.index(after: equals)...]))
        }
        return userInfo
    }

    /// A value as JSON when it is valid JSON, else as a string.
    /// - Parameter text: The text after `=`.
    /// - Returns: The value.
    public static func value(_ text: String) -> JSONValue {
        (try? JSONValue(jsonText: text)) ?? .string(text)
    }
}
