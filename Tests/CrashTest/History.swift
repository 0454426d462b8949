/// The restorable state of the default tree as four registers, each written by absolute
/// operations: who is logged in, the page index, the active menu item, and the navigation
/// stack (written by one client only, so that each of its operations has one outcome).
enum Register: String, CaseIterable, Sendable {
    case user
    case page
    case menu
    case navigation
}

/// The value of every register, as read from a tree snapshot.
struct RegisterValues: Equatable, Sendable, CustomStringConvertible {
    var values: [Register: String]

    subscript(register: Register) -> String {
        get { values[register] ?? "?" }
        set { values[register] = newValue }
    }

    var description: String {
        Register.allCases.map { "\($0.rawValue)=\(self[$0].isEmpty ? "-" : self[$0])" }.joined(separator: " ")
    }
}

/// One mutation sent by a client: the register it writes, the value it writes, when it
/// was sent and what came back.
struct Operation: Sendable {
    enum Outcome: Sendable, Equatable {
        /// The reply arrived: the daemon said the change is durable.
        case acknowledged(ContinuousClock.Instant)
        /// An error reply: declared errors change nothing.
        case refused(String)
        /// No reply before the daemon died: the change may or may not have been made.
        case inFlight
    }

    let register: Register
    let value: String
    let method: String
    let sent: ContinuousClock.Instant
    var outcome: Outcome
}

/// Decides whether a restored register value is one that a linearizable, durable daemon
/// could have restored after acknowledging what it acknowledged.
///
/// Writes are absolute, so the register holds the value of the last write applied. Every
/// acknowledged write is applied (it was durable before its reply); an in-flight write may
/// or may not be. An acknowledged write `w` is certainly overwritten when another
/// acknowledged write was *sent* after `w`'s reply arrived (it then took effect after
/// `w`). So the restored value must be the value of an in-flight write, or of an
/// acknowledged write that nothing acknowledged certainly overwrote, or — only when
/// nothing was acknowledged — the value the register had when the trial began.
enum Linearizability {
    static func candidates(initial: String, operations: [Operation]) -> Set<String> {
        var candidates = Set<String>()
        var acknowledged: [(sent: ContinuousClock.Instant, replied: ContinuousClock.Instant, value: String)] = []
        for operation in operations {
            switch operation.outcome {
            case .inFlight: candidates.insert(operation.value)
            case .acknowledged(let replied): acknowledged.append((operation.sent, replied, operation.value))
            case .refused: break
            }
        }
        if acknowledged.isEmpty { candidates.insert(initial) }
        let lastSent = acknowledged.map(\.sent).max()
        for write in acknowledged {
            // Certainly overwritten if some acknowledged write was sent after this reply.
            if let lastSent, lastSent > write.replied { continue }
            candidates.insert(write.value)
        }
        return candidates
    }
}
