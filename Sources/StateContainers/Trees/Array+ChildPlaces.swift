extension [TreeFileError.PathComponent] {
    /// `body` applied to each of `count` children below this place, in order, with the
    /// child's place (`children[index]` below this one). The places share one array that is
    /// changed in place for each child, where a new array for each child would be allocated
    /// for every node of a large tree, only for the rare problem that names it.
    /// - Parameters:
    ///   - count: How many children.
    ///   - body: Takes each child's index and place.
    func mapChildPlaces<T>(_ count: Int, _ body: (_ index: Int, _ place: Self) throws -> T) rethrows -> [T] {
        guard count > 0 else { return [] }
        var place = self + [.key("children"), .index(0)]
        var results: [T] = []
        results.reserveCapacity(count)
        for index in 0..<count {
            place[place.count - 1] = .index(index)
            results.append(try body(index, place))
        }
        return results
    }
}
