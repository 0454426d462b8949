import AppStateIPC

/// Where a call goes, decided once from its method name: to `org.varlink.service`, to an
/// `io.appstate` method with its ``AppStateMethod/effect``, or nowhere, with the error that
/// says why.
enum Route: Sendable {
    /// A method of `org.varlink.service`, answered from constants.
    case service
    /// A method of `io.appstate`.
    case appState(AppStateMethod)
    /// A method the daemon does not provide.
    case unknown(VarlinkError)

    /// Looks the method up.
    /// - Parameter method: A call's fully-qualified method name.
    init(method: String) {
        if let known = AppStateMethod(rawValue: method) {
            self = .appState(known)
        } else if method.hasPrefix(VarlinkServiceInterface.name + ".") {
            self = .service
        } else if method.hasPrefix(AppStateInterface.name + ".") {
            self = .unknown(.methodNotFound(method))
        } else {
            self = .unknown(.interfaceNotFound(method.lastIndex(of: ".").map { String(method[..<$0]) } ?? method))
        }
    }

    /// Whether the call only reads what is published, so it may be answered on the thread it
    /// arrived on from the latest publication.
    var readsPublished: Bool {
        switch self {
        case .service: true
        case .appState(let method): method.effect == .readsPublished
        case .unknown: false
        }
    }

    /// The method's effect, for an `io.appstate` method.
    var effect: AppStateMethod.Effect? {
        guard case .appState(let method) = self else { return nil }
        return method.effect
    }
}
