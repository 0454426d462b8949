import Varlink

/// The certification's client: runs Start, Test01 … Test11 and End against a service, each
/// call with what the previous reply carried, as Varlink's own clients do, and checks every
/// reply against what the step answers.
package enum CertificationClient {
    /// Runs the certification on one connection.
    /// - Parameter client: A connection to the service.
    /// - Returns: A line per step, with its reply, for the transcript.
    /// - Throws: ``CertificationFailure`` when a reply differs; `VarlinkError` when the
    ///   service answers with an error; `VarlinkClientError` when the connection fails.
    package static func run(on client: VarlinkClient) throws -> [String] {
        var transcript: [String] = []
        func log(_ step: String, _ reply: some VarlinkObject) {
            transcript.append("\(step): \(JSONValue.object(reply.parameters).jsonText)")
        }
        let values = CertificationValues.self
        let start = try call(client, Start.self, EmptyParameters())
        log("Start", start)
        let id = start.client_id
        let test01 = try call(client, Test01.self, .init(client_id: id), expecting: values.test01)
        log("Test01", test01)
        let test02 = try call(client, Test02.self, .init(client_id: id, bool: test01.bool), expecting: values.test02)
        log("Test02", test02)
        let test03 = try call(client, Test03.self, .init(client_id: id, int: test02.int), expecting: values.test03)
        log("Test03", test03)
        let test04 = try call(client, Test04.self, .init(client_id: id, float: test03.float), expecting: values.test04)
        log("Test04", test04)
        let test05 = try call(client, Test05.self, .init(client_id: id, string: test04.string), expecting: values.test05)
        log("Test05", test05)
        let test06 = try call(
            client, Test06.self, .init(client_id: id, bool: test05.bool, int: test05.int, float: test05.float, string: test05.string),
            expecting: values.test06)
        log("Test06", test06)
        let sent = test06.structure
        let test07 = try call(
            client, Test07.self, .init(client_id: id, structure: .init(bool: sent.bool, int: sent.int, float: sent.float, string: sent.string)),
            expecting: values.test07)
        log("Test07", test07)
        let test08 = try call(client, Test08.self, .init(client_id: id, map: test07.map), expecting: values.test08)
        log("Test08", test08)
        let test09 = try call(client, Test09.self, .init(client_id: id, set: test08.set), expecting: values.test09)
        log("Test09", test09)
        var stream = try client.stream(method: Test10.name, parameters: Test10.Parameters(client_id: id, mytype: test09.mytype).parameters)
        var strings: [String] = []
        while let reply = try stream.next() { strings.append(try decode(Test10.self, reply).string) }
        guard strings == values.test10 else { throw CertificationFailure("Test10 replied \(strings), not \(values.test10)") }
        transcript.append("Test10: \(JSONValue.array(strings.map(JSONValue.string)).jsonText)")
        try client.send(method: Test11.name, parameters: Test11.Parameters(client_id: id, last_more_replies: strings).parameters)
        transcript.append("Test11: oneway")
        let end = try call(client, End.self, .init(client_id: id), expecting: values.end)
        log("End", end)
        return transcript
    }

    /// Calls one step and checks its reply.
    private static func call<Method: VarlinkMethod>(
        _ client: VarlinkClient, _ method: Method.Type, _ parameters: Method.Parameters, expecting wanted: Method.Reply? = nil
    ) throws -> Method.Reply {
        let reply = try decode(method, try client.call(method: Method.name, parameters: parameters.parameters))
        if let wanted, reply != wanted { throw CertificationFailure("\(Method.name) replied \(reply), not \(wanted)") }
        return reply
    }

    /// Decodes a reply, less the members the interface does not declare: a service may add
    /// some (Python's adds `client_id` to Test09's), and a client keeps what it knows.
    private static func decode<Method: VarlinkMethod>(_ method: Method.Type, _ parameters: [String: JSONValue]) throws(VarlinkError) -> Method.Reply {
        try Method.Reply(parameters: parameters.filter { Method.Reply.memberNames.contains($0.key) })
    }
}
