import AppStateCore
import AppStateIPC

/// A small tree in the shape of the default one: logged in, on the first of two pages,
/// with the keyboard's overlap showing as an inset.
enum SampleTree {
    static let window = Rect(x: 0, y: 0, width: 1280, height: 800)

    static let root = Node(
        path: "session", identifier: "session", type: "LoginStateController",
        appearance: .appeared, frame: window, onScreen: true, current: "home", user: "ada",
        children: [
            Node(
                path: "session/login", identifier: "login", type: "KeyboardAwareController",
                children: [Node(path: "session/login/login-form", identifier: "login-form", type: "Controller")]
            ),
            Node(
                path: "session/home", identifier: "home", type: "MenuController", title: "Home",
                appearance: .appeared, frame: window, onScreen: true, current: "pages", menuVisible: false,
                children: [
                    Node(
                        path: "session/home/pages", identifier: "pages", type: "PaginatedController",
                        appearance: .appeared, frame: window, onScreen: true, current: "overview",
                        pageIndex: 0, pageCount: 2,
                        children: [
                            Node(
                                path: "session/home/pages/overview", identifier: "overview", type: "Controller",
                                appearance: .appeared, frame: window,
                                contentInset: Insets(top: 0, left: 0, bottom: 336, right: 0), onScreen: true
                            ),
                            Node(
                                path: "session/home/pages/activity", identifier: "activity",
                                type: "ContentStateController", contentState: "loading"
                            ),
                        ]
                    ),
                    Node(
                        path: "session/home/dashboard", identifier: "dashboard", type: "StackController",
                        children: [
                            Node(
                                path: "session/home/dashboard/map", identifier: "map", type: "Controller",
                                frame: Rect(x: 640, y: 0, width: 640, height: 800)
                            )
                        ]
                    ),
                ]
            ),
        ]
    )
}
