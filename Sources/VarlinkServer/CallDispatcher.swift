import Varlink

/// Sends each call to the processor of its interface, and answers `org.varlink.service`
/// and calls of interfaces nobody hosts itself.
///
/// A batch of a connection may name several interfaces: each run of consecutive calls of
/// one processor goes to it in one hop, and the next run only once it has answered, so the
/// replies keep the order of the calls.
struct CallDispatcher: Sendable {
    /// Each processor after the prefix of its methods' names (its interface's name and a dot),
    /// searched in order: a daemon hosts few interfaces, and comparing a few bytes costs a call
    /// less than hashing its method's name.
    private let processors: [(methodPrefix: [UInt8], processor: any CallProcessor)]
    private let info: ServiceInfo
    private let interfaces: [VarlinkInterfaceDescription]
    private let runner: any MainActorRunner
    private let metrics: any ServerMetrics

    /// Creates a dispatcher.
    /// - Parameters:
    ///   - processors: One per hosted interface.
    ///   - info: What `GetInfo` says.
    ///   - runner: How calls reach the main actor.
    ///   - metrics: Where the calls it answers itself are counted.
    init(processors: [any CallProcessor], info: ServiceInfo, runner: any MainActorRunner, metrics: any ServerMetrics) {
        self.processors = processors.map { (Array("\($0.interface.name).".utf8), $0) }
        self.info = info
        self.interfaces =
            [VarlinkInterfaceDescription(name: VarlinkServiceInterface.name, description: VarlinkServiceInterface.description)]
            + processors.map(\.interface)
        self.runner = runner
        self.metrics = metrics
    }

    /// The processor of a call's interface (the method's name up to its last dot), or nil
    /// when the server answers it itself. The first processor of an interface hosted twice
    /// answers it.
    private func processor(of call: VarlinkCall) -> (any CallProcessor)? {
        let method = call.method.utf8
        for (prefix, processor) in processors where method.starts(with: prefix) {
            if !method.dropFirst(prefix.count).contains(UInt8(ascii: ".")) { return processor }
        }
        return nil
    }

    /// Answers a call at once when it can be: `org.varlink.service`, an interface nobody
    /// hosts, or a read its processor answers from what it published.
    /// - Parameters:
    ///   - call: A call as it arrived.
    ///   - buffer: Where its reply goes, unless it is `oneway`.
    /// - Returns: Whether it was answered.
    func answerImmediately(_ call: VarlinkCall, into buffer: inout [UInt8]) -> Bool {
        if let processor = processor(of: call) { return processor.answerImmediately(call, into: &buffer) }
        let reply = answer(call)
        metrics.countRequest(call.method, error: reply.error)
        if !call.oneway { reply.encode(into: &buffer) }
        return true
    }

    /// Answers a batch, in order, and hands the replies to `reply` on the main actor.
    /// - Parameters:
    ///   - calls: The calls.
    ///   - connection: Where they came from.
    ///   - reply: Receives one entry per call answered, as ``CallProcessor`` gives them.
    func process(
        _ calls: [VarlinkCall], on connection: ConnectionContext,
        reply: @escaping @MainActor @Sendable ([VarlinkReply?]) -> Void
    ) {
        let dispatcher = self
        runner.executeNowOrSoon {
            dispatcher.continueBatch(calls[...], on: connection, answered: [], reply: reply)
        }
    }

    @MainActor private func continueBatch(
        _ calls: ArraySlice<VarlinkCall>, on connection: ConnectionContext, answered: [VarlinkReply?],
        reply: @escaping @MainActor @Sendable ([VarlinkReply?]) -> Void
    ) {
        var answered = answered
        var rest = calls
        while let call = rest.first, processor(of: call) == nil {
            let answer = self.answer(call)
            metrics.countRequest(call.method, error: answer.error)
            answered.append(call.oneway ? nil : answer)
            rest = rest.dropFirst()
        }
        guard let first = rest.first, let processor = processor(of: first) else { return reply(answered) }
        let run = rest.prefix { self.processor(of: $0) === processor }
        let after = rest.dropFirst(run.count)
        processor.process(Array(run), on: connection) { replies in
            guard !BatchReplies.streams(replies), !after.isEmpty else { return reply(answered + replies) }
            self.continueBatch(after, on: connection, answered: answered + replies, reply: reply)
        }
    }

    /// The reply to a call of `org.varlink.service` or of an interface nobody hosts.
    private func answer(_ call: VarlinkCall) -> VarlinkReply {
        do throws(VarlinkError) {
            if call.upgrade { throw .methodNotImplemented(call.method) }
            return VarlinkReply(parameters: try answerService(call))
        } catch {
            return VarlinkReply(error: error)
        }
    }

    private func answerService(_ call: VarlinkCall) throws(VarlinkError) -> [String: JSONValue] {
        switch call.method {
        case GetInfo.name:
            _ = try GetInfo.Parameters(parameters: call.parameters)
            return GetInfo.Reply(
                vendor: info.vendor, product: info.product, version: info.version, url: info.url,
                interfaces: interfaces.map(\.name)
            ).parameters
        case GetInterfaceDescription.name:
            let parameters = try GetInterfaceDescription.Parameters(parameters: call.parameters)
            guard let interface = interfaces.first(where: { $0.name == parameters.interface }) else {
                throw .interfaceNotFound(parameters.interface)
            }
            return GetInterfaceDescription.Reply(description: interface.description).parameters
        default:
            let interface = call.method.lastIndex(of: ".").map { String(call.method[..<$0]) } ?? call.method
            if interface == VarlinkServiceInterface.name { throw .methodNotFound(call.method) }
            throw .interfaceNotFound(interface)
        }
    }
}
