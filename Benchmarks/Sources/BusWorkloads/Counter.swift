/// What every observer of every bus workload does: count one delivery.
///
/// The handler is kept as cheap as Swift allows, so that the floor (the same observers
/// called directly) is as low as it can be and hides none of the bus's own cost.
public final class Counter: @unchecked Sendable {
    // Unchecked: a dynamic exclusivity check would cost more than the increment and would be
    // paid equally by the bus, NotificationCenter and the floor, flattering their ratios.
    // Observers run on one thread at a time in every workload, so it could never fire.
    @exclusivity(unchecked) public var value = 0

    /// Creates a counter at zero.
    public init() {}
}
