import AppStateCore

extension Size {
    /// The size as the callback logs write it, `WxH`, integral values without a fraction:
    /// one spelling for ``LoggingController``'s entries and for the tests that log a size.
    var logText: String {
        func number(_ value: Double) -> String {
            if let integer = Int(exactly: value) { return String(integer) }
            return String(value)
        }
        return "\(number(width))x\(number(height))"
    }
}
