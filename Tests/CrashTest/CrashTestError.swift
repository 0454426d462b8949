/// A problem that stops a crash test: a bad option, or a daemon that is not what it expects.
struct CrashTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
