/// A kind of controller that a tree file can name in `type`: what its node may hold, the rules
/// its values follow, and how the controller is made from it.
///
/// Each container declares its kind once, in its own file (`PaginatedController.Kind`), and
/// ``ControllerKinds`` lists the kinds: decoding, the validator and ``TreeBuilder`` know a
/// kind only through this protocol, so a new container is its own file and one line of that
/// list. What a container adds to its snapshot it says in ``Controller/describe(in:)``.
public protocol ControllerKind: Sendable {
    /// The name files give in `type`: the class's name, as snapshots report it.
    static var typeName: String { get }

    /// How many children the node takes, and what they are.
    static var children: ChildRule { get }

    /// The keys the node takes besides those every node has.
    static var keys: [NodeKey] { get }

    /// Checks what the child rule and each key's own rule cannot: rules between keys, or
    /// between keys and children. Called with the children counted and the keys checked.
    /// - Parameters:
    ///   - node: The node.
    ///   - report: Takes each problem, with its place below the node (`[.key("state")]`, or
    ///     `[]` for the node itself).
    static func validate(_ node: NodeSpec, report: (_ place: [TreeFileError.PathComponent], _ problem: String) -> Void)

    /// Makes the controller of a node that passed validation.
    /// - Parameters:
    ///   - node: The node.
    ///   - children: Its children, built, as many as ``children`` allows.
    ///   - build: Builds a subtree of the node afresh each time it is called, such as a
    ///     screen a navigation controller pushes later: one of the node's ``NodeValue/nodes(_:)``
    ///     values, already validated, built once with the tree and reported with its place.
    /// - Returns: The controller, holding its children.
    /// - Throws: What the container's initialiser or set-up throws.
    @MainActor static func make(_ node: NodeSpec, children: [Controller], build: @escaping @MainActor (NodeSpec) -> Controller?) throws -> Controller
}

extension ControllerKind {
    /// No keys beyond those every node has.
    public static var keys: [NodeKey] { [] }

    /// Nothing to check beyond the child rule and the keys' own rules.
    /// - Parameters:
    ///   - node: The node.
    ///   - report: Takes each problem.
    public static func validate(_ node: NodeSpec, report: (_ place: [TreeFileError.PathComponent], _ problem: String) -> Void) {}
}
