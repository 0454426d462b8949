import Foundation
import TestSupport
import XCTest

/// `scripts/install-deps`, the first thing `make run`, `make test` and `make release` run, on a
/// machine that has none of what it checks for: a copy of the script in an empty directory (no
/// venv), a `PATH` holding only stubs (no socat, no shellcheck, no valgrind…), a `pkg-config`
/// that finds neither libsystemd, libyaml nor Wayland's libraries, and `apt-get`, `sudo`, `id`
/// and `python3` stubs that record how they were called: a fresh machine must get everything,
/// even where CI, which has it all, stays green.
final class InstallDepsTests: AppStateTestCase {
    private static let everything = [
        "libsystemd-dev", "pkg-config", "libyaml-dev", "libwayland-dev", "wayland-protocols", "socat", "util-linux", "systemd", "shellcheck",
        "strace", "python3-venv",
        "librsvg2-bin", "chromium", "chromium-driver",
        "dbus-daemon", "libglib2.0-bin", "python3-dbusmock", "sway", "cage", "xwayland", "varlink-go",
    ]

    /// A machine for the script: its directory, its stubs and the log they write.
    private struct Machine {
        let root: URL
        let bin: URL
        let log: URL

        /// What the stubs recorded, one call a line.
        var calls: [String] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        /// The packages of the `apt-get install` call, or nil when there was none.
        var installed: [String]? {
            calls.first { $0.hasPrefix("apt-get install") }.map { call in
                call.split(separator: " ").map(String.init).filter { !$0.hasPrefix("-") && !$0.contains("=") }.dropFirst(2).map { $0 }
            }
        }
    }

    /// Builds a machine where `uid` runs the script. With `present`, the tools and the venv
    /// are there already; `libraries` are the pkg-config modules found (all of them with `present`).
    private func machine(uid: Int, sudo: Bool = true, present: Bool = false, libraries: [String] = []) throws -> Machine {
        let root = try DaemonProcess.makeTemporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        let scripts = try root.appendingPathComponent("scripts", isDirectory: true).creatingDirectory()
        try FileManager.default.copyItem(
            at: Products.repository.appendingPathComponent("scripts/install-deps"),
            to: scripts.appendingPathComponent("install-deps"))
        let bin = try root.appendingPathComponent("bin", isDirectory: true).creatingDirectory()
        let log = root.appendingPathComponent("calls.log")
        for tool in ["dirname", "basename", "env", "mkdir", "chmod", "grep"] {
            try FileManager.default.createSymbolicLink(
                atPath: bin.appendingPathComponent(tool).path,
                withDestinationPath: try resolveExecutable(tool))
        }
        // Each stub records its name, its arguments and the DEBIAN_FRONTEND it was given.
        let record = #"echo "$(basename "$0") $* [DEBIAN_FRONTEND=${DEBIAN_FRONTEND:-}]" >> "$STUB_LOG""#
        let found = present ? ["libsystemd", "yaml-0.1", "wayland-client", "wayland-protocols"] : libraries
        try stub(bin, "pkg-config", #"[ "$1" = --exists ] && case " \#(found.joined(separator: " ")) " in *" $2 "*) exit 0 ;; esac; exit 1"#)
        try stub(bin, "id", #"[ "$1" = -u ] && echo \#(uid)"#)
        try stub(bin, "apt-get", record)
        if sudo {
            try stub(bin, "sudo", record + "\nexec \"$@\"")
        }
        try stub(
            bin, "python3",
            record + """

                case "$1" in
                -c) exit \(present ? 0 : 1) ;;
                -m) mkdir -p "$3/bin"
                    printf '#!/bin/bash\\nexit \(present ? 0 : 1)\\n' > "$3/bin/python"
                    printf '#!/bin/bash\\necho "pip $*" >> "$STUB_LOG"\\n' > "$3/bin/pip"
                    chmod +x "$3/bin/python" "$3/bin/pip" ;;
                esac
                """)
        if present {
            for tool in [
                "socat", "setpriv", "systemd-socket-activate", "systemd-analyze", "shellcheck", "strace",
                "rsvg-convert", "chromium", "chromedriver", "dbus-daemon", "gdbus", "sway", "swaymsg", "cage", "Xwayland",
                "varlink-go-certification", "varlink-go-interface-generator", "valgrind", "strip",
            ] {
                try stub(bin, tool, "exit 0")
            }
            try stub(bin, "dpkg-query", #"[ "$*" = "-W -f=\${Status} python3-dbusmock" ] && echo 'install ok installed'"#)
            let venv = try root.appendingPathComponent(".venv/bin", isDirectory: true).creatingDirectory()
            try stub(venv, "python", "exit 0")
        }
        return Machine(root: root, bin: bin, log: log)
    }

    private func stub(_ directory: URL, _ name: String, _ body: String) throws {
        let path = directory.appendingPathComponent(name).path
        try "#!/bin/bash\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(path, 0o755), 0)
    }

    private func run(_ machine: Machine, _ arguments: [String] = ["--test"]) throws -> Command {
        try Command.run(
            try resolveExecutable("bash"), [machine.root.appendingPathComponent("scripts/install-deps").path] + arguments,
            environment: ["PATH": machine.bin.path, "STUB_LOG": machine.log.path])
    }

    func testInstallDeps_whenRootOnAnEmptyMachine_thenInstallsEverythingWithAptGetAndMakesTheVenv() throws {
        let machine = try machine(uid: 0)
        let result = try run(machine)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(Set(try XCTUnwrap(machine.installed, "\(machine.calls)")), Set(Self.everything))
        XCTAssertFalse(machine.calls.contains { $0.hasPrefix("sudo") }, "\(machine.calls)")
        let aptCalls = machine.calls.filter { $0.hasPrefix("apt-get") }
        XCTAssertEqual(aptCalls.first?.hasPrefix("apt-get update"), true, "\(machine.calls)")
        XCTAssertTrue(aptCalls.allSatisfy { $0.hasSuffix("[DEBIAN_FRONTEND=noninteractive]") }, "\(aptCalls)")
        XCTAssertTrue(aptCalls.last?.contains("install -y -qq --no-install-recommends") == true, "\(aptCalls)")
        XCTAssertTrue(machine.calls.contains { $0.hasPrefix("python3 -m venv .venv") }, "\(machine.calls)")
        XCTAssertTrue(
            machine.calls.contains("pip install --quiet --disable-pip-version-check varlink==31.0.0 selenium==4.51.0 prometheus-client==0.26.0"),
            "\(machine.calls)")
    }

    func testInstallDeps_whenAUserWithSudoOnAnEmptyMachine_thenInstallsThroughSudo() throws {
        let machine = try machine(uid: 1000)
        let result = try run(machine)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(Set(try XCTUnwrap(machine.installed, "\(machine.calls)")), Set(Self.everything))
        let sudoCalls = machine.calls.filter { $0.hasPrefix("sudo") }
        XCTAssertEqual(sudoCalls.count, 2, "\(machine.calls)")
        XCTAssertTrue(sudoCalls.allSatisfy { $0.hasPrefix("sudo env DEBIAN_FRONTEND=noninteractive apt-get ") }, "\(sudoCalls)")
        XCTAssertEqual(machine.calls.filter { $0.hasPrefix("apt-get") }.count, 2, "\(machine.calls)")
        XCTAssertTrue(
            machine.calls.contains("pip install --quiet --disable-pip-version-check varlink==31.0.0 selenium==4.51.0 prometheus-client==0.26.0"),
            "\(machine.calls)")
    }

    func testInstallDeps_whenOnlyBuilding_thenInstallsOnlyWhatTheBuildNeeds() throws {
        let machine = try machine(uid: 0)
        let result = try run(machine, [])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(machine.installed, ["libsystemd-dev", "pkg-config", "libyaml-dev", "libwayland-dev", "wayland-protocols"])
        XCTAssertFalse(machine.calls.contains { $0.hasPrefix("python3") }, "\(machine.calls)")
    }

    /// `make release` profiles the daemon under valgrind to lay out its functions; `make run`
    /// and `make test` do not, and must not need it.
    func testInstallDeps_whenBuildingARelease_thenAlsoInstallsValgrindAndStrip() throws {
        let machine = try machine(uid: 0)
        let result = try run(machine, ["--release"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(
            machine.installed, ["libsystemd-dev", "pkg-config", "libyaml-dev", "libwayland-dev", "wayland-protocols", "valgrind", "binutils"])
        XCTAssertFalse(machine.calls.contains { $0.hasPrefix("python3") }, "\(machine.calls)")
    }

    /// `make deb` packages the release build with debhelper, lintian checks it, and
    /// `make check-deb` installs it with debootstrap and piuparts; nothing else needs them.
    func testInstallDeps_whenPackaging_thenAlsoInstallsDebhelperPandocLintianDebootstrapAndPiuparts() throws {
        let machine = try machine(uid: 0)
        let result = try run(machine, ["--deb"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(
            machine.installed,
            [
                "libsystemd-dev", "pkg-config", "libyaml-dev", "libwayland-dev", "wayland-protocols", "debhelper", "dpkg-dev", "pandoc", "lintian",
                "debootstrap", "piuparts",
            ])
    }

    func testInstallDeps_whenPackagingWithEverythingThere_thenTouchesNothing() throws {
        let machine = try machine(uid: 1000, present: true)
        for tool in ["dh", "dpkg-buildpackage", "pandoc", "lintian", "debootstrap", "piuparts"] {
            try stub(machine.bin, tool, "exit 0")
        }
        let result = try run(machine, ["--deb"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(machine.calls, [])
    }

    func testInstallDeps_whenTestingAndBuildingARelease_thenInstallsBoth() throws {
        let machine = try machine(uid: 0)
        let result = try run(machine, ["--test", "--release"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(Set(try XCTUnwrap(machine.installed, "\(machine.calls)")), Set(Self.everything + ["valgrind", "binutils"]))
    }

    func testInstallDeps_whenBuildingAReleaseWithEverythingThere_thenTouchesNothing() throws {
        let machine = try machine(uid: 1000, present: true)
        let result = try run(machine, ["--release"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(machine.calls, [])
    }

    func testInstallDeps_whenOnlyLibyamlIsMissing_thenInstallsOnlyIt() throws {
        let machine = try machine(uid: 0, libraries: ["libsystemd", "wayland-client", "wayland-protocols"])
        let result = try run(machine, [])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(machine.installed, ["libyaml-dev"])
    }

    func testInstallDeps_whenAUserWithoutSudo_thenNamesThePackagesAndInstallsNothing() throws {
        let machine = try machine(uid: 1000, sudo: false)
        let result = try run(machine)
        XCTAssertEqual(result.status, 77, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.contains("missing: libsystemd-dev pkg-config libyaml-dev libwayland-dev wayland-protocols socat"), result.stderr)
        XCTAssertTrue(result.stderr.contains("run this script as root, or install sudo"), result.stderr)
        XCTAssertNil(machine.installed, "\(machine.calls)")
    }

    func testInstallDeps_whenEverythingIsThere_thenTouchesNothing() throws {
        let machine = try machine(uid: 1000, present: true)
        let result = try run(machine)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(machine.calls.filter { !$0.hasPrefix("python3 -c") }, [])
    }

    func testInstallDeps_whenGivenAnUnknownOption_thenExits64() throws {
        let machine = try machine(uid: 0)
        let result = try run(machine, ["--tset"])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stderr, "usage: scripts/install-deps [--test] [--release] [--deb]\n")
        XCTAssertEqual(machine.calls, [])
    }
}
