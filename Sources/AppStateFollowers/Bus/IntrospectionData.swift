/// What a D-Bus object's introspection XML (`org.freedesktop.DBus.Introspectable.Introspect`)
/// declares, read only as far as a follower needs: whether an interface has a property of a
/// type. Services change their interfaces between versions (an older KWin's virtual keyboard
/// has `enabled` and `active` but no `visible`), so a follower asks before it reads.
package enum IntrospectionData {
    /// Whether the XML declares `interface` with a property `name` of one of the D-Bus `types`.
    /// - Parameters:
    ///   - xml: The introspection data.
    ///   - interface: The interface's name.
    ///   - name: The property's name.
    ///   - types: The type signatures it may have, e.g. `b`.
    package static func declares(_ xml: String, interface: String, property name: String, types: Set<String>) -> Bool {
        var rest = Substring(xml)
        while let tag = nextTag(in: &rest) {
            guard tag.name == "interface", tag.attributes["name"] == interface, !tag.closesItself else { continue }
            while let member = nextTag(in: &rest), member.name != "/interface" {
                if member.name == "property", member.attributes["name"] == name, member.attributes["type"].map(types.contains) == true { return true }
            }
        }
        return false
    }

    private struct Tag {
        var name: Substring
        var attributes: [String: String]
        var closesItself: Bool
    }

    /// The next element tag in `text` (comments and declarations skipped), moving `text` past it.
    private static func nextTag(in text: inout Substring) -> Tag? {
        while let start = text.firstIndex(of: "<") {
            text = text[text.index(after: start)...]
            guard let end = text.firstIndex(of: ">") else { return nil }
            let body = text[..<end]
            text = text[text.index(after: end)...]
            if body.hasPrefix("!") || body.hasPrefix("?") { continue }
            let closesItself = body.hasSuffix("/")
            let content = closesItself ? body.dropLast() : body
            let name = content.prefix { !$0.isWhitespace }
            return Tag(name: name, attributes: attributes(content.dropFirst(name.count)), closesItself: closesItself)
        }
        return nil
    }

    /// `name="value"` and `name='value'` pairs.
    private static func attributes(_ text: Substring) -> [String: String] {
        var attributes: [String: String] = [:]
        var rest = text
        while let equals = rest.firstIndex(of: "=") {
            let key = rest[..<equals].trimmingPrefix(while: \.isWhitespace).prefix { !$0.isWhitespace && $0 != "=" }
            let afterEquals = rest[rest.index(after: equals)...].drop(while: \.isWhitespace)
            guard let quote = afterEquals.first, quote == "\"" || quote == "'" else { break }
            let valueStart = afterEquals.dropFirst()
            guard let close = valueStart.firstIndex(of: quote) else { break }
            attributes[String(key)] = String(valueStart[..<close])
            rest = valueStart[valueStart.index(after: close)...]
        }
        return attributes
    }
}
