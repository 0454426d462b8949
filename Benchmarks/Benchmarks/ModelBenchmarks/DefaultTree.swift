import StateContainers

/// The default tree of DESIGN §4, logged in, in a visible window.
///
/// Built by hand until the tree builder lands on main. The containers not on main yet stand in
/// as the nearest ones that are, so that the snapshot has the same nodes: the session is a
/// content-state container rendering `home` (a logged-in login container shows only `home`).
@MainActor
final class DefaultTree {
    let window = Window(size: screen)
    let root: Controller

    init() throws {
        let pages = try PaginatedController(
            identifier: "pages",
            pages: [
                Controller(identifier: "overview", title: "Overview"),
                ContentStateController(identifier: "activity", title: "Activity"),
                Controller(identifier: "settings", title: "Settings"),
            ],
            title: "Pages"
        )
        let inbox = try NavigationController(
            identifier: "inbox",
            root: Controller(identifier: "messages", title: "Messages"),
            title: "Inbox"
        )
        let dashboard = try StackController(
            identifier: "dashboard",
            arrangedChildren: [Controller(identifier: "list", title: "List"), Controller(identifier: "map", title: "Map")],
            title: "Dashboard"
        )
        let home = try MenuController(identifier: "home", viewControllers: [pages, inbox, dashboard], title: "Home")
        let session = ContentStateController(identifier: "session", title: "Session")
        try session.transition(to: .render(home))
        root = session
        window.rootController = root
        window.makeVisible()
    }
}
