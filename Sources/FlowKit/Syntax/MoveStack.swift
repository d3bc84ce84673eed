/// A growable stack whose top elements move into a new array without being copied or retained; `release()` frees it.
///
/// The document readers keep the children of every open list and mapping on one such stack, so that a closed
/// collection is one array of exactly its size, allocated once, rather than an array grown by doubling.
struct MoveStack<Element> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init() {
        capacity = 16
        base = .allocate(capacity: capacity)
    }

    @inline(__always)
    mutating func push(_ element: consuming Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    @inline(__always)
    subscript(index: Int) -> Element {
        _read { yield base[index] }
    }

    /// Moves the elements from `start` to the top into an array and removes them.
    mutating func popArray(from start: Int) -> [Element] {
        let moved = count - start
        let source = base + start
        count = start
        return Array(unsafeUninitializedCapacity: moved) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: source, count: moved)
            initialized = moved
        }
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    /// Destroys the remaining elements and frees the storage.
    package func release() {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
