/// The kinds of controller a tree file can name, in the order error messages list them: the
/// one list a new container joins (see ``ControllerKind``).
public enum ControllerKinds {
    /// Every kind.
    public static let all: [any ControllerKind.Type] = [
        Controller.Kind.self,
        ContentStateController.Kind.self,
        LoginStateController.Kind.self,
        PaginatedController.Kind.self,
        KeyboardAwareController.Kind.self,
        MenuController.Kind.self,
        StackController.Kind.self,
        NavigationController.Kind.self,
        SplitController.Kind.self,
    ]

    /// The kind a file names in `type`, if there is one.
    /// - Parameter typeName: The name, as the file spells it.
    public static func kind(named typeName: String) -> (any ControllerKind.Type)? {
        byName[typeName]
    }

    /// The names, comma-separated, as error messages list them.
    static let typeNames = all.map { $0.typeName }.joined(separator: ", ")

    /// Every kind's keys, each name once (the kinds that share a key share its declaration),
    /// in the order of the list.
    static let keys: [NodeKey] = {
        var seen: Set<String> = []
        return all.flatMap { $0.keys }.filter { seen.insert($0.name).inserted }
    }()

    /// ``keys`` by name.
    package static let keysByName = Dictionary(keys.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// The kinds that take a key, by its name.
    static func kinds(taking key: String) -> [any ControllerKind.Type] {
        all.filter { kind in kind.keys.contains { $0.name == key } }
    }

    private static let byName = Dictionary(all.map { ($0.typeName, $0) }, uniquingKeysWith: { first, _ in first })
}
