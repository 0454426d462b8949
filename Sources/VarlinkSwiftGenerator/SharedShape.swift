import VarlinkIDL

/// A type written by hand for one list of members, which a method's parameters or reply of
/// exactly those members use instead of a struct of their own, as the build plugin asks with
/// `--shape TYPE=MEMBERS`: so that code can handle every method of that shape alike, or decode
/// it by hand where the derived decoding is too slow.
struct SharedShape {
    /// The Swift type, declared by hand in the module or one it imports.
    let type: String
    /// The members, `name:type` joined by `,` in declaration order; empty for no members.
    let members: String

    /// Reads `Parameters=name:?string,count:int`, or `Empty=` for no members.
    init(parsing text: String) throws(InterfaceDefinitionError) {
        guard let equals = text.firstIndex(of: "="), equals > text.startIndex else {
            throw InterfaceDefinitionError("--shape \(text): expected TYPE=MEMBERS")
        }
        type = String(text[..<equals])
        members = String(text[text.index(after: equals)...])
    }
}
