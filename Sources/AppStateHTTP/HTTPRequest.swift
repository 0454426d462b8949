import NIOHTTP1

/// One request, whole: its head and its body, read up to ``HTTPServerLimits/maximumBodySize``.
public struct HTTPRequest: Sendable {
    /// The method, e.g. `GET`.
    public var method: String
    /// The request target as sent, e.g. `/watch?path=session`.
    public var target: String
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body's bytes; empty when there is none.
    public var body: [UInt8]

    /// Creates a request.
    /// - Parameters:
    ///   - method: The method.
    ///   - target: The request target.
    ///   - headers: The header fields.
    ///   - body: The body.
    public init(method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The target's path, before any `?`, as sent (not percent-decoded).
    public var path: Substring {
        target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }

    /// The target's query, after the first `?`; empty without one.
    public var query: Substring {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return parts.count > 1 ? parts[1] : ""
    }

    /// The first value of a query parameter, percent-decoded with `+` as a space, as forms
    /// and `URLSearchParams` write them.
    /// - Parameter name: The parameter's name.
    /// - Returns: The value; `nil` when absent or not decodable.
    public func queryValue(_ name: String) -> String? {
        for item in query.split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if Self.percentDecoded(pair[0], plusAsSpace: true) == name {
                return Self.percentDecoded(pair.count > 1 ? pair[1] : "", plusAsSpace: true)
            }
        }
        return nil
    }

    /// The first value of a header field, e.g. `Origin`; names are matched without case.
    /// - Parameter name: The field's name.
    public func header(_ name: String) -> String? {
        headers.first(name: name)
    }

    /// The names of the cookies the request carries, in order, each once.
    public var cookieNames: [String] {
        var names: [String] = []
        for pair in headers["cookie"].flatMap({ $0.split(separator: ";") }) {
            let name = String(pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0].trimmingSpaces)
            if !name.isEmpty, !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The value of a cookie the request carries.
    /// - Parameter name: The cookie's name.
    /// - Returns: Every value sent under the name (a browser may send one per path), in order.
    public func cookies(named name: String) -> [Substring] {
        headers["cookie"].flatMap { $0.split(separator: ";") }.compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].trimmingSpaces == name else { return nil }
            return parts[1].trimmingSpaces
        }
    }

    /// Decodes `%XX` escapes (and `+`, when asked) in a URL's part.
    /// - Parameters:
    ///   - text: The encoded text.
    ///   - plusAsSpace: Whether `+` stands for a space, as in a query.
    /// - Returns: The text; `nil` when an escape is malformed or the bytes are not UTF-8.
    public static func percentDecoded(_ text: Substring, plusAsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusAsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Substring {
    /// The text without the spaces and tabs around it, as header values are read.
    fileprivate var trimmingSpaces: Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return self[first...last]
    }
}
