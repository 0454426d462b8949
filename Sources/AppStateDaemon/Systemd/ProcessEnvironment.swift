import Glibc

/// The process's environment as the daemon reads it: `environ`, without Foundation's
/// `ProcessInfo` (the daemon links no Foundation).
package enum ProcessEnvironment {
    /// Every variable of the process's environment, by name; for a name given twice, the first
    /// (the one `getenv` returns). An entry without `=` names nothing and is skipped.
    package static var current: [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "="), variables[String(text[..<equals])] == nil {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }
}
