import Glibc

/// A pipe through which other threads wake the thread of a Wayland client, which waits in
/// `poll` on it beside its connection. Both ends are closed on exec and never block.
package final class WakePipe: Sendable {
    /// The end the client's thread waits on; -1 when the pipe could not be made.
    package let readEnd: CInt
    private let writeEnd: CInt

    /// Makes the pipe; ``isOpen`` says whether it could be.
    package init() {
        var descriptors: [CInt] = [-1, -1]
        guard pipe(&descriptors) == 0 else {
            (readEnd, writeEnd) = (-1, -1)
            return
        }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        (readEnd, writeEnd) = (descriptors[0], descriptors[1])
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Whether the pipe was made.
    package var isOpen: Bool { readEnd >= 0 }

    /// Wakes the waiting thread.
    package func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Takes what ``signal()`` wrote, so that the next wait blocks again.
    package func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &bytes, bytes.count) > 0 {}
    }

    /// Waits until ``signal()`` or the time is up.
    /// - Parameter delay: The longest wait.
    package func wait(_ delay: Duration) {
        let (seconds, attoseconds) = delay.components
        wait(milliseconds: CInt(seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }

    /// Waits until ``signal()``.
    package func waitForSignal() {
        wait(milliseconds: -1)
    }

    private func wait(milliseconds: CInt) {
        var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, milliseconds)
    }
}
