/// The errors the `io.appstate` interface declares, by fully-qualified name.
public enum AppStateErrorName: String, CaseIterable, Sendable {
    /// No tree has the name given (parameter `tree`).
    case noSuchTree = "io.appstate.NoSuchTree"
    /// No controller is at the path given (parameter `path`).
    case noSuchNode = "io.appstate.NoSuchNode"
    /// The controller at the path is not the container the method needs (`path`, `expected`, `actual`).
    case wrongContainerType = "io.appstate.WrongContainerType"
    /// The container cannot make the change now (`path`, `reason`).
    case invalidTransition = "io.appstate.InvalidTransition"
    /// Someone else is logged in and `switch` was not given (`user`).
    case alreadyLoggedIn = "io.appstate.AlreadyLoggedIn"
    /// A page index outside the container's pages (`path`, `index`, `count`).
    case outOfRange = "io.appstate.OutOfRange"
    /// The container has no child with the identifier given (`path`, `id`).
    case noSuchChild = "io.appstate.NoSuchChild"
    /// The container is in the middle of an animated transition (`path`).
    case transitionInProgress = "io.appstate.TransitionInProgress"
    /// The daemon serves its maximum number of connections (`limit`).
    case tooManyConnections = "io.appstate.TooManyConnections"
    /// A message exceeded the maximum size (`limit`).
    case messageTooLarge = "io.appstate.MessageTooLarge"
    /// A watcher fell behind and is disconnected (`queued`).
    case watcherTooSlow = "io.appstate.WatcherTooSlow"
    /// A change could not be saved (`reason`).
    case storageFailure = "io.appstate.StorageFailure"
    /// The tree's session follows logind, so clients cannot change it (`tree`, `seat`).
    case sessionOwnedByLogind = "io.appstate.SessionOwnedByLogind"
    /// A parameter has an impossible value (`parameter`, `reason`).
    case invalidValue = "io.appstate.InvalidValue"

    /// The name without the interface, as the interface file declares it, e.g. `NoSuchNode`.
    public var shortName: String { String(rawValue.dropFirst(AppStateInterface.name.count + 1)) }
}
