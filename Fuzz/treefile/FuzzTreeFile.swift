import StateContainers
import TreeFiles

/// Target `treefile`: bytes read as a tree file the ways the daemon reads one: as JSON by
/// the model (`TreeFile.decode(json:)`, Foundation), and, when they are UTF-8, as YAML and
/// as JSON by `TreeFileLoader` (libyaml); each file that decodes is validated again and
/// checked by building it (`TreeBuilder.check`).
///
/// Invariants: nothing traps; a decoded file validates; every problem the loader reports
/// names its place (see `namesPlace`).
func fuzz(_ bytes: [UInt8]) {
    MainActor.assumeIsolated {
        check(requiringPlaces: false) { () throws(TreeFileError) in HostedTreeFile(try TreeFile.decode(json: bytes)) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        check(requiringPlaces: true) { () throws(TreeFileError) in try TreeFileLoader.decode(yaml: text) }
        check(requiringPlaces: true) { () throws(TreeFileError) in try TreeFileLoader.decode(json: text) }
    }
}

/// The model's own JSON entry point has no lines to give, so only the loader's errors, which
/// `appstated --check` prints, are held to naming a place.
@MainActor private func check(requiringPlaces: Bool, _ decode: () throws(TreeFileError) -> HostedTreeFile) {
    do throws(TreeFileError) {
        let file = try decode()
        do throws(TreeFileError) {
            try file.validate()
        } catch {
            fatalError("invariant broken: a decoded file does not validate: \(error)")
        }
        try TreeBuilder.check(file.model)
    } catch {
        require(!error.issues.isEmpty, "an error without issues")
        guard requiringPlaces else { return }
        for issue in error.issues {
            require(namesPlace(issue), "issue without a place: \(issue)")
        }
    }
}

/// Whether an issue says where it is: by its path or line; for a syntax error from Foundation's
/// JSON parser, by the position given in words; for the top-level value of JSON that libyaml
/// cannot read for lines (YAML 1.1 refuses some valid JSON), by being about the whole document
/// ("missing key", "expected a mapping"). Only a file that holds nothing or ends too early has
/// no other place than its end.
private func namesPlace(_ issue: TreeFileError.Issue) -> Bool {
    if issue.line != nil || !issue.path.isEmpty { return true }
    return issue.message.contains(#/(line|character|at) \d+|end of file|the file is empty|^missing key|^expected /#)
}
