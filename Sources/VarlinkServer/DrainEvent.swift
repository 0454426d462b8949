/// Sent down each connection's pipeline when the daemon stops: idle connections close at
/// once, a connection with calls in progress closes once their replies are written.
struct DrainEvent: Sendable {}
