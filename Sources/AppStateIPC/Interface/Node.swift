import AppStateCore

/// One controller of a tree as the `io.appstate.Node` type carries it, with its children:
/// the model's snapshot, sent as it is.
public typealias Node = NodeSnapshot
