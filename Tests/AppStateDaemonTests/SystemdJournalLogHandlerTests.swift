import Foundation
import Logging
import TestSupport
import XCTest

@testable import AppStateDaemon

final class SystemdJournalLogHandlerTests: AppStateTestCase {
    private struct TreeMissing: Error, CustomStringConvertible {
        var description: String { "no tree named kiosk" }
    }

    private func event(
        _ level: Logger.Level = .info,
        _ message: Logger.Message = "tree loaded",
        metadata: Logger.Metadata? = nil,
        error: (any Error)? = nil
    ) -> LogEvent {
        LogEvent(
            level: level,
            message: message,
            error: error,
            metadata: metadata,
            source: "AppStateService",
            file: "AppStateService/TreeHost.swift",
            function: "load(_:)",
            line: 42
        )
    }

    // MARK: Field building

    func testFields_whenEventHasMetadata_thenBuildsFixedFieldsThenPrefixedMetadataSortedByKey() {
        let handler = JournalLogHandler(label: "appstated.host", metadataProvider: nil)
        let fields = handler.fields(for: event(.notice, metadata: ["tree": "main", "event": "login"]))
        XCTAssertEqual(
            fields,
            [
                "MESSAGE=tree loaded",
                "PRIORITY=5",
                "SYSLOG_IDENTIFIER=appstated",
                "CODE_FILE=AppStateService/TreeHost.swift",
                "CODE_LINE=42",
                "CODE_FUNC=load(_:)",
                "APPSTATE_LOGGER=appstated.host",
                "APPSTATE_EVENT=login",
                "APPSTATE_TREE=main",
            ])
    }

    func testFields_whenHandlerProviderAndCallMetadataOverlap_thenCallWinsOverProviderOverHandler() {
        var handler = JournalLogHandler(
            label: "l",
            identifier: "appstated-test",
            metadataProvider: Logger.MetadataProvider { ["tree": "provided", "request": "7"] }
        )
        handler[metadataKey: "tree"] = "handler"
        handler[metadataKey: "connection"] = "3"
        XCTAssertEqual(handler[metadataKey: "connection"], "3")

        let fields = handler.fields(for: event(metadata: ["tree": "call"]))

        XCTAssertTrue(fields.contains("SYSLOG_IDENTIFIER=appstated-test"))
        XCTAssertEqual(
            fields.filter { $0.hasPrefix("APPSTATE_") && !$0.hasPrefix("APPSTATE_LOGGER=") },
            [
                "APPSTATE_CONNECTION=3",
                "APPSTATE_REQUEST=7",
                "APPSTATE_TREE=call",
            ])
    }

    func testFields_whenEventCarriesError_thenAddsErrorMessageAndType() {
        let handler = JournalLogHandler(label: "l", metadataProvider: nil)
        let fields = handler.fields(for: event(.error, "reload failed", error: TreeMissing()))
        XCTAssertTrue(fields.contains("PRIORITY=3"))
        XCTAssertTrue(fields.contains("APPSTATE_ERROR_MESSAGE=no tree named kiosk"), "\(fields)")
        XCTAssertTrue(fields.contains { $0.hasPrefix("APPSTATE_ERROR_TYPE=") && $0.hasSuffix("TreeMissing") }, "\(fields)")
    }

    func testFields_whenMetadataIsStructured_thenValueIsItsDescriptionAndMayHoldNewlines() {
        let handler = JournalLogHandler(label: "l", metadataProvider: nil)
        let fields = handler.fields(for: event(.info, "line one\nline two", metadata: ["paths": ["a", "b"]]))
        XCTAssertTrue(fields.contains("MESSAGE=line one\nline two"))
        XCTAssertTrue(fields.contains(#"APPSTATE_PATHS=["a", "b"]"#), "\(fields)")
    }

    func testFieldName_whenKeyNeedsSanitising_thenIsUppercasePrefixedAndOnlyAllowedCharacters() {
        XCTAssertEqual(JournalLogHandler.fieldName(forMetadataKey: "tree"), "APPSTATE_TREE")
        XCTAssertEqual(JournalLogHandler.fieldName(forMetadataKey: "event"), "APPSTATE_EVENT")
        XCTAssertEqual(JournalLogHandler.fieldName(forMetadataKey: "request.id"), "APPSTATE_REQUEST_ID")
        XCTAssertEqual(JournalLogHandler.fieldName(forMetadataKey: "peer-uid"), "APPSTATE_PEER_UID")
        XCTAssertEqual(JournalLogHandler.fieldName(forMetadataKey: "userID"), "APPSTATE_USERID")
        XCTAssertEqual(JournalLogHandler.fieldName(forMetadataKey: "2fa"), "APPSTATE_2FA")
        XCTAssertEqual(JournalLogHandler.fieldName(forMetadataKey: "größe"), "APPSTATE_GR__E")
        XCTAssertEqual(JournalLogHandler.fieldName(forMetadataKey: ""), "APPSTATE_")
    }

    func testFieldName_whenKeyIsLong_thenIsCutToTheJournalsLimit() {
        let name = JournalLogHandler.fieldName(forMetadataKey: String(repeating: "k", count: 100))
        XCTAssertEqual(name.count, 64)
        XCTAssertEqual(name, "APPSTATE_" + String(repeating: "K", count: 55))
    }

    func testFieldNames_always_matchTheJournalsRules() {
        let keys = ["tree", "9lives", "_hidden", "a b", "ü", "emoji😀", "UPPER_lower.mixed-1"]
        for key in keys {
            let name = JournalLogHandler.fieldName(forMetadataKey: key)
            XCTAssertTrue(name.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }, name)
            XCTAssertFalse(name.first.map { $0 == "_" || $0.isNumber } ?? true, name)
            XCTAssertLessThanOrEqual(name.count, 64, name)
        }
    }

    func testPriority_forEachLevel_isTheSyslogLevel() {
        let expected: [(Logger.Level, Int)] = [
            (.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
        ]
        for (level, priority) in expected {
            XCTAssertEqual(JournalLogHandler.priority(of: level), priority, "\(level)")
        }
    }

    func testLog_whenCalledThroughLogger_thenSendsWithoutCrashing() {
        // sd_journal_sendv reports success even when no journal listens, so this only
        // proves the iovec plumbing survives every kind of field.
        var logger = Logger(label: "appstated.test") { JournalLogHandler(label: $0, logLevel: .trace, metadataProvider: nil) }
        logger[metadataKey: "tree"] = "main"
        logger.trace("trace \u{0} with NUL", metadata: ["empty": ""])
        logger.critical("critical", metadata: ["nested": ["k": ["v"]]])
        XCTAssertEqual(logger.logLevel, .trace)
    }

    // MARK: Choosing the destination

    func testIsJournalStream_whenDeviceAndInodeMatch_thenTrue() throws {
        let directory = try TemporaryDirectory()
        let descriptor = open(directory.path + "/stream", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        defer { close(descriptor) }
        var status = stat()
        XCTAssertEqual(fstat(descriptor, &status), 0)
        XCTAssertTrue(LoggingBootstrap.isJournalStream("\(status.st_dev):\(status.st_ino)", fileDescriptor: descriptor))
        XCTAssertFalse(LoggingBootstrap.isJournalStream("\(status.st_dev):\(status.st_ino + 1)", fileDescriptor: descriptor))
        XCTAssertFalse(LoggingBootstrap.isJournalStream("\(status.st_dev + 1):\(status.st_ino)", fileDescriptor: descriptor))
    }

    func testIsJournalStream_whenValueMissingOrMalformed_thenFalse() throws {
        for value in [nil, "", "12", "12:", ":34", "a:b", "1:2:3", "-1:2"] as [String?] {
            XCTAssertFalse(LoggingBootstrap.isJournalStream(value, fileDescriptor: STDERR_FILENO), "\(value ?? "nil")")
        }
    }

    func testStderrIsJournal_whenJournalStreamNamesStderr_thenTrueElseFalse() {
        var status = stat()
        XCTAssertEqual(fstat(STDERR_FILENO, &status), 0)
        XCTAssertTrue(LoggingBootstrap.stderrIsJournal(environment: ["JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino)"]))
        XCTAssertFalse(LoggingBootstrap.stderrIsJournal(environment: ["JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino &+ 1)"]))
        XCTAssertFalse(LoggingBootstrap.stderrIsJournal(environment: [:]))
    }

    func testMakeHandler_whenJournal_thenJournalHandlerWithLevelAndIdentifier() throws {
        let handler = LoggingBootstrap.makeHandler(
            label: "appstated", metadataProvider: nil, useJournal: true, logLevel: .debug, identifier: "appstated"
        )
        let journal = try XCTUnwrap(handler as? JournalLogHandler)
        XCTAssertEqual(journal.logLevel, .debug)
        XCTAssertEqual(journal.identifier, "appstated")
        XCTAssertEqual(journal.label, "appstated")
    }

    func testMakeHandler_whenNotJournal_thenStandardErrorStreamHandler() throws {
        let handler = LoggingBootstrap.makeHandler(
            label: "appstated", metadataProvider: nil, useJournal: false, logLevel: .warning, identifier: "appstated"
        )
        XCTAssertTrue(handler is StreamLogHandler)
        XCTAssertEqual(handler.logLevel, .warning)
    }
}
