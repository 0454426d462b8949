import AppStateCore
import AppStateIPC
import NIOConcurrencyHelpers
import StateContainers

/// The latest ``TreeSnapshots``, published by the main actor after every change and read by
/// the connections' event loops: reads need no hop to the main actor, and the trees are
/// never touched off it.
///
/// Each read reply is encoded once per publication and then served as bytes, so a client
/// asking the same question again and again costs a lookup, not an encoding.
final class PublishedTrees: Sendable {
    /// A read, as far as its reply depends on it: the method and its parameters.
    struct Question: Hashable, Sendable {
        let method: String
        let parameters: [String: JSONValue]
    }

    private struct Publication {
        var snapshots: TreeSnapshots
        var number = 0
        /// Encoded reply frames; only answers (not errors) are kept, so the questions are
        /// bounded by the trees' nodes.
        var replies: [Question: [UInt8]] = [:]
        /// The size of each reply frame the publication before encoded: a large reply asked
        /// again after a change is written into room made once rather than grown through its
        /// doublings.
        var sizes: [Question: Int] = [:]
    }

    /// A pthread mutex (NIOLockedValueBox) rather than `Synchronization.Mutex`, whose
    /// futex-based lock ThreadSanitizer cannot see on Linux.
    private let latest: NIOLockedValueBox<Publication>

    init(_ snapshots: TreeSnapshots) {
        latest = NIOLockedValueBox(Publication(snapshots: snapshots))
    }

    /// The trees as last published.
    var snapshots: TreeSnapshots {
        latest.withLockedValue { $0.snapshots }
    }

    /// Replaces what readers see.
    func publish(_ snapshots: TreeSnapshots) {
        latest.withLockedValue { publication in
            publication = Publication(snapshots: snapshots, number: publication.number + 1, sizes: publication.replies.mapValues(\.count))
        }
    }

    /// Appends the reply frame to a question about the latest publication.
    /// - Parameters:
    ///   - question: The read.
    ///   - buffer: Where the NUL-terminated reply frame goes.
    ///   - answer: Appends the reply's frame from the snapshots, when not encoded yet.
    /// - Throws: What `answer` throws; the error is not kept and nothing is appended.
    func reply(
        to question: Question,
        into buffer: inout [UInt8],
        answer: (TreeSnapshots, inout [UInt8]) throws(VarlinkError) -> Void
    ) throws(VarlinkError) {
        // The snapshots are taken only when the reply must be encoded, which spares the
        // common case their reference count.
        let (snapshots, number, size) = latest.withLockedValue { publication -> (TreeSnapshots?, Int, Int) in
            if let encoded = publication.replies[question] {
                buffer.append(contentsOf: encoded)
                return (nil, publication.number, 0)
            }
            return (publication.snapshots, publication.number, publication.sizes[question] ?? 0)
        }
        guard let snapshots else { return }
        // Encoded outside the lock: other event loops keep reading meanwhile.
        let start = buffer.endIndex
        buffer.reserveCapacity(start + size)
        do throws(VarlinkError) {
            try answer(snapshots, &buffer)
        } catch {
            buffer.removeSubrange(start...)
            throw error
        }
        let frame = Array(buffer[start...])
        latest.withLockedValue { publication in
            if publication.number == number { publication.replies[question] = frame }
        }
    }
}
