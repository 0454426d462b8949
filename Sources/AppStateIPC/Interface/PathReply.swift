import AppStateCore

/// The reply of the methods that answer with the path of the child shown after the
/// change: ``Login``, ``SelectMenuItem``, ``Push`` and ``Pop``.
public struct PathReply: VarlinkObject {
    /// The members of the reply.
    public static let memberNames = ["path"]

    /// The full path of the child shown after the change.
    public var path: String

    /// Creates the reply.
    /// - Parameter path: The full path of the child shown after the change.
    public init(path: String) {
        self.path = path
    }
}
