// The generated trees of figure 10: a login container over a menu of navigation stacks, each
// rooted in a paginated container of plain pages. The first page of the first stack is a
// keyboard-aware container around a small form, so that once logged in a keyboard move changes
// that form alone and a page turn of the first stack changes two pages and their container.

/// One generated tree: its shape, its JSON and the paths figure 10 drives.
struct ScaleTree {
    /// Navigation stacks in the menu.
    let menuItems: Int
    /// Pages of each stack's paginated container.
    let pages: Int

    /// The tree's controllers: the login container, the logged-out keyboard-aware container
    /// and its form, the menu, each stack and its paginated container and pages, and the three
    /// controllers the first page's form adds.
    var controllers: Int { 4 + menuItems * (2 + pages) + 3 }

    /// The paginated container a keyboard move and a page turn act on: the one on screen.
    static let currentPages = "session/home/stack-0/pages"

    /// A small subtree off screen: the paginated container of the second stack.
    static let watchedPages = "session/home/stack-1/pages"

    /// The shape closest to `controllers` controllers, among 97 pages a stack (2 for a tree
    /// of fewer than 100 controllers).
    init(controllers: Int) {
        pages = controllers < 100 ? 2 : 97
        menuItems = max(2, Int((Double(controllers - 7) / Double(2 + pages)).rounded()))
    }

    /// The tree file, in JSON.
    var json: String {
        var items: [String] = []
        for item in 0..<menuItems {
            var children: [String] = []
            for page in 0..<pages {
                if item == 0, page == 0 {
                    children.append(
                        #"{"type":"KeyboardAwareController","id":"form","title":"Form","children":[{"type":"StackController","id":"fields","title":"Fields","children":[{"type":"Controller","id":"name","title":"Name"},{"type":"Controller","id":"password","title":"Password"}]}]}"#
                    )
                } else {
                    children.append(#"{"type":"Controller","id":"page-\#(page)","title":"Page \#(page)"}"#)
                }
            }
            items.append(
                #"{"type":"NavigationController","id":"stack-\#(item)","title":"Stack \#(item)","children":[{"type":"PaginatedController","id":"pages","title":"Pages","children":["#
                    + children.joined(separator: ",") + "]}]}")
        }
        return
            #"{"version":1,"trees":[{"name":"default","window":{"width":1280,"height":800},"root":{"type":"LoginStateController","id":"session","title":"Session","children":["#
            + #"{"type":"KeyboardAwareController","id":"login","title":"Log in","children":[{"type":"Controller","id":"login-form","title":"Log in"}]},"#
            + #"{"type":"MenuController","id":"home","title":"Home","children":["# + items.joined(separator: ",") + "]}]}}]}\n"
    }
}
