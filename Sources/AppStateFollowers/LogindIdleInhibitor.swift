import ServicePorts
import Synchronization

/// The daemon's idle inhibitor with logind, as the host wants it: held with a reason, or not.
/// The host sets it from the main actor; ``LogindInhibitorSource`` carries it out on its
/// follower's thread, which takes or closes logind's file descriptor.
package final class LogindIdleInhibitor: SystemIdleInhibitor {
    private let wanted = Mutex<String?>(nil)

    /// No inhibitor wanted yet.
    package init() {}

    package func hold(_ why: String?) {
        wanted.withLock { $0 = why }
    }

    /// The reason to hold it with; nil when it is not wanted.
    var why: String? { wanted.withLock { $0 } }
}
