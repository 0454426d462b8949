import Glibc

/// Timestamps for `appstatectl watch`: ISO 8601 in local time to the second, e.g.
/// `2026-11-21T21:59:18`, as a person reading a log next to the clock expects.
public enum LocalTime {
    /// The current time.
    public static func now() -> String {
        iso8601(secondsSinceEpoch: time(nil))
    }

    /// A moment in the local time zone (`TZ`, else the system's).
    /// - Parameter secondsSinceEpoch: Seconds since 1970-01-01T00:00:00Z.
    /// - Returns: `YYYY-MM-DDTHH:MM:SS`.
    public static func iso8601(secondsSinceEpoch: Int) -> String {
        var seconds = time_t(secondsSinceEpoch)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return String(secondsSinceEpoch) }
        return "\(padded(Int(parts.tm_year) + 1900, 4))-\(padded(Int(parts.tm_mon) + 1))-\(padded(Int(parts.tm_mday)))"
            + "T\(padded(Int(parts.tm_hour))):\(padded(Int(parts.tm_min))):\(padded(Int(parts.tm_sec)))"
    }

    private static func padded(_ value: Int, _ width: Int = 2) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
