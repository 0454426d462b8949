import AppStateCtlKit
import AppStateIPC
import ArgumentParser
import Glibc

/// `appstatectl screenshot`: a PNG of what the tree's kiosk shows now.
struct ScreenshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screenshot",
        abstract: "Write a PNG of what the tree's kiosk shows now.",
        discussion: """
            Asks appstated which appstate-kiosk shows the tree (GetKiosk), and that kiosk's own \
            socket for a screenshot (io.appstate.kiosk.Screenshot), at the size of the page's \
            viewport: the tree's window less the on-screen keyboard. Without -o the PNG goes to \
            standard output. A tree that no running kiosk shows fails with exit status 1. With \
            --json, prints {"width": int, "height": int} once the file is written.

            EXAMPLE
              $ appstatectl screenshot -o lobby.png
            """
    )

    @OptionGroup var options: ConnectionOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the PNG to this file, replaced whole.", valueName: "file"), completion: .file())
    var output: String?

    func run() throws {
        let screenshot = try options.withClient { client in
            try KioskScreenshot.take(from: client, tree: options.tree, timeout: .seconds(options.timeout))
        }
        let png = screenshot.png
        do throws(CtlError) {
            if let output {
                try AtomicTextFile.replace(output, with: png)
            } else if !AtomicTextFile.write(png, to: STDOUT_FILENO) {
                throw CtlError(message: "cannot write the PNG to standard output", exitCode: ExitStatus.systemError.code)
            }
        } catch {
            Console.error(error.message)
            throw ExitCode(error.exitCode)
        }
        if options.json {
            let size: [String: JSONValue] = ["width": .number(Double(screenshot.width)), "height": .number(Double(screenshot.height))]
            Console.output(JSONValue.object(size).jsonText)
        }
    }
}
