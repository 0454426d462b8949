@MainActor public final class NotificationBus { public init() {} }
