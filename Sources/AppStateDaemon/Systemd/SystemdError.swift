import Glibc

/// An error from the systemd integration layer: notification, socket activation, path
/// resolution or peer credentials.
///
/// Match on ``code``; ``description`` is a sentence fit for a log line or for stderr.
package struct SystemdError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, as a value callers can compare against the static members.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case notifyFailed
            case listenFileDescriptorsFailed
            case ambiguousListenFileDescriptors
            case notAListeningUnixStreamSocket
            case homeDirectoryUnknown
            case directoryCreationFailed
        }

        private let wrapped: Wrapped

        private init(_ wrapped: Wrapped) {
            self.wrapped = wrapped
        }

        /// `sd_notify` could not deliver a message to `NOTIFY_SOCKET`.
        package static let notifyFailed = Code(.notifyFailed)
        /// `sd_listen_fds_with_names` failed (for example a malformed `LISTEN_FDS`).
        package static let listenFileDescriptorsFailed = Code(.listenFileDescriptorsFailed)
        /// Several sockets were passed and none is named `varlink`.
        package static let ambiguousListenFileDescriptors = Code(.ambiguousListenFileDescriptors)
        /// The passed descriptor is not a listening `AF_UNIX` stream socket.
        package static let notAListeningUnixStreamSocket = Code(.notAListeningUnixStreamSocket)
        /// Neither `HOME` nor the password database gives a home directory.
        package static let homeDirectoryUnknown = Code(.homeDirectoryUnknown)
        /// A directory could not be created.
        package static let directoryCreationFailed = Code(.directoryCreationFailed)

        /// The code's name, e.g. `runtimeDirectoryUnset`.
        package var description: String { wrapped.rawValue }
    }

    /// What went wrong.
    package let code: Code
    /// The `errno` value of the failing call, when a system call failed.
    package let errno: CInt?
    /// A sentence naming what failed and why.
    package let message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - message: A sentence naming what failed, without the errno text.
    ///   - errno: The `errno` of the failing call; its `strerror` text is appended to ``description``.
    init(_ code: Code, _ message: String, errno: CInt? = nil) {
        self.code = code
        self.message = message
        self.errno = errno
    }

    /// The message, followed by the `strerror` text when there is an errno.
    package var description: String {
        guard let errno else { return message }
        return "\(message): \(String(cString: strerror(errno)))"
    }
}
