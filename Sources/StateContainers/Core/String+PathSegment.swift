extension String {
    /// Whether the string can be one segment of a path that names a controller (or its
    /// restoration): not empty, and without `/`, which joins segments.
    var isPathSegment: Bool {
        // Bytes, not characters: checking a tree of thousands of identifiers character by
        // character cost more than building it.
        !isEmpty && !utf8.contains(UInt8(ascii: "/"))
    }
}
