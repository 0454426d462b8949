import Varlink

/// The certification service: answers `org.varlink.certification` as Varlink's own
/// implementations do, checking each call of a client's run (Start, Test01 … Test11, End)
/// against what the step wants, its place in the run included.
///
/// A call that differs is answered with `CertificationError`, which names what was wanted and
/// what came, and ends the client's run; a client that did not start gets `ClientIdError`.
@MainActor package final class CertificationProcessor: CallProcessor {
    private var sessions = CertificationSessions()

    /// Creates the service, with no client started.
    package nonisolated init() {}

    package nonisolated var interface: VarlinkInterfaceDescription { CertificationInterface.hosted }

    package func process(_ calls: [VarlinkCall], on connection: ConnectionContext, reply: @escaping @MainActor ([VarlinkReply?]) -> Void) {
        var replies: [VarlinkReply?] = []
        for call in calls {
            let answers: [VarlinkReply]
            do throws(VarlinkError) {
                answers = try answer(call)
            } catch {
                answers = [VarlinkReply(error: error)]
            }
            if call.oneway { replies.append(nil) } else { replies.append(contentsOf: answers) }
        }
        reply(replies)
    }

    /// Every call waits for the main actor, where the runs are kept.
    package nonisolated func answerImmediately(_ call: VarlinkCall, into buffer: inout [UInt8]) -> Bool { false }

    /// The replies to a call: one, or ten for Test10.
    private func answer(_ call: VarlinkCall) throws(VarlinkError) -> [VarlinkReply] {
        guard let method = CertificationMethod(rawValue: call.method) else { throw .methodNotFound(call.method) }
        let values = CertificationValues.self
        switch method {
        case .start:
            _ = try Start.Parameters(parameters: call.parameters)
            return [VarlinkReply(parameters: Start.Reply(client_id: sessions.start()).parameters)]
        case .test01:
            try check(Test01.self, method, call) { Test01.Parameters(client_id: $0) }
            return [VarlinkReply(parameters: values.test01.parameters)]
        case .test02:
            try check(Test02.self, method, call) { Test02.Parameters(client_id: $0, bool: values.test01.bool) }
            return [VarlinkReply(parameters: values.test02.parameters)]
        case .test03:
            try check(Test03.self, method, call) { Test03.Parameters(client_id: $0, int: values.test02.int) }
            return [VarlinkReply(parameters: values.test03.parameters)]
        case .test04:
            try check(Test04.self, method, call) { Test04.Parameters(client_id: $0, float: values.test03.float) }
            return [VarlinkReply(parameters: values.test04.parameters)]
        case .test05:
            try check(Test05.self, method, call) { Test05.Parameters(client_id: $0, string: values.test04.string) }
            return [VarlinkReply(parameters: values.test05.parameters)]
        case .test06:
            let sent = values.test05
            try check(Test06.self, method, call) {
                Test06.Parameters(client_id: $0, bool: sent.bool, int: sent.int, float: sent.float, string: sent.string)
            }
            return [VarlinkReply(parameters: values.test06.parameters)]
        case .test07:
            let sent = values.test06.structure
            try check(Test07.self, method, call) {
                Test07.Parameters(client_id: $0, structure: .init(bool: sent.bool, int: sent.int, float: sent.float, string: sent.string))
            }
            return [VarlinkReply(parameters: values.test07.parameters)]
        case .test08:
            try check(Test08.self, method, call) { Test08.Parameters(client_id: $0, map: values.test07.map) }
            return [VarlinkReply(parameters: values.test08.parameters)]
        case .test09:
            try check(Test09.self, method, call) { Test09.Parameters(client_id: $0, set: values.test08.set) }
            return [VarlinkReply(parameters: values.test09.parameters)]
        case .test10:
            try check(Test10.self, method, call, more: true) { Test10.Parameters(client_id: $0, mytype: values.test09.mytype) }
            return values.test10.enumerated().map { position, string in
                VarlinkReply(parameters: Test10.Reply(string: string).parameters, continues: position < values.test10.count - 1)
            }
        case .test11:
            try check(Test11.self, method, call, oneway: true) { Test11.Parameters(client_id: $0, last_more_replies: values.test10) }
            return [VarlinkReply(parameters: [:])]
        case .end:
            try check(End.self, method, call) { End.Parameters(client_id: $0) }
            return [VarlinkReply(parameters: values.end.parameters)]
        }
    }

    /// Checks a call of a client's run: its client, its place in the run, its parameters
    /// (those `wants` gives for the client) and its `more` and `oneway`.
    /// - Throws: `InvalidParameter` for parameters the method does not take; `ClientIdError`
    ///   or `CertificationError`, which ends the client's run.
    private func check<Method: VarlinkMethod>(
        _ declaration: Method.Type, _ method: CertificationMethod, _ call: VarlinkCall, more: Bool = false, oneway: Bool = false,
        wants: (String) -> Method.Parameters
    ) throws(VarlinkError) {
        let parameters = try Method.Parameters(parameters: call.parameters)
        let client = call.parameters["client_id"]?.stringValue ?? ""
        try sessions.advance(client, past: method)
        let wanted = wants(client)
        guard parameters == wanted, call.more == more, call.oneway == oneway else {
            sessions.forget(client)
            throw CertificationInterface.certificationError(
                wants: Self.described(call.method, wanted.parameters, more: more, oneway: oneway),
                got: Self.described(call.method, call.parameters, more: call.more, oneway: call.oneway))
        }
    }

    /// A call as an object, for `CertificationError`: as it travels, less what is absent.
    private static func described(_ method: String, _ parameters: [String: JSONValue], more: Bool, oneway: Bool) -> [String: JSONValue] {
        var object: [String: JSONValue] = ["method": .string(method), "parameters": .object(parameters)]
        if more { object["more"] = true }
        if oneway { object["oneway"] = true }
        return object
    }
}
