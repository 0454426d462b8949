public import Varlink

// The protocol is the Varlink library's (framing, messages, errors, the client, and
// `org.varlink.service`); this module adds `io.appstate`. Each public type of the library that
// the interface's users meet is named here as well, so that `import AppStateIPC` alone still gives
// the whole client API (Swift has no supported way to re-export a module).

/// `org.varlink.service.GetInfo`, what a service says of itself: Varlink's `GetInfo`.
public typealias GetInfo = Varlink.GetInfo

/// `org.varlink.service.GetInterfaceDescription`, an interface's text: Varlink's `GetInterfaceDescription`.
public typealias GetInterfaceDescription = Varlink.GetInterfaceDescription

/// An object with no members: Varlink's `EmptyParameters`.
public typealias EmptyParameters = Varlink.EmptyParameters

/// A method call as it travels: Varlink's `VarlinkCall`.
public typealias VarlinkCall = Varlink.VarlinkCall

/// A blocking Varlink client on a Unix socket: Varlink's `VarlinkClient`.
public typealias VarlinkClient = Varlink.VarlinkClient

/// Why a call could not be made or its reply not read: Varlink's `VarlinkClientError`.
public typealias VarlinkClientError = Varlink.VarlinkClientError

/// An error reply: a fully-qualified error name and its parameters: Varlink's `VarlinkError`.
public typealias VarlinkError = Varlink.VarlinkError

/// Splits a byte stream into NUL-terminated messages: Varlink's `VarlinkFrameDecoder`.
public typealias VarlinkFrameDecoder = Varlink.VarlinkFrameDecoder

/// One message as it travels: Varlink's `VarlinkMessage`.
public typealias VarlinkMessage = Varlink.VarlinkMessage

/// A method of an interface, with its parameters and reply types: Varlink's `VarlinkMethod`.
public typealias VarlinkMethod = Varlink.VarlinkMethod

/// A value that travels as a Varlink object: Varlink's `VarlinkObject`.
public typealias VarlinkObject = Varlink.VarlinkObject

/// The strict decoding of a received object: Varlink's `VarlinkObjectDecoder`.
public typealias VarlinkObjectDecoder = Varlink.VarlinkObjectDecoder

/// The encoding of a value as an object, derived from `Codable`: Varlink's `VarlinkObjectEncoder`.
public typealias VarlinkObjectEncoder = Varlink.VarlinkObjectEncoder

/// Why a message breaks the protocol: Varlink's `VarlinkProtocolError`.
public typealias VarlinkProtocolError = Varlink.VarlinkProtocolError

/// A fully-qualified name of a method or an error: Varlink's `VarlinkQualifiedName`.
public typealias VarlinkQualifiedName = Varlink.VarlinkQualifiedName

/// A reply as it travels: Varlink's `VarlinkReply`.
public typealias VarlinkReply = Varlink.VarlinkReply

/// The replies of a call with `more`: Varlink's `VarlinkReplyStream`.
public typealias VarlinkReplyStream = Varlink.VarlinkReplyStream

/// The errors of `org.varlink.service`: Varlink's `VarlinkServiceErrorName`.
public typealias VarlinkServiceErrorName = Varlink.VarlinkServiceErrorName

/// The `org.varlink.service` interface: Varlink's `VarlinkServiceInterface`.
public typealias VarlinkServiceInterface = Varlink.VarlinkServiceInterface

/// The methods of `org.varlink.service`: Varlink's `VarlinkServiceMethod`.
public typealias VarlinkServiceMethod = Varlink.VarlinkServiceMethod

/// A Varlink set of strings, `[string]()`: Varlink's `VarlinkStringSet`.
public typealias VarlinkStringSet = Varlink.VarlinkStringSet

/// Runs work on a thread of its own, for blocking reads: Varlink's `DetachedThread`.
package typealias DetachedThread = Varlink.DetachedThread
