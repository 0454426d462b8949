/// How many children a kind of node takes, and what they are: the rule the tree-file
/// validator reports, the builder relies on, and a container's initialiser applies where its
/// children come as a list.
public struct ChildRule: Hashable, Sendable {
    /// The fewest children.
    public let minimum: Int
    /// The most children; nil for no limit.
    public let maximum: Int?
    /// What the children are, in the words of error messages (`its pages`; `primary,
    /// secondary`); nil for a kind without children.
    public let roles: String?

    /// A rule.
    /// - Parameters:
    ///   - minimum: The fewest children.
    ///   - maximum: The most children; nil for no limit.
    ///   - roles: What the children are, in the words of error messages.
    public init(minimum: Int, maximum: Int?, roles: String?) {
        self.minimum = minimum
        self.maximum = maximum
        self.roles = roles
    }

    /// No children: a leaf.
    public static let none = ChildRule(minimum: 0, maximum: 0, roles: nil)

    /// What is wrong with a number of children, as a sentence about the kind
    /// (`a PaginatedController needs at least one child (its pages)`), or nil when it fits.
    /// - Parameters:
    ///   - count: The number of children.
    ///   - typeName: The kind's name, as files spell it.
    public func problem(count: Int, typeName: String) -> String? {
        guard count < minimum || maximum.map({ count > $0 }) == true else { return nil }
        let roles = self.roles.map { " (\($0))" } ?? ""
        let needs: String
        switch (minimum, maximum) {
        case (0, 0?): return "a \(typeName) has no children"
        case (0, let maximum?): needs = "has at most \(Self.children(maximum))"
        case (_, nil): needs = "needs at least \(Self.children(minimum))"
        case (let minimum, let maximum?) where minimum == maximum: needs = "needs exactly \(Self.children(minimum))"
        case (let minimum, let maximum?) where minimum + 1 == maximum: needs = "needs \(Self.number(minimum)) or \(Self.children(maximum))"
        case (let minimum, let maximum?): needs = "needs \(Self.number(minimum)) to \(Self.children(maximum))"
        }
        return "a \(typeName) \(needs)\(roles)"
    }

    /// `one child`, `two children`.
    private static func children(_ count: Int) -> String {
        "\(number(count)) \(count == 1 ? "child" : "children")"
    }

    /// Small numbers in words, as the messages read.
    private static func number(_ count: Int) -> String {
        let words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
        return words.indices.contains(count) ? words[count] : String(count)
    }
}
