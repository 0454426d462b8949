import AppStateIPC

/// Where a call goes, decided once from its method name: to a registered method with its
/// ``MethodEffect``, or nowhere, with the error that says why.
enum Route: Sendable {
    /// A registered method.
    case method(MethodRegistry.Entry)
    /// A method the processor does not provide.
    case unknown(VarlinkError)

    /// The method's effect; nil for an unknown method.
    var effect: MethodEffect? {
        guard case .method(let entry) = self else { return nil }
        return entry.effect
    }

    /// Whether the call only reads what is published, so that the batch publishes what it
    /// changed before it.
    var readsPublished: Bool { effect == .readsPublished }
}
