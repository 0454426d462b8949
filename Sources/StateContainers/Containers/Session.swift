import FoundationEssentials

/// Who is logged in to a ``LoginStateController``, and since when.
public struct Session: Hashable, Sendable, Codable {
    /// The logged-in user's name.
    public let user: String
    /// When the user logged in.
    public let since: Date

    /// Creates a session.
    /// - Parameters:
    ///   - user: The user's name; see ``isValid(user:)``.
    ///   - since: When the user logged in.
    public init(user: String, since: Date) {
        self.user = user
        self.since = since
    }

    /// Whether a name can be a user's: non-empty, not only white space, and free of control
    /// characters, so that it prints on one line in logs, snapshots and `appstatectl`.
    /// - Parameter user: The candidate name.
    public static func isValid(user: String) -> Bool {
        !user.unicodeScalars.allSatisfy(\.properties.isWhitespace)
            && !user.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
