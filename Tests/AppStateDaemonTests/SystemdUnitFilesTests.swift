import AppStateIPC
import Foundation
import TestSupport
import VarlinkServer
import XCTest

@testable import AppStateDaemon

final class SystemdUnitFilesTests: AppStateTestCase {
    private static let unitDirectory = TestPaths.repositoryRoot.appendingPathComponent("systemd")
    private static let installedExecStart = "ExecStart=/usr/local/bin/appstated"

    private func unitText(_ name: String) throws -> String {
        try String(contentsOf: Self.unitDirectory.appendingPathComponent(name), encoding: .utf8)
    }

    /// The `Key=Value` settings of a unit file, comments and section headers dropped.
    private func settings(_ name: String) throws -> [(key: String, value: String)] {
        try unitText(name).split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), !line.hasPrefix("["), let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }
    }

    private func values(_ key: String, in name: String) throws -> [String] {
        try settings(name).filter { $0.key == key }.map(\.value)
    }

    /// Copies units to a temporary directory with the installed `product`'s `ExecStart=`
    /// pointing at the one built next to this test executable, since `systemd-analyze verify`
    /// checks that the command exists and the installed path does not exist here.
    /// - Returns: The copies' paths, in the order of `names`.
    private func unitsForVerification(_ names: [String], running product: String, in directory: TemporaryDirectory) throws -> [String] {
        let built = try TestPaths.productsDirectory + "/" + product
        guard FileManager.default.isExecutableFile(atPath: built) else {
            throw TestFailure("\(built) is missing: build everything first (swift build --build-tests, as make test does)")
        }
        return try names.map { name in
            let path = directory.path + "/" + name
            try unitText(name).replacingOccurrences(of: "ExecStart=/usr/local/bin/\(product)", with: "ExecStart=\(built)")
                .write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
    }

    /// The daemon's service and socket, ready for `systemd-analyze`.
    private func unitsForVerification(in directory: TemporaryDirectory) throws -> (service: String, socket: String) {
        let service = try unitText("appstated.service")
        XCTAssertEqual(service.components(separatedBy: "\n").filter { $0.hasPrefix(Self.installedExecStart + " ") }.count, 1)
        let paths = try unitsForVerification(["appstated.service", "appstated.socket"], running: "appstated", in: directory)
        return (paths[0], paths[1])
    }

    /// `systemd-analyze verify` finds nothing to say about the units, together.
    private func assertVerifiesSilently(_ units: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try runProcess("systemd-analyze", ["verify"] + units)
        XCTAssertEqual(result.standardOutput + result.standardError, "", file: file, line: line)
        XCTAssertEqual(result.status, 0, file: file, line: line)
    }

    func testVerify_whenBothUnits_thenPrintsNothing() throws {
        let directory = try TemporaryDirectory()
        let units = try unitsForVerification(in: directory)
        try assertVerifiesSilently([units.service, units.socket])
    }

    func testVerify_whenUnitIsBroken_thenPrintsSomething() throws {
        // Guards the test above against a verify that would print nothing whatever it reads.
        let directory = try TemporaryDirectory()
        let units = try unitsForVerification(in: directory)
        let broken = try String(contentsOfFile: units.service, encoding: .utf8)
            .replacingOccurrences(of: "Type=notify", with: "Type=notfiy")
        try broken.write(toFile: units.service, atomically: true, encoding: .utf8)
        let result = try runProcess("systemd-analyze", ["verify", units.service, units.socket])
        XCTAssertTrue((result.standardOutput + result.standardError).contains("notfiy"))
    }

    /// The exposure docs/running-under-systemd.md states, and the known limits of RELIABILITY.md
    /// (docs/reliability/known-limits.md) repeat, is what
    /// `systemd-analyze security --offline=true` reports for the unit: the documents' figure
    /// comes from the command, and a change to the unit or to systemd's scoring that moves it
    /// fails here until the documents say so.
    func testSecurity_whenAnalysedOffline_thenOverallExposureIsTheFigureTheDocumentsQuote() throws {
        let directory = try TemporaryDirectory()
        let units = try unitsForVerification(in: directory)
        let result = try runProcess("systemd-analyze", ["security", "--offline=true", "--no-pager", units.service])
        let output = result.standardOutput + result.standardError
        let exposure = try XCTUnwrap(Self.overallExposure(in: output), "no overall exposure in:\n\(output)")
        let version = (try? runProcess("systemd-analyze", ["--version"]).standardOutput.split(separator: "\n").first.map(String.init)) ?? nil
        for (document, pattern) in [
            ("docs/running-under-systemd.md", #"exposure ([0-9.]+) in\s+`systemd-analyze security`"#),
            ("docs/reliability/known-limits.md", #"offline exposure is ([0-9.]+)"#),
        ] {
            let text = try String(contentsOf: TestPaths.repositoryRoot.appendingPathComponent(document), encoding: .utf8)
            let quoted = try XCTUnwrap(
                Self.firstCapture(pattern, in: text).flatMap(Double.init),
                "\(document) no longer quotes the exposure (/\(pattern)/)")
            XCTAssertEqual(
                quoted, exposure,
                "\(document) quotes exposure \(quoted); \(version ?? "systemd-analyze") reports \(exposure) for systemd/appstated.service: update the document (or the unit)"
            )
        }
    }

    private static func firstCapture(_ pattern: String, in text: String) -> String? {
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }

    func testOverallExposure_whenParsed_thenReadsTheNumber() {
        XCTAssertEqual(Self.overallExposure(in: "…\n→ Overall exposure level for appstated.service: 1.9 OK 🙂\n"), 1.9)
        XCTAssertEqual(Self.overallExposure(in: "→ Overall exposure level for appstated.service: 9.6 UNSAFE 😨"), 9.6)
        XCTAssertNil(Self.overallExposure(in: "Failed to prepare filename"))
    }

    private static func overallExposure(in output: String) -> Double? {
        guard let line = output.split(separator: "\n").last(where: { $0.contains("Overall exposure level for") }),
            let colon = line.lastIndex(of: ":")
        else { return nil }
        return line[line.index(after: colon)...].split(separator: " ").first.flatMap { Double($0) }
    }

    // MARK: What the daemon relies on

    func testService_declaresNotifyWatchdogReloadAndState() throws {
        XCTAssertEqual(try values("Type", in: "appstated.service"), ["notify"])
        XCTAssertEqual(try values("NotifyAccess", in: "appstated.service"), ["main"])
        XCTAssertEqual(try values("ExecReload", in: "appstated.service"), ["/bin/kill -HUP $MAINPID"])
        XCTAssertEqual(try values("WatchdogSec", in: "appstated.service").count, 1)
        XCTAssertEqual(try values("Restart", in: "appstated.service"), ["on-failure"])
        XCTAssertEqual(try values("StateDirectory", in: "appstated.service"), ["appstate"])
        XCTAssertEqual(try values("User", in: "appstated.service"), ["appstate"])
        XCTAssertEqual(try values("Requires", in: "appstated.service"), ["appstated.socket"])
    }

    func testService_whenInstalled_thenFollowsLogind() throws {
        XCTAssertEqual(try values("ExecStart", in: "appstated.service"), ["/usr/local/bin/appstated --follow-logind"])
    }

    func testUserService_whenVerified_thenPrintsNothingAndFollowsTheKeyboardAndTheOutput() throws {
        XCTAssertEqual(try values("ExecStart", in: "user/appstated.service"), ["/usr/local/bin/appstated --follow-osk --follow-output"])
        try assertUserUnitVerifiesSilently("user/appstated.service")
    }

    func testKioskUnits_whenVerified_thenPrintNothingAndAppstatedFollowsCagesOutputTheKeyboardAndLogind() throws {
        XCTAssertEqual(
            try values("ExecStart", in: "kiosk/appstated.service"), ["/usr/local/bin/appstated --follow-output --follow-osk --follow-logind"])
        try assertUserUnitVerifiesSilently("kiosk/appstated.service")
        XCTAssertEqual(try values("User", in: "kiosk/cage-kiosk@.service"), ["kiosk"])
        XCTAssertEqual(try values("PAMName", in: "kiosk/cage-kiosk@.service"), ["cage"], "a logind session, so that the user's manager starts")
        XCTAssertTrue(
            try values("ExecStart", in: "kiosk/cage-kiosk@.service").first?.hasPrefix("/usr/bin/cage -- /usr/local/bin/appstate-kiosk ") == true,
            "cage runs appstate-kiosk, which starts the browser")
        let directory = try TemporaryDirectory()
        let instance = directory.path + "/cage-kiosk@tty1.service"
        try unitText("kiosk/cage-kiosk@.service").write(toFile: instance, atomically: true, encoding: .utf8)
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/cage"), "cage is not installed (scripts/install-deps --test)")
        try assertVerifiesSilently([instance])
    }

    /// `systemd-analyze --user verify` finds nothing to say about a user unit.
    private func assertUserUnitVerifiesSilently(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let directory = try TemporaryDirectory()
        let appstated = try TestPaths.productsDirectory + "/appstated"
        let unit = try unitText(name)
        let path = directory.path + "/appstated.service"
        try unit.replacingOccurrences(of: Self.installedExecStart, with: "ExecStart=\(appstated)").write(
            toFile: path, atomically: true, encoding: .utf8)
        // A user manager needs its runtime directory, which a test run has no session to give.
        let result = try runProcess(
            "systemd-analyze", ["--user", "verify", path],
            environment: ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": directory.path]) { $1 })
        XCTAssertEqual(result.standardOutput + result.standardError, "", file: file, line: line)
        XCTAssertEqual(result.status, 0, file: file, line: line)
    }

    func testService_whenSetrlimitIsFiltered_thenLimitNOFILEHoldsTheDefaultConnections() throws {
        // The filter makes the daemon's own setrlimit fail, so the unit's limit is the one it gets.
        XCTAssertTrue(try values("SystemCallFilter", in: "appstated.service").contains { $0.hasPrefix("~") && $0.contains("@resources") })
        let limits = try values("LimitNOFILE", in: "appstated.service")
        XCTAssertEqual(limits.count, 1, "\(limits)")
        // One number sets the soft and the hard limit; "soft:hard" would leave the soft one low.
        let limit = try XCTUnwrap(limits.first.flatMap { Int($0) }, "\(limits)")
        XCTAssertGreaterThanOrEqual(limit, ServerLimits().maximumConnections + DescriptorLimit.reserve)
    }

    func testService_whenSandboxed_thenKeepsWhatAccessControlNeeds() throws {
        // RuntimeDirectory= is removed when the service stops, and would take the socket with it.
        XCTAssertEqual(try values("RuntimeDirectory", in: "appstated.service"), [])
        // A private user namespace would turn every other peer into `nobody` in SO_PEERCRED.
        XCTAssertEqual(try values("PrivateUsers", in: "appstated.service"), [])
        XCTAssertEqual(try values("RestrictAddressFamilies", in: "appstated.service"), ["AF_UNIX"])
    }

    func testSocket_matchesWhatTheDaemonLooksFor() throws {
        XCTAssertEqual(try values("ListenStream", in: "appstated.socket"), [AppStateInterface.systemSocketPath])
        XCTAssertEqual(try values("FileDescriptorName", in: "appstated.socket"), [ListenedSockets.varlinkName])
        XCTAssertEqual(try values("SocketMode", in: "appstated.socket"), ["0660"])
        XCTAssertEqual(try values("SocketGroup", in: "appstated.socket"), ["appstate"])
        XCTAssertEqual(try values("Accept", in: "appstated.socket"), ["no"])
    }

    func testSocket_whenListening_thenIsInTheVarlinkRegistryByItsInterfaceName() throws {
        XCTAssertEqual(try values("Symlinks", in: "appstated.socket"), ["/run/varlink/registry/\(AppStateInterface.name)"])
    }

    // MARK: The metrics for prometheus-node-exporter

    private static let textfile = "/var/lib/prometheus/node-exporter/appstate.prom"

    /// The metrics service and timer, ready for `systemd-analyze`.
    private func metricsUnitsForVerification(in directory: TemporaryDirectory) throws -> (service: String, timer: String) {
        let paths = try unitsForVerification(["appstate-metrics.service", "appstate-metrics.timer"], running: "appstatectl", in: directory)
        return (paths[0], paths[1])
    }

    func testMetricsUnits_whenVerified_thenPrintNothing() throws {
        let directory = try TemporaryDirectory()
        let units = try metricsUnitsForVerification(in: directory)
        try assertVerifiesSilently([units.service, units.timer])
    }

    func testMetricsService_whenRun_thenReplacesTheTextfileCollectorsFileWithAppstatectl() throws {
        XCTAssertEqual(try values("Type", in: "appstate-metrics.service"), ["oneshot"])
        XCTAssertEqual(try values("ExecStart", in: "appstate-metrics.service"), ["/usr/local/bin/appstatectl metrics --output \(Self.textfile)"])
        // The one place it may write: the collector's directory, where the temporary file is
        // renamed over appstate.prom.
        XCTAssertEqual(try values("ReadWritePaths", in: "appstate-metrics.service"), ["/var/lib/prometheus/node-exporter"])
        XCTAssertEqual(try values("ProtectSystem", in: "appstate-metrics.service"), ["strict"])
        XCTAssertEqual(try values("CapabilityBoundingSet", in: "appstate-metrics.service"), [""])
        XCTAssertEqual(try values("RestrictAddressFamilies", in: "appstate-metrics.service"), ["AF_UNIX"])
        XCTAssertEqual(try values("PrivateNetwork", in: "appstate-metrics.service"), ["yes"])
    }

    func testMetricsTimer_whenEnabled_thenStartsTheServiceEvery15Seconds() throws {
        // A timer starts the service of its own name: no Unit= needed, none given.
        XCTAssertEqual(try values("Unit", in: "appstate-metrics.timer"), [])
        XCTAssertEqual(try values("OnUnitActiveSec", in: "appstate-metrics.timer"), ["15s"])
        XCTAssertEqual(try values("WantedBy", in: "appstate-metrics.timer"), ["timers.target"])
    }

    func testMetricsService_whenAnalysedOffline_thenOnlyRunningAsRootIsExposedBeyondTheDaemon() throws {
        let directory = try TemporaryDirectory()
        let daemon = try unitsForVerification(in: directory)
        let metrics = try metricsUnitsForVerification(in: directory)
        // The settings `systemd-analyze security` marks ✗ for each unit, by their names.
        let exposed = try [daemon.service, metrics.service].map { unit in
            let result = try runProcess("systemd-analyze", ["security", "--offline=true", "--no-pager", unit])
            return Set(
                result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("✗") }
                    .compactMap { $0.dropFirst().split(separator: " ").first.map(String.init) })
        }
        XCTAssertFalse(exposed[0].isEmpty, "no ✗ lines read")
        // Root, because Debian's prometheus-node-exporter makes the collector's directory root's;
        // without any capability, and read-only but for that directory.
        XCTAssertEqual(exposed[1].subtracting(exposed[0]), ["User=/DynamicUser="])
    }

    func testSysusers_whenApplied_thenCreatesAppstateUserAndGroup() throws {
        let root = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: root.path + "/etc", withIntermediateDirectories: false)
        let config = Self.unitDirectory.appendingPathComponent("appstate.sysusers").path
        let result = try runProcess("systemd-sysusers", ["--root=\(root.path)", config])
        XCTAssertEqual(result.status, 0, result.standardError)

        let group = try String(contentsOfFile: root.path + "/etc/group", encoding: .utf8)
        let passwd = try String(contentsOfFile: root.path + "/etc/passwd", encoding: .utf8)
        let groupFields = try XCTUnwrap(group.split(separator: "\n").first { $0.hasPrefix("appstate:") })
            .split(separator: ":", omittingEmptySubsequences: false)
        let userFields = try XCTUnwrap(passwd.split(separator: "\n").first { $0.hasPrefix("appstate:") })
            .split(separator: ":", omittingEmptySubsequences: false)
        XCTAssertEqual(userFields[3], groupFields[2], "the user's primary group is appstate")
        XCTAssertLessThan(try XCTUnwrap(Int(userFields[2])), 1000, "a system user")
        XCTAssertEqual(userFields[5], "/var/lib/appstate")
    }

    func testInstallScript_whenStagedUnderDestdir_thenLaysOutFilesAndRewritesExecStart() throws {
        let destination = try TemporaryDirectory()
        let script = TestPaths.repositoryRoot.appendingPathComponent("scripts/install-systemd").path
        let appstated = try TestPaths.productsDirectory + "/appstated"
        let result = try runProcess(script, ["--prefix", "/usr", "--destdir", destination.path, "--binary", appstated])
        XCTAssertEqual(result.status, 0, result.standardError)

        let staged = destination.path
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: staged + "/usr/bin/appstated"))
        let service = try String(contentsOfFile: staged + "/usr/lib/systemd/system/appstated.service", encoding: .utf8)
        XCTAssertEqual(
            service,
            try unitText("appstated.service").replacingOccurrences(of: Self.installedExecStart, with: "ExecStart=/usr/bin/appstated")
        )
        XCTAssertEqual(
            try String(contentsOfFile: staged + "/usr/lib/systemd/system/appstated.socket", encoding: .utf8),
            try unitText("appstated.socket")
        )
        XCTAssertEqual(
            try String(contentsOfFile: staged + "/usr/lib/sysusers.d/appstate.conf", encoding: .utf8),
            try unitText("appstate.sysusers")
        )
    }

    func testInstallScript_whenBinaryMissingOrArgumentUnknown_thenFailsWithSysexits() throws {
        let destination = try TemporaryDirectory()
        let script = TestPaths.repositoryRoot.appendingPathComponent("scripts/install-systemd").path
        let missing = try runProcess(script, ["--destdir", destination.path, "--binary", destination.path + "/absent"])
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.standardError.contains("absent is missing"), missing.standardError)
        let unknown = try runProcess(script, ["--destdir", destination.path, "--bogus"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: destination.path), [])
    }

    // MARK: The web gateway

    private func gatewayUnitsForVerification(in directory: TemporaryDirectory) throws -> (service: String, socket: String) {
        let paths = try unitsForVerification(["appstate-gateway.service", "appstate-gateway.socket"], running: "appstate-gateway", in: directory)
        return (paths[0], paths[1])
    }

    func testGatewayUnits_whenVerified_thenPrintNothing() throws {
        let directory = try TemporaryDirectory()
        let units = try gatewayUnitsForVerification(in: directory)
        try assertVerifiesSilently([units.service, units.socket])
    }

    /// The gateway is as hardened as the design asks (exposure at most 2.0), and its page
    /// (docs/gateway.md) quotes the figure `systemd-analyze security --offline=true` reports.
    func testGatewayService_whenAnalysedOffline_thenExposureIsAtMost2AndTheOneItsPageQuotes() throws {
        let directory = try TemporaryDirectory()
        let units = try gatewayUnitsForVerification(in: directory)
        let result = try runProcess("systemd-analyze", ["security", "--offline=true", "--no-pager", units.service])
        let exposure = try XCTUnwrap(Self.overallExposure(in: result.standardOutput + result.standardError), result.standardOutput)
        XCTAssertLessThanOrEqual(exposure, 2.0)
        let page = try String(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("docs/gateway.md"), encoding: .utf8)
        let quoted = try XCTUnwrap(
            Self.firstCapture(#"gateway's exposure ([0-9.]+)"#, in: page).flatMap(Double.init), "docs/gateway.md quotes no exposure of the gateway")
        XCTAssertEqual(
            quoted, exposure, "docs/gateway.md quotes exposure \(quoted) for appstate-gateway.service; systemd-analyze reports \(exposure)")
    }

    func testGatewayUnits_whenInstalled_thenListenOnLoopbackAndRunAsTheGatewaysUserWithItsTokenKept() throws {
        XCTAssertEqual(try values("ListenStream", in: "appstate-gateway.socket"), ["127.0.0.1:8470"])
        XCTAssertEqual(try values("Accept", in: "appstate-gateway.socket"), ["no"])
        XCTAssertEqual(try values("Requires", in: "appstate-gateway.service"), ["appstate-gateway.socket"])
        XCTAssertEqual(try values("User", in: "appstate-gateway.service"), ["appstate-gateway"])
        XCTAssertEqual(try values("StateDirectory", in: "appstate-gateway.service"), ["appstate-gateway"])
        XCTAssertEqual(
            try values("ExecStart", in: "appstate-gateway.service"), ["/usr/local/bin/appstate-gateway --token-file /var/lib/appstate-gateway/token"])
        // The listening socket is systemd's; the gateway itself only reaches appstated's Unix socket.
        XCTAssertEqual(try values("PrivateNetwork", in: "appstate-gateway.service"), ["yes"])
        XCTAssertEqual(try values("RestrictAddressFamilies", in: "appstate-gateway.service"), ["AF_UNIX"])
    }

    func testGatewaySysusers_whenAppliedWithTheDaemons_thenTheGatewaysUserIsInGroupAppstate() throws {
        let root = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: root.path + "/etc", withIntermediateDirectories: false)
        let configs = ["appstate.sysusers", "appstate-gateway.sysusers"].map { Self.unitDirectory.appendingPathComponent($0).path }
        let result = try runProcess("systemd-sysusers", ["--root=\(root.path)"] + configs)
        XCTAssertEqual(result.status, 0, result.standardError)
        let group = try String(contentsOfFile: root.path + "/etc/group", encoding: .utf8)
        let passwd = try String(contentsOfFile: root.path + "/etc/passwd", encoding: .utf8)
        let appstate = try XCTUnwrap(group.split(separator: "\n").first { $0.hasPrefix("appstate:") })
        XCTAssertEqual(appstate.split(separator: ":", omittingEmptySubsequences: false).last, "appstate-gateway")
        let user = try XCTUnwrap(passwd.split(separator: "\n").first { $0.hasPrefix("appstate-gateway:") })
        XCTAssertEqual(user.split(separator: ":", omittingEmptySubsequences: false)[5], "/var/lib/appstate-gateway")
    }
}
