import XCTest

/// Runs `body`, failing the test if it throws: the hooks that embed a child from inside a
/// callback cannot throw themselves.
func expectNoThrow(file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
    do { try body() } catch { XCTFail("unexpected error: \(error)", file: file, line: line) }
}
