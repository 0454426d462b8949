public import AppStateCore

// The vocabulary that the wire shares with the model is declared once, in AppStateCore, and
// every public type of it is named here as well, so that `import AppStateIPC` alone gives the
// whole client API: a reply's node is a `NodeSnapshot`, every message is made of `JSONValue`,
// a rectangle on the wire is a `Rect`. Swift has no supported way to re-export a module
// (`public import` only lets a module's public API mention the other's types), so each type
// gets an alias. StateContainers names the same types in its own `Vocabulary.swift` for the
// model's users.
// An alias names the same type, not a copy: values pass between the modules unchanged, and the
// members, extensions and conformances AppStateCore declares come with it. A type added to
// AppStateCore needs a line here, which VocabularyAliasTests checks.
//
// A file that imports more than one of AppStateCore, StateContainers and AppStateIPC finds
// each name in each of them. Swift resolves them to the one type in type annotations, member
// accesses, calls and `Size.self`, but reports a shorthand type written as an expression
// (`[JSONValue].self`, `[String: JSONValue]()`, `Rect?.self`) as ambiguous: such a file spells
// it out (`Array<JSONValue>.self`) or imports one module only. A client that enables the
// upcoming feature MemberImportVisibility looks members up only in the modules it imports, so
// it imports AppStateCore as well.

/// Where a controller's view is in its appearance cycle, as UIKit tracks it: AppStateCore's `Appearance`.
public typealias Appearance = AppStateCore.Appearance

/// Distances inward from each edge of a rectangle, as `UIEdgeInsets` is in UIKit: AppStateCore's `Insets`.
public typealias Insets = AppStateCore.Insets

/// Writes one JSON object member by member, in ascending order of the keys: AppStateCore's `JSONObjectWriter`.
public typealias JSONObjectWriter = AppStateCore.JSONObjectWriter

/// Why a byte sequence is not acceptable JSON, and where parsing stopped: AppStateCore's `JSONParseError`.
public typealias JSONParseError = AppStateCore.JSONParseError

/// A strict JSON parser (RFC 8259) that reads bytes into `JSONValue`: AppStateCore's `JSONParser`.
public typealias JSONParser = AppStateCore.JSONParser

/// A JSON value, what a notification's `userInfo` and every Varlink message are made of: AppStateCore's `JSONValue`.
public typealias JSONValue = AppStateCore.JSONValue

/// Serialises `JSONValue` to compact UTF-8 JSON, deterministically: AppStateCore's `JSONWriter`.
public typealias JSONWriter = AppStateCore.JSONWriter

/// How a path of identifiers joined by `/` names a node of a tree: AppStateCore's `NodePath`.
public typealias NodePath = AppStateCore.NodePath

/// The state of one controller and its subtree, as clients see it: AppStateCore's `NodeSnapshot`.
public typealias NodeSnapshot = AppStateCore.NodeSnapshot

/// The name of a notification on the model's bus, with the well-known keyboard and session names: AppStateCore's `NotificationName`.
public typealias NotificationName = AppStateCore.NotificationName

/// A location in a two-dimensional coordinate system, as `CGPoint` is in UIKit: AppStateCore's `Point`.
public typealias Point = AppStateCore.Point

/// The rule for names that people read on one line, such as user and notification names: AppStateCore's `PrintableName`.
public typealias PrintableName = AppStateCore.PrintableName

/// A rectangle given by its origin and size, as `CGRect` is in UIKit: AppStateCore's `Rect`.
public typealias Rect = AppStateCore.Rect

/// A width and a height, as `CGSize` is in UIKit: AppStateCore's `Size`.
public typealias Size = AppStateCore.Size

/// A value that writes its members in key order to a sink: AppStateCore's `JSONObjectEncodable`.
public typealias JSONObjectEncodable = AppStateCore.JSONObjectEncodable

/// Where a ``JSONObjectEncodable`` value's members go: AppStateCore's `JSONMemberSink`.
public typealias JSONMemberSink = AppStateCore.JSONMemberSink

/// A sink that writes members as JSON text: AppStateCore's `JSONTextSink`.
public typealias JSONTextSink = AppStateCore.JSONTextSink

/// A sink that collects members as JSON values: AppStateCore's `JSONValueSink`.
public typealias JSONValueSink = AppStateCore.JSONValueSink
