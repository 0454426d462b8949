import Varlink

/// The clients going through the certification, each with the method it must call next.
///
/// A client that never ends its run is forgotten once ``capacity`` newer clients have
/// started, so that clients that give up cannot grow the service's memory.
struct CertificationSessions: Sendable {
    /// The most clients remembered at once.
    static let capacity = 1024

    private var next: [String: CertificationMethod] = [:]
    /// The clients in the order they started, the oldest first.
    private var started: [String] = []

    /// Starts a client's run.
    /// - Returns: The client's id, 32 hexadecimal digits, as Varlink's implementations draw.
    mutating func start() -> String {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<16).map { _ in String(UInt8.random(in: 0...255, using: &generator), radix: 16) }
            .map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        if started.count >= Self.capacity { next[started.removeFirst()] = nil }
        started.append(id)
        next[id] = .test01
        return id
    }

    /// Moves a client on past `method`.
    /// - Parameters:
    ///   - client: The client's id.
    ///   - method: The method it called.
    /// - Throws: `ClientIdError` for a client that did not start (or was forgotten);
    ///   `CertificationError` for a call out of order, which forgets the client.
    mutating func advance(_ client: String, past method: CertificationMethod) throws(VarlinkError) {
        guard let wanted = next[client] else { throw CertificationInterface.clientIdError }
        guard wanted == method else {
            forget(client)
            throw CertificationInterface.certificationError(wants: ["method": .string(wanted.rawValue)], got: ["method": .string(method.rawValue)])
        }
        let order = CertificationMethod.allCases
        let position = order.firstIndex(of: method).map { order.index(after: $0) } ?? order.endIndex
        if position < order.endIndex { next[client] = order[position] } else { forget(client) }
    }

    /// Forgets a client: its run failed or ended.
    /// - Parameter client: The client's id.
    mutating func forget(_ client: String) {
        next[client] = nil
        started.removeAll { $0 == client }
    }
}
