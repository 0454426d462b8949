import AppStateCore
import AppStateIPC

/// What the supervisor of the kiosk acts on, one at a time and in order: the tree, the browser
/// and the clock, each from a task of its own.
enum KioskInput: Sendable {
    /// The tree as it is now.
    case tree(Node)
    /// A message of the browser of generation `browser`.
    case event(DevToolsEvent, browser: Int)
    /// The browser of generation `browser` exited.
    case exited(status: Int32, browser: Int)
    /// A sign of life of the page of generation `browser`.
    case alive(browser: Int)
    /// A load of the page of generation `browser` failed, with the browser's error text.
    case failed(String, browser: Int)
    /// Time to ask the page for a sign of life and keep its cookies.
    case tick
    /// Time to load again a page that failed, in the browser of generation `browser`.
    case retry(browser: Int)
    /// SIGTERM or SIGINT.
    case stop
}
