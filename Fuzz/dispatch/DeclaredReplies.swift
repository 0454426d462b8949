import AppStateCore
import AppStateIPC
import StateContainers

/// What the interfaces allow a reply to be.
enum DeclaredReplies {
    static func isDeclared(error: String) -> Bool {
        AppStateErrorName(rawValue: error) != nil || VarlinkServiceErrorName(rawValue: error) != nil
    }

    /// Traps unless a successful reply decodes as the reply type of the method called, and
    /// only a `Watch` with `more` continues.
    static func check(_ reply: VarlinkReply, to call: VarlinkCall) {
        let declaration: (any VarlinkMethod.Type)? =
            switch call.method {
            case GetInfo.name: GetInfo.self
            case GetInterfaceDescription.name: GetInterfaceDescription.self
            default: AppStateMethod(rawValue: call.method)?.declaration
            }
        guard let declaration else { fatalError("invariant broken: a successful reply to undeclared \(call.method)") }
        require(
            reply.continues == (ObjectIdentifier(declaration) == ObjectIdentifier(Watch.self) && call.more),
            "continues \(reply.continues) for \(call)")
        do {
            try decode(reply.parameters, as: declaration)
        } catch {
            fatalError("invariant broken: reply to \(call.method) is not its declared type (\(error)): \(reply.parameters)")
        }
    }

    private static func decode<Method: VarlinkMethod>(_ parameters: [String: JSONValue], as method: Method.Type) throws(VarlinkError) {
        _ = try Method.Reply(parameters: parameters)
    }
}
