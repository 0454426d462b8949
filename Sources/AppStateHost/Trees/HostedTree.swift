import AppStateCore
import AppStateIPC
import StateContainers
import TreeFiles

/// One named tree the daemon hosts: its window, and the transient state that is not part of
/// the model's restorable state (the keyboard, whether the screen is blanked).
@MainActor package final class HostedTree {
    package let name: String
    package let window: Window
    let root: Controller
    /// The window size the tree file gives.
    let declaredSize: Size
    /// The keyboard's frame in window coordinates while it is shown.
    var keyboardFrame: Rect?
    /// What happens after a time without activity, as the tree file says.
    let idleSteps: [IdleStep]
    /// The page a kiosk shows while a screen's cannot be loaded, as the tree file says; the
    /// root's snapshot carries it.
    let offline: String?
    /// Whether the screen is blanked (`Blank`, or an idle step's blank) and not woken since
    /// (`Wake`). Not saved: a restarted daemon starts awake, and a tree with a blank step
    /// blanks again once its idle clock reaches it.
    var blanked = false

    init(name: String, window: Window, root: Controller, idleSteps: [IdleStep] = [], offline: String? = nil) {
        self.name = name
        self.window = window
        self.root = root
        declaredSize = window.size
        self.idleSteps = idleSteps
        self.offline = offline
        window.rootController = root
    }

    /// The controller at a full path from the root, shown or not.
    /// - Throws: `io.appstate.NoSuchNode` when nothing is at that path.
    func controller(at path: String) throws(VarlinkError) -> Controller {
        guard let controller = root.descendant(atPath: path) else { throw .noSuchNode(path: path) }
        return controller
    }

    /// The container of a kind at `path`, or when no path is given the first one on the
    /// chain of current children (through a presented controller rather than the current
    /// child of the one presenting it), else the first in the tree.
    /// - Throws: `io.appstate.NoSuchNode` or `io.appstate.WrongContainerType`.
    package func container<Container: Controller>(_ kind: Container.Type, at path: String?) throws(VarlinkError) -> Container {
        let expected = String(describing: kind)
        if let path {
            let controller = try controller(at: path)
            guard let container = controller as? Container else {
                throw .wrongContainerType(path: path, expected: expected, actual: String(describing: type(of: controller)))
            }
            return container
        }
        var current: Controller? = root
        while let controller = current {
            if let container = controller as? Container { return container }
            // What is on top: the controller this one presents, else its current child.
            let presented = controller.presentedViewController.flatMap { $0.presentingViewController === controller ? $0 : nil }
            current = presented ?? controller.currentChild
        }
        var found: Container?
        root.forEachDescendant { controller in
            if found == nil, let container = controller as? Container { found = container }
        }
        guard let found else { throw .noSuchNode(path: "\(name): no \(expected)") }
        return found
    }

    /// The end of the chain of current children from the root, through what is presented.
    var deepestCurrentPath: String { root.deepestCurrent.path }
}

extension Controller {
    /// Visits this controller and its descendants, parents first.
    func forEachDescendant(_ body: (Controller) -> Void) {
        body(self)
        for child in children { child.forEachDescendant(body) }
    }
}
