import CSystemd
import Glibc

/// Socket activation: the listening sockets systemd (or `systemd-socket-activate`) passed
/// to the daemon, following `sd_listen_fds_with_names(3)`.
package enum ListenedSockets {
    /// The `FileDescriptorName=` of the Varlink socket in `appstated.socket`.
    package static let varlinkName = "varlink"

    /// Takes the passed Varlink listening socket, if the daemon was socket-activated.
    ///
    /// The descriptor named ``varlinkName`` is chosen; when exactly one descriptor is passed
    /// it is chosen whatever its name, because a lone socket is unambiguous and
    /// `systemd-socket-activate` without `--fdname` names it `unknown`. The returned
    /// descriptor has `FD_CLOEXEC` set (libsystemd sets it on every passed descriptor),
    /// so children do not inherit the listening socket. Other passed descriptors are left
    /// open and untouched.
    ///
    /// `LISTEN_PID`, `LISTEN_FDS` and `LISTEN_FDNAMES` are removed from the environment so
    /// that children do not believe they were activated; a second call therefore returns
    /// `nil`. Call it once, early, before other threads read the environment.
    ///
    /// - Returns: The descriptor, ready for `ServerBootstrap.withBoundSocket(_:)`, or `nil`
    ///   when no sockets were passed to this process.
    /// - Throws: ``SystemdError`` with code
    ///   ``SystemdError/Code/listenFileDescriptorsFailed`` when the variables are malformed,
    ///   ``SystemdError/Code/ambiguousListenFileDescriptors`` when several descriptors are
    ///   passed and none is named ``varlinkName``, or
    ///   ``SystemdError/Code/notAListeningUnixStreamSocket`` when the chosen descriptor is
    ///   not a listening `AF_UNIX` stream socket.
    package static func takeVarlinkSocket() throws -> CInt? {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = sd_listen_fds_with_names(1, &names)
        defer {
            if let names {
                for index in 0..<Int(max(count, 0)) { free(names[index]) }
                free(names)
            }
        }
        if count < 0 {
            throw SystemdError(.listenFileDescriptorsFailed, "sd_listen_fds_with_names failed", errno: -count)
        }
        let nameList = (0..<Int(count)).map { index in names?[index].map { String(cString: $0) } ?? "" }
        guard let index = try selectVarlinkIndex(names: nameList) else { return nil }
        let descriptor = SD_LISTEN_FDS_START + CInt(index)
        guard sd_is_socket_unix(descriptor, CInt(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else {
            throw SystemdError(
                .notAListeningUnixStreamSocket,
                "passed file descriptor \(descriptor) (\(nameList[index])) is not a listening AF_UNIX stream socket"
            )
        }
        return descriptor
    }

    /// Chooses which of the passed descriptors is the Varlink socket.
    ///
    /// - Parameters:
    ///   - names: The names of the passed descriptors, in order (`LISTEN_FDNAMES`).
    /// - Returns: The index into `names`, or `nil` when `names` is empty.
    /// - Throws: ``SystemdError`` with code ``SystemdError/Code/ambiguousListenFileDescriptors``
    ///   when there are several names and none is ``varlinkName``.
    static func selectVarlinkIndex(names: [String]) throws -> Int? {
        if let index = names.firstIndex(of: varlinkName) { return index }
        switch names.count {
        case 0: return nil
        case 1: return 0
        default:
            throw SystemdError(
                .ambiguousListenFileDescriptors,
                "\(names.count) sockets were passed (\(names.joined(separator: ", "))) and none is named \"\(varlinkName)\""
            )
        }
    }
}
