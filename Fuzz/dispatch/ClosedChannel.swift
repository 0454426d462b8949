import Glibc
import NIOCore
import NIOPosix

/// A real channel that is already closed, for the ``ConnectionContext`` calls need: a
/// `Watch` turns it into a watcher that the hub sees as gone, so nothing is ever written.
enum ClosedChannel {
    static let shared: any Channel = {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { fatalError("pipe: \(errno)") }
        do {
            let channel = try NIOPipeBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .takingOwnershipOfDescriptors(input: fds[0], output: fds[1]).wait()
            try channel.close().wait()
            return channel
        } catch {
            fatalError("cannot make a channel: \(error)")
        }
    }()
}
