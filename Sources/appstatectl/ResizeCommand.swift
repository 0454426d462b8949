import AppStateCtlKit
import AppStateIPC
import ArgumentParser

/// `appstatectl resize WxH`.
struct ResizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resize",
        abstract: "Resize the tree's window, as rotating a device or resizing a window does.",
        discussion: """
            Every container lays its children out again; see the new frames with \
            appstatectl tree.

            EXAMPLE
              $ appstatectl resize 800x1280
              $ appstatectl tree | head -1
              session LoginStateController 800×1280+0+0, user ada
            """
    )

    @OptionGroup var options: ConnectionOptions

    @Argument(
        help: ArgumentHelp("The new size in points, e.g. 1280x800.", valueName: "width>x<height"),
        transform: WindowSize.init(parsing:)
    )
    var size: WindowSize

    func run() throws {
        let parameters = Resize.Parameters(tree: options.tree, width: size.width, height: size.height)
        let reply = try options.withClient { try $0.call(Resize.self, parameters) }
        options.emit(reply, human: nil)
    }
}
