/// What a scalar means when a value of a given type is expected: the rules of Yams'
/// constructors (Constructor.swift), the YAML 1.1 that tree files are written in, so that a
/// file means to the daemon what it means to Yams.
extension YAMLNode.Scalar {
    /// The tag the scalar has: its own, else the one its text gives it.
    var resolvedTag: String {
        tag ?? YAMLTag.resolve(plain: text)
    }

    /// Whether the scalar is null: plain `~`, `null`, `Null`, `NULL` or nothing. A quoted
    /// `'null'` is the string, and a tag does not change this (`!!str null` is null), as in Yams.
    var isNull: Bool {
        isPlain && ["", "~", "null", "Null", "NULL"].contains(text)
    }

    /// The scalar as a boolean: YAML 1.1's `true`/`yes`/`on` and `false`/`no`/`off` in any case,
    /// unless tagged as a string.
    var bool: Bool? {
        guard tag != YAMLTag.string else { return nil }
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }

    /// The scalar as a floating-point number: plain only; `.inf`, `-.inf` and `.nan` in any
    /// case; `_` ignored; `1:30` is base 60 (90); else what the standard library's parser
    /// reads (so `1e3`, `0x1p4` and `inf` too).
    func floatingPoint<F: BinaryFloatingPoint & LosslessStringConvertible>(_ type: F.Type) -> F? {
        guard isPlain else { return nil }
        switch text.lowercased() {
        case ".inf", "+.inf": return .infinity
        case "-.inf": return -.infinity
        case ".nan": return .nan
        default:
            let digits = text.filter { $0 != "_" }
            guard digits.contains(":") else { return F(digits) }
            let (isNegative, parts) = Self.sexagesimalParts(digits)
            var value: F = 0
            for part in parts {
                guard let part = F(String(part)) else { return nil }
                value = value * 60 + part
            }
            return isNegative ? -value : value
        }
    }

    /// The scalar as an integer: plain only; `_` ignored; `0x`, `0b`, `0o` and a leading `0`
    /// (octal) prefixes after an optional sign; `1:30` is base 60 (90). Nil when it does not
    /// fit `I`.
    func integer<I: FixedWidthInteger>(_ type: I.Type) -> I? {
        guard isPlain else { return nil }
        let withSign = text.filter { $0 != "_" }
        if withSign == "0" { return 0 }
        let isNegative = withSign.hasPrefix("-")
        guard I.isSigned || !isNegative else { return nil }
        let hasSign = isNegative || withSign.hasPrefix("+")
        let unsigned = withSign.dropFirst(hasSign ? 1 : 0)
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where unsigned.hasPrefix(prefix) {
            return I((isNegative ? "-" : "") + unsigned.dropFirst(prefix.count), radix: radix)
        }
        guard unsigned.contains(":") else { return I(withSign, radix: 10) }
        // Base 60, with overflow reported where Yams traps.
        let (_, parts) = Self.sexagesimalParts(withSign)
        var value: I = 0
        for part in parts {
            guard let part = I(part, radix: 10) else { return nil }
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 60)
            let (sum, overflowedAgain) = shifted.addingReportingOverflow(part)
            guard !overflowed, !overflowedAgain else { return nil }
            value = sum
        }
        return isNegative ? 0 - value : value
    }

    /// A base-60 number's sign and parts, most significant first: `-1:30` is (true, ["1", "30"]).
    private static func sexagesimalParts(_ text: String) -> (isNegative: Bool, parts: [Substring]) {
        let isNegative = text.hasPrefix("-")
        let digits = text.dropFirst(isNegative || text.hasPrefix("+") ? 1 : 0)
        return (isNegative, digits.split(separator: ":", omittingEmptySubsequences: false))
    }
}
