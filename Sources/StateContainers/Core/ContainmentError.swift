/// A misuse of the containment model or a container's API: thrown, never trapped on.
///
/// Compare with the static members to tell kinds apart (`error == .cycle`); the
/// ``description`` names the controllers involved.
public struct ContainmentError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: String, Hashable, Sendable {
        case cycle
        case duplicateIdentifier
        case notAChild
        case notSiblings
        case transitionInProgress
        case outOfRange
        case alreadyLoggedIn
        case noSuchChild
        case invalidArgument
        case alreadyPresenting
    }

    private let code: Code
    /// What went wrong, in words, naming the controllers involved.
    public let description: String

    private init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    public static func == (lhs: ContainmentError, rhs: ContainmentError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// A controller added to itself or to one of its descendants.
    public static let cycle = ContainmentError(.cycle, "a controller cannot contain itself or an ancestor")
    /// Two siblings with the same identifier.
    public static let duplicateIdentifier = ContainmentError(.duplicateIdentifier, "duplicate sibling identifier")
    /// A controller that is not a child of the receiver where one was required.
    public static let notAChild = ContainmentError(.notAChild, "not a child of this controller")
    /// `transition(from:to:)` between controllers that are not both children of the receiver.
    public static let notSiblings = ContainmentError(.notSiblings, "transition needs two children of the receiver")
    /// A transition started while another one on the same container is still running.
    public static let transitionInProgress = ContainmentError(.transitionInProgress, "a transition is already in progress")
    /// An index or step outside the valid range.
    public static let outOfRange = ContainmentError(.outOfRange, "out of range")
    /// A log-in while another user is logged in and switching was not asked for.
    public static let alreadyLoggedIn = ContainmentError(.alreadyLoggedIn, "another user is logged in")
    /// A child identifier that names no child of the container.
    public static let noSuchChild = ContainmentError(.noSuchChild, "no such child")
    /// An argument that can never be valid (empty identifier, negative size, …).
    public static let invalidArgument = ContainmentError(.invalidArgument, "invalid argument")
    /// A presentation asked of a presentation context that already presents a controller.
    public static let alreadyPresenting = ContainmentError(.alreadyPresenting, "already presenting a controller")

    /// The same kind of error with a more specific message.
    /// - Parameter description: The message naming what went wrong.
    /// - Returns: An error equal to the receiver, with the new message.
    public func with(_ description: String) -> ContainmentError {
        ContainmentError(code, description)
    }
}
