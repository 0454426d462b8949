// swift-format-ignore-file
// The examples stand here as their documents spell them.
import AppStateIPC

// The Swift examples of the client's documentation, each verbatim between its two marker
// comments, which name the document; ConsumerPackagesTests checks that they are the
// documents' own and runs them against a real appstated. The examples find the daemon as any
// client does, at AppStateInterface.defaultSocketPath(): the test runs this program as a user
// whose XDG_RUNTIME_DIR holds the daemon's socket.
//
// `ClientConsumer overview` runs UsingTheClient.md's first example and `ClientConsumer async`
// its second, each until the daemon closes the connection; `ClientConsumer vocabulary` runs
// the tour of the vocabulary.

/// UsingTheClient.md, Overview: a read, a change, then every change as it happens.
/// - Throws: The client's errors; the watch ends when the daemon closes the connection.
func overview() throws {
    // Example from Sources/AppStateIPC/AppStateIPC.docc/UsingTheClient.md
    let client = try VarlinkClient(path: AppStateInterface.defaultSocketPath())
    let current = try client.call(GetCurrent.self, .init())
    print(current.path)                    // "session/login/login-form"
    _ = try client.call(Login.self, .init(user: "ada"))

    var watch = try client.stream(method: Watch.name, parameters: TreeParameters().parameters)
    while let reply = try watch.next(as: Watch.self) {
        if let event = reply.event { print(event.name, event.current) }
    }
    // End of example
}

/// UsingTheClient.md, From async code: the changes as an asynchronous sequence.
/// - Parameter client: The connection the stream takes over.
/// - Throws: The client's errors; the stream ends when the daemon closes the connection.
func fromAsyncCode(client: VarlinkClient) async throws {
    // Example from Sources/AppStateIPC/AppStateIPC.docc/UsingTheClient.md
    for try await reply in client.replies(Watch.self, .init()) {
        if let event = reply.event { print(event.name) }
    }
    // End of example
}

/// Runs an example whose watch ends only when the daemon closes the connection, which is how
/// the test ends it, and says so on a line of its own.
/// - Parameter example: The example.
/// - Throws: Any other error of the example.
func untilTheDaemonCloses(_ example: () async throws -> Void) async throws {
    do {
        try await example()
    } catch let error as VarlinkClientError where error.kind == .connectionClosed {
        print("the daemon closed the connection")
    }
}

switch CommandLine.arguments.dropFirst().first {
case "overview":
    try await untilTheDaemonCloses { try overview() }
case "async":
    try await untilTheDaemonCloses { try await fromAsyncCode(client: VarlinkClient(path: AppStateInterface.defaultSocketPath())) }
case "vocabulary":
    try vocabularyTour()
default:
    fatalError("usage: ClientConsumer overview|async|vocabulary")
}
