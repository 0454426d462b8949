import ArgumentParser
import VarlinkCertification

/// `appstate-varlink-certification`: Varlink's certification on the project's own Varlink, as
/// a service (by default) or as a client of another implementation's service.
@main
struct AppStateVarlinkCertification: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appstate-varlink-certification",
        abstract: "Serves or runs Varlink's certification (org.varlink.certification).",
        discussion: """
            As a service it prints "Listening on unix:PATH" once it accepts connections, and \
            stops on SIGTERM or SIGINT. As a client it prints each step and exits 0 when the \
            run passed.
            """
    )

    @Option(help: ArgumentHelp("Where to listen, or the service to certify with --client.", valueName: "unix:PATH"))
    var varlink: String

    @Flag(help: "Certify the service at --varlink instead of serving.")
    var client = false

    func validate() throws {
        guard varlink.hasPrefix("unix:"), varlink.count > 5 else { throw ValidationError("--varlink takes unix:PATH") }
    }

    func run() throws {
        // Varlink addresses may carry options after a semicolon (`unix:PATH;mode=0666`).
        let path = String(varlink.dropFirst(5).prefix { $0 != ";" })
        if client {
            try CertificationRun.client(of: path)
        } else {
            try CertificationRun.service(at: path)
        }
    }
}
