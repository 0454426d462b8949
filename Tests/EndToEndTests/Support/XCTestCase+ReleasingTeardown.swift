import XCTest

extension XCTestCase {
    /// Runs `block` with `object` at teardown, then lets the object go. XCTest keeps every
    /// teardown block, and so what it captures, until the process ends: a daemon captured for
    /// good never ran its `deinit`, and each test left its directory (and its buses' sockets)
    /// in /tmp.
    /// - Parameters:
    ///   - object: What the block needs, released once the block has run.
    ///   - block: The teardown's checks.
    func addTeardownBlock<Object: AnyObject>(releasing object: Object, _ block: @escaping (Object) -> Void) {
        var held: Object? = object
        addTeardownBlock {
            guard let object = held else { return }
            held = nil
            block(object)
        }
    }
}
