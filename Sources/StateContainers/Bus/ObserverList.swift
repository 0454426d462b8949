/// The observers of one name (or of every name), in registration order.
///
/// The entries live in storage the list allocates itself, so that a post can walk them through
/// a plain pointer: no array buffer to retain, no uniqueness check. An entry cannot be copied
/// (`~Copyable`), so a post borrows it where it lies and calls its observer through the
/// storage's own reference, with no reference counting. The price is that the storage must
/// not change under a post that walks it; ``NotificationBus`` therefore asks for new storage
/// (``prepareForChange(adding:keepingOld:)``) whenever a running post may walk the current
/// one, and frees the old storage, with the references it holds, once no post runs.
final class ObserverList {
    // Read on every post: unchecked, as the bus never calls out while it accesses them.
    @exclusivity(unchecked) private(set) var entries: UnsafeMutablePointer<ObserverEntry>
    @exclusivity(unchecked) private(set) var count = 0
    /// The bus's walk epoch when a post last started walking ``entries``.
    @exclusivity(unchecked) var walkMark: UInt64 = 0
    private var capacity: Int

    init() {
        capacity = 4
        entries = .allocate(capacity: capacity)
    }

    deinit {
        entries.deinitialize(count: count)
        entries.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The observers as a post walks them.
    var walk: UnsafeBufferPointer<ObserverEntry> {
        UnsafeBufferPointer(start: entries, count: count)
    }

    /// Makes room for `adding` more entries; with `keepingOld`, copies the entries to new
    /// storage even if they fit, so that a post walking the current storage is undisturbed.
    /// - Returns: The storage the entries left when the caller must free it later (it was
    ///   kept, still holding its references to the observers), else `nil`.
    func prepareForChange(adding: Int, keepingOld: Bool) -> UnsafeMutableBufferPointer<ObserverEntry>? {
        guard keepingOld || count + adding > capacity else { return nil }
        let old = entries
        if count + adding > capacity { capacity = max(capacity * 2, count + adding) }
        entries = .allocate(capacity: capacity)
        walkMark = 0
        guard keepingOld else {
            entries.moveInitialize(from: old, count: count)
            old.deallocate()
            return nil
        }
        for index in 0..<count {
            (entries + index).initialize(to: ObserverEntry(id: old[index].id, observer: old[index].observer))
        }
        return UnsafeMutableBufferPointer(start: old, count: count)
    }

    /// Appends an entry; ``prepareForChange(adding:keepingOld:)`` must have made room.
    func append(_ entry: consuming ObserverEntry) {
        (entries + count).initialize(to: entry)
        count += 1
    }

    /// Removes the entry at `index`, keeping the order of the rest.
    /// - Returns: Its observer, for the caller to let go of once its bookkeeping is done.
    func remove(at index: Int) -> Observer {
        let removed = (entries + index).move()
        (entries + index).moveInitialize(from: entries + index + 1, count: count - index - 1)
        count -= 1
        return removed.observer
    }

    /// The position of the entry with a registration id: ids only grow, so entries are sorted.
    func index(of id: UInt64) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = low + (high - low) / 2
            if entries[middle].id < id {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < count && entries[low].id == id ? low : nil
    }
}

/// One registration as a list stores it. It cannot be copied, so that a post borrows it in the
/// list's storage and calls its observer without retaining it; moving entries costs no
/// reference counting either. Each storage that holds an entry holds a reference to its observer.
struct ObserverEntry: ~Copyable {
    /// The registration id; registration order.
    let id: UInt64
    let observer: Observer
}

/// A registered closure and what it filters on.
final class Observer {
    // Compared first so that observers of other objects are skipped without loading a weak
    // reference; the weak reference then rules out a new object at a dead one's address.
    let objectID: ObjectIdentifier?
    weak var object: AnyObject?
    let block: @MainActor (BusNotification) -> Void
    /// Set when the observer is removed, for the posts whose walk still holds it.
    @exclusivity(unchecked) var isRemoved = false

    init(object: AnyObject?, block: @escaping @MainActor (BusNotification) -> Void) {
        objectID = object.map(ObjectIdentifier.init)
        self.object = object
        self.block = block
    }
}
