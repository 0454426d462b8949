import Foundation

/// The absolute path of a program the tests run, looked up in `PATH` (and the sbin
/// directories, where some systemd tools live) unless already absolute.
///
/// A missing program is a failure that names the command installing it, never a skip: the
/// test command installs everything the tests run.
/// - Parameter name: The program's name, or an absolute path.
/// - Throws: ``TestFailure`` when it is not installed.
public func resolveExecutable(_ name: String) throws -> String {
    if name.hasPrefix("/") { return name }
    let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/sbin:/sbin:/usr/bin:/bin"
    for directory in path.split(separator: ":") {
        let candidate = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw TestFailure("\(name) is not installed: `scripts/install-deps --test` installs it (`make test` runs it)")
}

/// A failure with a message, thrown where XCTest should report it as is.
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
