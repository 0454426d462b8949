extension String {
    /// Whether the string can be one segment of a path that names a controller (or its
    /// restoration): not empty, and without `/`, which joins segments.
    var isPathSegment: Bool {
        // Bytes, not characters: a `/` byte is what joins a path's segments, and every
        // identifier of a tree is checked as it is read and again as it is built.
        !isEmpty && !utf8.contains(UInt8(ascii: "/"))
    }
}
