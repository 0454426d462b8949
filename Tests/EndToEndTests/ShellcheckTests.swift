import Foundation
import TestSupport
import XCTest

/// The shell scripts users and CI run pass shellcheck, so that a quoting mistake such as
/// an empty `$sudo` before an environment assignment is caught before it lands.
final class ShellcheckTests: AppStateTestCase {
    /// Every file in scripts/ and .ci/ (each must be a shell script, so that shellcheck can
    /// read all of them), and the shell scripts under examples/.
    private func shellScripts() throws -> [String] {
        let repository = Products.repository
        var scripts: [String] = []
        for folder in ["scripts", ".ci", "examples"] {
            let base = repository.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let file as URL in walker where (try file.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
                let head = String(decoding: (try FileHandle(forReadingFrom: file).read(upToCount: 64)) ?? Data(), as: UTF8.self)
                if folder != "examples" || head.firstMatch(of: /^#!\S*(\/|env )(ba)?sh\b/) != nil {
                    scripts.append(String(file.path.dropFirst(repository.path.count + 1)))
                }
            }
        }
        return scripts.sorted()
    }

    func testShellcheck_whenRunOverEveryShellScript_thenReportsNothing() throws {
        let scripts = try shellScripts()
        XCTAssertTrue(Set(["scripts/install-deps", ".ci/run", "scripts/install-systemd"]).isSubset(of: scripts), "\(scripts)")
        let result = try Command.run(
            try resolveExecutable("shellcheck"), ["--external-sources"] + scripts.map { Products.repository.appendingPathComponent($0).path })
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout + result.stderr, "")
    }
}
