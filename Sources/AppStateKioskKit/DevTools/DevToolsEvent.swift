import AppStateCore

/// A message the browser sends of its own accord: `Page.loadEventFired`,
/// `Runtime.bindingCalled`, `Target.targetCrashed`…
public struct DevToolsEvent: Sendable {
    /// The event's name, e.g. `Runtime.bindingCalled`.
    public let method: String
    /// The event's parameters.
    public let parameters: [String: JSONValue]
    /// The session of the target it comes from; nil for the browser's own events.
    public let session: String?

    /// An event as the browser sent it.
    /// - Parameters:
    ///   - method: The event's name.
    ///   - parameters: Its parameters.
    ///   - session: The session it comes from.
    public init(method: String, parameters: [String: JSONValue], session: String?) {
        self.method = method
        self.parameters = parameters
        self.session = session
    }

    /// The string parameter `name`, when the event has one.
    /// - Parameter name: The parameter's name.
    public func string(_ name: String) -> String? {
        if case .string(let value)? = parameters[name] { value } else { nil }
    }
}
