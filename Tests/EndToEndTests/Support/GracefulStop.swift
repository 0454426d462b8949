import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

extension XCTestCase {
    /// Stops a web front-end as systemd does (SIGTERM) while a page follows its event stream,
    /// and checks that the stream ends, rather than leave the page on a dead connection, and
    /// that the process exits 0, within five seconds each.
    /// - Parameters:
    ///   - process: The front-end, running.
    ///   - page: A connection reading one of its event streams.
    func assertGracefulStop(of process: Process, whileReading page: HTTPTestConnection, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let exited = expectation(description: "exited")
        process.terminationHandler = { _ in exited.fulfill() }
        XCTAssertEqual(kill(process.processIdentifier, SIGTERM), 0, file: file, line: line)
        // Events already under way may come first; then the end, not a time-out.
        while try page.readEvent(timeout: .seconds(5)) != nil {}
        wait(for: [exited], timeout: 5)
        XCTAssertEqual(process.terminationReason, .exit, file: file, line: line)
        XCTAssertEqual(process.terminationStatus, 0, file: file, line: line)
    }
}
