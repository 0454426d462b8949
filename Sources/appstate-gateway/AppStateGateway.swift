import AppStateCtlKit
import AppStateGatewayKit
import AppStateHTTP
import AppStateIPC
import AppStateOptions
import ArgumentParser
import Glibc
import Logging
import NIOPosix
import ServiceLifecycle

/// `appstate-gateway`: the daemon's calls and `Watch` over HTTP, for kiosk pages.
@main
struct AppStateGateway: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appstate-gateway",
        abstract: "Serve appstated to web pages: calls, a live event stream, appstate.js and a kiosk page.",
        discussion: """
            POST /call/io.appstate.METHOD calls one of the allowed methods with the JSON body \
            as its parameters and answers the reply's parameters, or {"error": NAME, \
            "parameters": …} with an HTTP status. GET /watch (?path= for one subtree) streams \
            Watch as Server-Sent Events. POST /clear-site-data ends a customer's session in the \
            browser (appstate.js asks for it at a logout). GET /appstate.js is the JavaScript module; GET / is the \
            kiosk page (or --pages DIR). Every request needs the token, as Authorization: Bearer, \
            ?token= (then a cookie), and a request from a page needs the gateway's own origin or \
            one of --origin. Socket-activated, it serves the sockets systemd passes instead of \
            --listen. SIGTERM or SIGINT stops it gracefully: it stops listening, ends the pages' \
            event streams, stops following the daemon and exits 0.

            EXAMPLE
              $ appstate-gateway --listen 127.0.0.1:8470 --token-file ~/.config/appstate/gateway.token
              http://127.0.0.1:8470/
              $ chromium --kiosk "http://127.0.0.1:8470/?token=$(cat ~/.config/appstate/gateway.token)"
            """
    )

    @OptionGroup var daemon: DaemonSocketOption

    @Option(
        help: ArgumentHelp(
            "Where to listen: HOST:PORT (port 0 picks a free port) or unix:PATH for a reverse proxy.",
            valueName: "address"))
    var listen = "127.0.0.1:0"

    @Option(
        name: .customLong("token-file"),
        help: ArgumentHelp(
            "Read the token from this file, or create it (mode 0640) with a new one.",
            discussion: "Without it, the gateway draws a token for this run and prints it in its URL.",
            valueName: "path"),
        completion: .file())
    var tokenFile: String?

    @Option(
        name: .customLong("allow"),
        help: ArgumentHelp(
            "A method pages may call, e.g. GetTree; repeat for each. Others are refused 403.",
            discussion: "Default: \(MethodAllowList.defaultNames.joined(separator: ", ")).",
            valueName: "method"))
    var allowed: [String] = []

    @Option(
        name: .customLong("origin"),
        help: ArgumentHelp(
            "Another origin whose pages may use the gateway, e.g. https://kiosk.example; repeat for each.",
            valueName: "origin"))
    var origins: [String] = []

    @Option(
        help: ArgumentHelp("Serve this directory at / instead of the built-in kiosk page.", valueName: "dir"),
        completion: .directory)
    var pages: String?

    func validate() throws {
        do {
            _ = try HTTPEndpoint(parsing: listen)
            _ = try MethodAllowList(allowed.isEmpty ? MethodAllowList.defaultNames : allowed)
            for origin in origins { _ = try WebAccessPolicy.normalizedOrigin(origin) }
        } catch let error as ListenAddressError {
            throw ValidationError(error.description)
        } catch {
            throw ValidationError("\(error)")
        }
        if let pages {
            var status = stat()
            guard stat(pages, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                throw ValidationError("--pages takes a directory, and \(pages) is not one")
            }
        }
    }

    func run() async throws {
        do {
            let activated = try SocketActivation.takeListeningSockets()
            let endpoint = try HTTPEndpoint(parsing: listen)
            if activated.isEmpty, case .tcp(let address) = endpoint, !address.isLoopback {
                Self.warn("\(address.host) is not a loopback address: other machines can reach the gateway (with the token)")
            }
            let socketPath = try daemon.path()
            let token = try tokenFile.map { path throws(GatewayError) in try TokenFile.load(path) } ?? AccessToken()
            let configuration = GatewayConfiguration(
                socketPath: socketPath, endpoints: activated.isEmpty ? [endpoint] : activated.map(HTTPEndpoint.descriptor), token: token,
                allowList: try MethodAllowList(allowed.isEmpty ? MethodAllowList.defaultNames : allowed), origins: origins,
                pages: pages.map(GatewayPages.directory) ?? .embedded)
            let gateway = try GatewayServer(configuration: configuration, group: MultiThreadedEventLoopGroup.singleton)
            // A token from a file stays out of the output, which systemd keeps in the journal.
            let url = gateway.url.hasPrefix("http") ? gateway.url + "/" + (tokenFile == nil ? "?token=\(token.text)" : "") : gateway.url
            // The URL once SIGTERM is trapped: whoever reads it may stop the gateway.
            let services = gateway.services {
                print(url)
                fflush(nil)
            }
            let group = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
                    gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: Logger(label: "appstate-gateway")
                ))
            try await group.run()
        } catch let error as CtlError {
            Self.warn(error.message)
            throw ExitCode(error.exitCode)
        } catch let error as GatewayError {
            Self.warn(error.description)
            throw ExitCode(ExitStatus.configurationError.code)
        } catch let error as HTTPServerError {
            Self.warn(error.description)
            throw ExitCode(ExitStatus.systemError.code)
        }
    }

    private static func warn(_ message: String) {
        let line = Array("appstate-gateway: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
