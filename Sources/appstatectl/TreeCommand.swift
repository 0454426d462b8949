import AppStateCtlKit
import AppStateIPC
import AppStateRendering
import ArgumentParser

/// `appstatectl tree`: the whole tree, drawn.
struct TreeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree",
        abstract: "Draw the tree of controllers: kinds, frames, insets, and what is current and on screen.",
        discussion: """
            Each line shows a controller's identifier, kind, title, frame in window \
            coordinates as WIDTH×HEIGHT+X+Y (or "off screen"), non-zero content insets and \
            its container state. "◀ current" marks the child its container shows. With \
            --json, prints the GetTree reply: {"root": Node}. With --svg, prints an SVG \
            wireframe of the window instead, to scale: each on-screen controller's frame \
            labelled, the current path in blue, content insets shaded, the keyboard where \
            it overlaps, and what is off screen listed beside it (appstatectl tree --svg > \
            tree.svg; rsvg-convert tree.svg > tree.png).

            EXAMPLE
              $ appstatectl tree
              session LoginStateController 1280×800+0+0, user ada
              ├── login KeyboardAwareController off screen
              │   └── login-form Controller off screen
              └── home MenuController 1280×800+0+0, menu hidden ◀ current
                  ├── pages PaginatedController 1280×800+0+0, index 0 of 3 ◀ current
              …
            """
    )

    @OptionGroup var options: ConnectionOptions

    @Flag(help: "Print an SVG wireframe of the window instead of the text tree.")
    var svg = false

    func validate() throws {
        if svg && options.json { throw ValidationError("--svg and --json cannot be used together") }
    }

    func run() throws {
        let reply = try options.withClient { try $0.call(GetTree.self, .init(tree: options.tree)) }
        if svg {
            // The renderer ends the document with a newline; Console.output adds one more.
            Console.output(String(WireframeRenderer().render(reply.root).dropLast()))
        } else {
            options.emit(reply, human: TreeRenderer(style: .standardOutput).render(reply.root))
        }
    }
}
