import VarlinkIDL

/// Which Swift a `type` of the interface gets in the module being generated, as the build
/// plugin asks for it with `--type NAME[=SWIFTNAME][:ROLE]`.
struct TypePlacement {
    /// What the generator writes for the type.
    enum Role: String {
        /// The struct itself, its members the interface's (`MyType`).
        case declare
        /// The struct of its members as `SWIFTNAME.Members`, for a Swift type declared by
        /// hand that keeps them its own way and converts with `init(members:)` and `members`
        /// (a rectangle kept as an origin and a size).
        case members
        /// The struct of its members as `SWIFTNAME.Members`, held in a copy-on-write box that
        /// the hand-declared type keeps as `storage` (a recursive value shared by many copies):
        /// the members' accessors, the memberwise initialiser and the comparison of its own
        /// members too.
        case box
        /// The type is declared by a module this one imports: only its Varlink conformance.
        case imported
    }

    /// The interface's name of the type.
    let name: String
    /// Its name in Swift.
    let swiftName: String
    let role: Role

    /// Reads `Item=ItemValue:box`, `Frame:members`, `MyType`.
    init(parsing text: String) throws(InterfaceDefinitionError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let names = parts.first, !names.isEmpty else {
            throw InterfaceDefinitionError("--type \(text): expected NAME[=SWIFTNAME][:ROLE]")
        }
        let role = parts.count == 2 ? Role(rawValue: String(parts[1])) : .declare
        guard let role else { throw InterfaceDefinitionError("--type \(text): unknown role \(parts[1])") }
        let renamed = names.split(separator: "=")
        name = String(renamed[0])
        swiftName = String(renamed.count > 1 ? renamed[1] : renamed[0])
        self.role = role
    }
}
