/// The libFuzzer entry point shared by every target: each target defines `fuzz(_:)`, which
/// runs one input and traps (through ``require(_:_:)``) when an invariant breaks, so that
/// libFuzzer saves the input as a crash.
@c(LLVMFuzzerTestOneInput)
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzz(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// Stops the run when an invariant does not hold; libFuzzer reports the message and keeps the input.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}
