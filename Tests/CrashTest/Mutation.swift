import AppStateCore
import AppStateIPC

/// One absolute write of a register, as the Varlink call that makes it: what both the kill -9
/// trials and the power-loss replay send.
struct Mutation: Sendable {
    let register: Register
    let method: String
    let parameters: [String: JSONValue]
    /// The register's value once the call is made.
    let value: String

    /// Logs `user` in, replacing whoever is.
    static func login(_ user: String) -> Mutation {
        Mutation(register: .user, method: Login.name, parameters: ["user": .string(user), "switch": true], value: user)
    }

    static let logout = Mutation(register: .user, method: Logout.name, parameters: [:], value: "")

    static func setPage(_ page: Int) -> Mutation {
        Mutation(register: .page, method: SetPage.name, parameters: ["index": .number(Double(page))], value: String(page))
    }

    static func selectMenuItem(_ item: String) -> Mutation {
        Mutation(register: .menu, method: SelectMenuItem.name, parameters: ["id": .string(item)], value: item)
    }

    /// Pushes `destination` onto the navigation stack `stack`.
    static func push(_ destination: String, onto stack: [String]) -> Mutation {
        Mutation(
            register: .navigation, method: Push.name, parameters: ["id": .string(destination)],
            value: (stack + [destination]).joined(separator: "/"))
    }

    /// Pops the top of the navigation stack `stack`.
    static func pop(_ stack: [String]) -> Mutation {
        Mutation(register: .navigation, method: Pop.name, parameters: [:], value: stack.dropLast().joined(separator: "/"))
    }

    /// Makes the call and waits for its reply.
    /// - Throws: ``VarlinkError`` for an error reply, ``VarlinkClientError`` when the connection fails.
    func send(with client: VarlinkClient) throws {
        _ = try client.call(method: method, parameters: parameters)
    }
}
