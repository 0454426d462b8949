import AppStateCore
import AppStateIPC

/// The methods a ``RequestProcessor`` answers, each registered once with its effect and the
/// operation that answers it, as a router registers its routes: decoding the parameters and
/// encoding the reply follow from the method's declared types, and a read registered here is
/// answered on both paths, at once on the connection's thread and in a batch.
struct MethodRegistry: Sendable {
    /// A reply's parameters, and the event when the call changed a tree.
    typealias Answer = (reply: [String: JSONValue], event: Event?)
    /// Sends a request to a system service and hands the reply, or the error, to `answer` on
    /// the main actor in a later turn, once the service answered: never within the call, so
    /// that a batch of requests resumes from the runner each time rather than recursing.
    typealias Request<Reply> = @MainActor @Sendable (_ answer: @escaping @MainActor @Sendable (Result<Reply, VarlinkError>) -> Void) -> Void
    /// Checks a call to a system service and returns its request, or throws the error that
    /// refuses it at once, without asking the service.
    typealias Ask = @MainActor @Sendable (RequestProcessor, [String: JSONValue]) throws(VarlinkError) -> Request<[String: JSONValue]>

    /// How one method is answered.
    enum Handler: Sendable {
        /// From the published trees, on any thread.
        case read(Read)
        /// On the main actor, by the processor: a live read or a change.
        case mainActor(@MainActor @Sendable (RequestProcessor, [String: JSONValue]) throws(VarlinkError) -> Answer)
        /// By the processor's stream of changes, or its inhibitors.
        case stream
        /// By the idle clock: on any thread while no idle step has fired, else on the main actor.
        case activity
        /// By a system service, on the main actor, once it answered.
        case asks(Ask)
    }

    /// How a read of the published trees is answered: as the reply's values, which a batch
    /// gathers, or straight to the bytes of its frame, which a call answered at once sends.
    struct Read: Sendable {
        /// The reply's parameters.
        let parameters: @Sendable ([String: JSONValue], TreeSnapshots) throws(VarlinkError) -> [String: JSONValue]
        /// Appends the reply's frame, NUL included, to a buffer; nothing when it throws.
        let frame: @Sendable ([String: JSONValue], TreeSnapshots, inout [UInt8]) throws(VarlinkError) -> Void
    }

    /// A registered method.
    struct Entry: Sendable {
        let effect: MethodEffect
        let handler: Handler
    }

    private var entries: [String: Entry] = [:]

    /// An empty registry.
    init() {}

    /// The entry of a method, or nil for one nobody registered.
    func entry(_ method: String) -> Entry? {
        entries[method]
    }

    /// The names of the registered methods.
    var methods: Set<String> { Set(entries.keys) }

    /// Registers a read of the published trees.
    /// - Parameters:
    ///   - method: The method's declaration.
    ///   - writeReply: Appends the JSON text of a reply's parameters, as
    ///     `JSONWriter.writeObject(reply.parameters, into:)` writes them, for a reply that
    ///     writes itself faster than through its values; nil to write its values.
    ///   - answer: Answers decoded parameters from the trees as last published; called on
    ///     the connection's thread or on the main actor.
    mutating func read<Method: VarlinkMethod>(
        _ method: Method.Type,
        writeReply: (@Sendable (Method.Reply, inout [UInt8]) -> Void)? = nil,
        _ answer: @escaping @Sendable (Method.Parameters, TreeSnapshots) throws(VarlinkError) -> Method.Reply
    ) {
        let read = Read(
            parameters: { parameters, snapshots throws(VarlinkError) in
                try answer(try Method.Parameters(parameters: parameters), snapshots).parameters
            },
            frame: { parameters, snapshots, buffer throws(VarlinkError) in
                let reply = try answer(try Method.Parameters(parameters: parameters), snapshots)
                guard let writeReply else { return VarlinkReply(parameters: reply.parameters).encode(into: &buffer) }
                buffer.append(contentsOf: #"{"parameters":"#.utf8)
                writeReply(reply, &buffer)
                buffer.append(UInt8(ascii: "}"))
                buffer.append(0)
            })
        entries[Method.name] = Entry(effect: .readsPublished, handler: .read(read))
    }

    /// Registers a read of what lives on the main actor.
    /// - Parameters:
    ///   - method: The method's declaration.
    ///   - answer: Answers decoded parameters, given the processor whose state it reads.
    mutating func live<Method: VarlinkMethod>(
        _ method: Method.Type,
        _ answer: @escaping @MainActor @Sendable (RequestProcessor, Method.Parameters) throws(VarlinkError) -> Method.Reply
    ) {
        register(method, effect: .readsLive) { processor, parameters throws(VarlinkError) in (try answer(processor, parameters), nil) }
    }

    /// Registers a change of the trees.
    /// - Parameters:
    ///   - method: The method's declaration.
    ///   - durable: Whether it changes restorable state, whose reply waits for the write.
    ///   - operation: Answers decoded parameters on the trees with a reply and, when it
    ///     changed a tree, its event.
    mutating func change<Method: VarlinkMethod>(
        _ method: Method.Type,
        durable: Bool,
        _ operation: @escaping @MainActor @Sendable (TreeHost, Method.Parameters) throws(VarlinkError) -> (Method.Reply, Event?)
    ) {
        register(method, effect: durable ? .changesDurably : .changesTransiently) { processor, parameters throws(VarlinkError) in
            try operation(processor.host, parameters)
        }
    }

    /// Registers the report of a front-end, answered by the processor.
    /// - Parameters:
    ///   - method: The method's declaration.
    ///   - answer: Answers decoded parameters with a reply and, when the report changed what
    ///     the processor knows of the front-end, its event.
    mutating func report<Method: VarlinkMethod>(
        _ method: Method.Type,
        _ answer: @escaping @MainActor @Sendable (RequestProcessor, Method.Parameters) throws(VarlinkError) -> (Method.Reply, Event?)
    ) {
        register(method, effect: .reportsFrontEnd, answer)
    }

    /// Registers a stream of the trees' changes, answered by the processor itself.
    /// - Parameter method: The method's declaration.
    mutating func stream<Method: VarlinkMethod>(_ method: Method.Type) {
        entries[Method.name] = Entry(effect: .streams, handler: .stream)
    }

    /// Registers the report of an activity, answered by the idle clock.
    /// - Parameter method: The method's declaration.
    mutating func activity<Method: VarlinkMethod>(_ method: Method.Type) {
        entries[Method.name] = Entry(effect: .reportsActivity, handler: .activity)
    }

    /// Registers a request to a system service, whose reply waits for the service's answer.
    /// - Parameters:
    ///   - method: The method's declaration.
    ///   - prepare: Checks decoded parameters and returns the request (see ``Request``), or
    ///     throws the error that refuses the call at once.
    mutating func ask<Method: VarlinkMethod>(
        _ method: Method.Type,
        _ prepare: @escaping @MainActor @Sendable (RequestProcessor, Method.Parameters) throws(VarlinkError) -> Request<Method.Reply>
    ) {
        entries[Method.name] = Entry(
            effect: .asksSystem,
            handler: .asks { processor, parameters throws(VarlinkError) in
                let send = try prepare(processor, try Method.Parameters(parameters: parameters))
                return { answer in send { outcome in answer(outcome.map(\.parameters)) } }
            })
    }

    /// Registers an inhibitor, held by the processor while the connection is open.
    /// - Parameter method: The method's declaration.
    mutating func hold<Method: VarlinkMethod>(_ method: Method.Type) {
        entries[Method.name] = Entry(effect: .holds, handler: .stream)
    }

    private mutating func register<Method: VarlinkMethod>(
        _ method: Method.Type,
        effect: MethodEffect,
        _ operation: @escaping @MainActor @Sendable (RequestProcessor, Method.Parameters) throws(VarlinkError) -> (Method.Reply, Event?)
    ) {
        entries[Method.name] = Entry(
            effect: effect,
            handler: .mainActor { processor, parameters throws(VarlinkError) in
                let (reply, event) = try operation(processor, try Method.Parameters(parameters: parameters))
                return (reply.parameters, event)
            })
    }
}
