extension NodeSnapshot: CustomReflectable {
    /// The node's members, as a struct holding them itself would show them: printing,
    /// `dump` and test failures show the members rather than the box that holds them.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "path": path, "type": type, "identifier": identifier, "title": title as Any,
                "appearance": appearance, "frame": frame, "contentInset": contentInset, "onScreen": onScreen,
                "current": current as Any, "pageIndex": pageIndex as Any, "pageCount": pageCount as Any,
                "user": user as Any, "locked": locked as Any, "menuVisible": menuVisible as Any,
                "keyboardOverlap": keyboardOverlap as Any, "contentState": contentState as Any, "children": children,
            ],
            displayStyle: .struct
        )
    }
}
