// swift-format-ignore-file
// The examples stand here as their documents spell them.
import StateContainers

// The Swift examples of the model's documentation, each verbatim between its two marker
// comments, which name the document; ConsumerPackagesTests checks that they are the
// documents' own and that the output is what the examples' comments say. Top-level code runs
// on the main actor, as the model requires.

/// StateContainers.md, Overview: a tree built from the default tree file, logged in.
/// - Throws: What building the tree or logging in throws.
@MainActor func overview() throws {
    // Example from Sources/StateContainers/StateContainers.docc/StateContainers.md
    let window = try TreeBuilder.build(TreeFile.default.trees[0])
    window.makeVisible()
    let session = window.rootController as! LoginStateController
    try session.logIn(user: "ada")
    print(session.shownController.path)   // "session/home"
    print(session.deepestCurrent.path)     // "session/home/pages/overview"
    // End of example
}

/// NotificationBusDelivery.md, Overview: an observer of a bus, and a post by name and typed.
/// - Parameter bus: The bus the example posts on.
@MainActor func observingTheBus(_ bus: NotificationBus) {
    // Example from Sources/StateContainers/StateContainers.docc/NotificationBusDelivery.md
    let token = bus.addObserver(forName: .sessionDidLogIn) { notification in
        print(notification.userInfo["user"]?.stringValue ?? "")
    }
    bus.post(name: .sessionDidLogIn, userInfo: ["user": "ada"])   // prints "ada"
    bus.post(SessionDidLogIn(user: "ada"))                        // the same, typed
    token.cancel()
    // End of example
    bus.post(name: .sessionDidLogIn, userInfo: ["user": "grace"])
    print("observers after cancel:", bus.observerCount)
}

try overview()
observingTheBus(NotificationBus())
try vocabularyTour()
