import Varlink

// The ports between a Varlink server and the service behind it are the Varlink library's, so
// that its server needs nothing of appstate; each is named here as well, so that the host, the
// followers and the daemon keep finding them in `import ServicePorts` (Swift has no supported
// way to re-export a module).

/// What answers the calls of one interface: Varlink's `CallProcessor`.
package typealias CallProcessor = Varlink.CallProcessor

/// What the service knows of one connection: Varlink's `ConnectionContext`.
package typealias ConnectionContext = Varlink.ConnectionContext

/// The errors a server answers on its own, about the connection: Varlink's `ConnectionErrors`.
package typealias ConnectionErrors = Varlink.ConnectionErrors

/// Where work for the main actor goes when it starts on another thread: Varlink's `MainActorRunner`.
package typealias MainActorRunner = Varlink.MainActorRunner

/// Runs main-actor work as tasks on the main queue: Varlink's `MainQueueRunner`.
package typealias MainQueueRunner = Varlink.MainQueueRunner

/// Decides whether a connection's peer may change state: Varlink's `MutationAccess`.
package typealias MutationAccess = Varlink.MutationAccess

/// Who is at the other end of a connection: Varlink's `Peer`.
package typealias Peer = Varlink.Peer

/// Whether one connection's peer may change state: Varlink's `PeerAccessDecision`.
package typealias PeerAccessDecision = Varlink.PeerAccessDecision

/// What a server counts, for whoever keeps the metrics: Varlink's `ServerMetrics`.
package typealias ServerMetrics = Varlink.ServerMetrics

/// An interface a server offers: Varlink's `VarlinkInterfaceDescription`.
package typealias VarlinkInterfaceDescription = Varlink.VarlinkInterfaceDescription

/// The watchers written from one thread: Varlink's `WatcherLane`.
package typealias WatcherLane = Varlink.WatcherLane

/// A connection that streams replies, as the service sees it: Varlink's `WatcherSink`.
package typealias WatcherSink = Varlink.WatcherSink
