import Glibc

/// Standard output and standard error, written without Foundation.
enum Console {
    /// Writes a line to standard output and flushes it, so that a reader at the other
    /// end of a pipe (`appstatectl watch | …`) sees each line as it happens.
    static func output(_ line: String) {
        print(line)
        fflush(nil)
    }

    /// Writes a line to standard error, prefixed with the program's name as Unix tools do.
    static func error(_ line: String) {
        let text = "appstatectl: \(line)\n"
        var remaining = Array(text.utf8)[...]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            remaining = remaining.dropFirst(written)
        }
    }
}
