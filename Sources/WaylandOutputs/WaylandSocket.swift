import Glibc

/// Where the compositor listens, by libwayland's rules: `WAYLAND_DISPLAY`, a path or a name in
/// `XDG_RUNTIME_DIR`. Without `WAYLAND_DISPLAY`, which a user unit started before the
/// compositor imported its environment does not have, the first `wayland-N` socket in
/// `XDG_RUNTIME_DIR`, N from 0 to 32 as compositors number them.
package enum WaylandSocket {
    /// The highest N of the `wayland-N` names compositors take.
    static let highestNumber = 32

    /// The socket's path.
    /// - Parameter searching: Whether, without `WAYLAND_DISPLAY`, the first socket in
    ///   `XDG_RUNTIME_DIR` is taken.
    /// - Throws: ``OutputError`` when the environment names none, or no socket is there.
    package static func path(searching: Bool = true) throws(OutputError) -> String {
        let runtime = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        if let display = getenv("WAYLAND_DISPLAY").map({ String(cString: $0) }), !display.isEmpty {
            if display.hasPrefix("/") { return display }
            guard let runtime else { throw OutputError("WAYLAND_DISPLAY is \(display) but XDG_RUNTIME_DIR is not set") }
            return "\(runtime)/\(display)"
        }
        guard searching else { throw OutputError("WAYLAND_DISPLAY is not set") }
        guard let runtime else { throw OutputError("neither WAYLAND_DISPLAY nor XDG_RUNTIME_DIR is set") }
        for number in 0...highestNumber {
            let path = "\(runtime)/wayland-\(number)"
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK { return path }
        }
        throw OutputError("no Wayland compositor's socket in \(runtime)")
    }
}
