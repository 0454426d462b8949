import AppStateCore
import AppStateIPC

/// The `io.appstate` methods answered on the main actor, each registered once with the
/// operation that answers it, as a router registers its routes: decoding the parameters and
/// encoding the reply follow from the method's declared types.
@MainActor struct MethodHandlers {
    /// A reply's parameters, and the event when the call changed a tree.
    typealias Answer = (reply: [String: JSONValue], event: Event?)

    private var handlers: [AppStateMethod: any MethodHandler] = [:]

    /// Registers the operation that answers `method`.
    /// - Parameters:
    ///   - method: The method's declaration.
    ///   - operation: Answers decoded parameters with a reply and, for a change, its event.
    mutating func on<Method: VarlinkMethod>(
        _ method: Method.Type,
        _ operation: @escaping @MainActor (Method.Parameters) throws(VarlinkError) -> (Method.Reply, Event?)
    ) {
        guard let key = AppStateMethod(rawValue: Method.name) else { return }
        handlers[key] = TypedHandler<Method>(operation: operation)
    }

    /// Whether `method` has an operation.
    func handles(_ method: AppStateMethod) -> Bool { handlers[method] != nil }

    /// Answers a call of `method`.
    /// - Throws: What decoding or the operation throws; `MethodNotImplemented` for a method
    ///   with no operation.
    func answer(_ method: AppStateMethod, _ parameters: [String: JSONValue]) throws(VarlinkError) -> Answer {
        guard let handler = handlers[method] else { throw .methodNotImplemented(method.rawValue) }
        return try handler.answer(parameters)
    }
}

/// One registered operation, with its method's types erased.
@MainActor private protocol MethodHandler {
    func answer(_ parameters: [String: JSONValue]) throws(VarlinkError) -> MethodHandlers.Answer
}

@MainActor private struct TypedHandler<Method: VarlinkMethod>: MethodHandler {
    let operation: @MainActor (Method.Parameters) throws(VarlinkError) -> (Method.Reply, Event?)

    func answer(_ parameters: [String: JSONValue]) throws(VarlinkError) -> MethodHandlers.Answer {
        let (reply, event) = try operation(try Method.Parameters(parameters: parameters))
        return (reply.parameters, event)
    }
}
