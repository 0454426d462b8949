import NIOConcurrencyHelpers
import ServicePorts

/// The daemon's idle inhibitor with logind, as the host wants it: held with a reason, or not.
/// The host sets it from the main actor; ``LogindInhibitorSource`` carries it out on its
/// follower's thread, which takes or closes logind's file descriptor.
package final class LogindIdleInhibitor: SystemIdleInhibitor {
    /// A pthread mutex (NIOLockedValueBox), which ThreadSanitizer sees, unlike
    /// `Synchronization.Mutex`'s futex on Linux.
    private let wanted = NIOLockedValueBox<String?>(nil)

    /// No inhibitor wanted yet.
    package init() {}

    package func hold(_ why: String?) {
        wanted.withLockedValue { $0 = why }
    }

    /// The reason to hold it with; nil when it is not wanted.
    var why: String? { wanted.withLockedValue { $0 } }
}
