import Varlink

/// How a processor's replies to a batch map onto its calls (see ``CallProcessor``): one entry
/// per call, nil for a `oneway` call, except that a call with `more` may be answered by
/// several replies, all but its last with `continues`. When the batch's last entry has
/// `continues`, its call goes on as a stream, which ends the batch.
enum BatchReplies {
    /// Whether the replies end with a call that goes on as a stream.
    /// - Parameter replies: The replies to a batch.
    static func streams(_ replies: [VarlinkReply?]) -> Bool {
        replies.last??.continues == true
    }

    /// How many calls of the batch the replies answer, the one that streams included.
    /// - Parameter replies: The replies to a batch.
    static func callsAnswered(_ replies: [VarlinkReply?]) -> Int {
        replies.count { $0?.continues != true } + (streams(replies) ? 1 : 0)
    }
}
