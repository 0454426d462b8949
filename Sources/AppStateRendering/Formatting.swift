import AppStateCore

/// How numbers, rectangles, insets and durations are written for people: the way a
/// window geometry is written on X11 (`1280×800+0+0`), without trailing `.0`s.
public enum Formatting {
    /// A number without a fraction when it has none (`800`, not `800.0`), else in the
    /// shortest form that reads back the same (`0.25`).
    public static func number(_ value: Double) -> String {
        if let integer = Int(exactly: value) { return String(integer) }
        return String(value)
    }

    /// A rectangle as `WIDTH×HEIGHT+X+Y`, e.g. `1280×800+0+0`; a negative origin is
    /// written with its own sign (`1280×800-10+0`).
    public static func frame(_ rect: Rect) -> String {
        "\(number(rect.size.width))×\(number(rect.size.height))\(signed(rect.origin.x))\(signed(rect.origin.y))"
    }

    /// The edges of insets that are not zero, e.g. `inset bottom 336`; `nil` when all are
    /// zero, which is the common case and not worth a word.
    public static func insets(_ insets: Insets) -> String? {
        let edges = [("top", insets.top), ("left", insets.left), ("bottom", insets.bottom), ("right", insets.right)]
            .filter { $0.1 != 0 }
            .map { "\($0.0) \(number($0.1))" }
        return edges.isEmpty ? nil : "inset " + edges.joined(separator: " ")
    }

    /// A duration in seconds as `systemctl status` writes uptimes, to the two largest
    /// units: `42s`, `5min 3s`, `2h 7min`, `3d 4h`.
    public static func uptime(seconds: Double) -> String {
        // Clamped so that a nonsensical reply cannot trap the conversion.
        let total = seconds.isFinite ? Int(min(max(seconds, 0), 1e15)) : 0
        let units = [("d", 86_400), ("h", 3_600), ("min", 60), ("s", 1)]
        guard let first = units.firstIndex(where: { total >= $0.1 }) else { return "0s" }
        var text = "\(total / units[first].1)\(units[first].0)"
        if first + 1 < units.count {
            let (name, size) = units[first + 1]
            let next = total % units[first].1 / size
            if next > 0 { text += " \(next)\(name)" }
        }
        return text
    }

    /// A number of seconds with its unit, e.g. `1 second`, `5 seconds`, `0.5 seconds`.
    public static func seconds(_ value: Double) -> String {
        "\(number(value)) second\(value == 1 ? "" : "s")"
    }

    /// A count with its noun, e.g. `1 page`, `3 pages`.
    public static func count(_ value: Int, _ singular: String) -> String {
        "\(value) \(singular)\(value == 1 ? "" : "s")"
    }

    private static func signed(_ value: Double) -> String {
        value < 0 ? number(value) : "+" + number(value)
    }
}
