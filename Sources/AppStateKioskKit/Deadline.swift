/// A wait that took longer than it may.
struct DeadlinePassed: Error {}

/// Runs `body`, giving up after `limit`: a hung page may never answer.
/// - Parameters:
///   - limit: How long `body` may take.
///   - body: The work; cancelled when the limit passes.
/// - Returns: What `body` returned.
/// - Throws: ``DeadlinePassed``, or what `body` threw.
func withDeadline<Value: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Value) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard case let value?? = try await group.next() else { throw DeadlinePassed() }
        return value
    }
}
