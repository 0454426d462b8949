import AppStateCore
import FoundationEssentials

/// Who is logged in to a ``LoginStateController``, and since when.
public struct Session: Hashable, Sendable, Codable {
    /// The logged-in user's name.
    public let user: String
    /// When the user logged in.
    public let since: Date

    /// Creates a session.
    /// - Parameters:
    ///   - user: The user's name; see ``validate(user:)``.
    ///   - since: When the user logged in.
    public init(user: String, since: Date) {
        self.user = user
        self.since = since
    }

    /// Checks that a name can be a user's: `PrintableName`'s rule, so that it prints on
    /// one line in logs, snapshots and `appstatectl`.
    /// - Parameter user: The candidate name.
    /// - Throws: ``ContainmentError/invalidArgument`` saying what is wrong with it.
    public static func validate(user: String) throws(ContainmentError) {
        if let problem = PrintableName.problem(with: user) {
            throw ContainmentError.invalidArgument.with("the user name \(problem)")
        }
    }
}
