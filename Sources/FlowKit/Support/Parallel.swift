import Dispatch
import Foundation

/// Work spread over the machine's cores with Dispatch: results come back in input order.
package enum Parallel {
    /// `body(i)` for every `i` in `0..<count`, run concurrently, results in index order.
    package static func map<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
        // One piece of work runs here: inside a concurrentPerform, libdispatch runs nested ones serially, and the
        // work (one large file) may itself want both cores.
        if count == 1 { return [body(0)] }
        let slots = Slots<T>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in slots.set(index, body(index)) }
        return slots.values
    }

    /// Runs `first` and `second` concurrently and returns both results.
    static func both<A: Sendable, B: Sendable>(_ first: @Sendable () -> A, _ second: @Sendable () -> B) -> (A, B) {
        let a = Slots<A>(count: 1)
        let b = Slots<B>(count: 1)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 { a.set(0, first()) } else { b.set(0, second()) }
        }
        return (a.values[0], b.values[0])
    }

    /// Results written by parallel workers into their own slots.
    private final class Slots<T>: @unchecked Sendable {
        private var slots: [T?]
        private let lock = NSLock()

        init(count: Int) {
            slots = Array(repeating: nil, count: count)
        }

        func set(_ index: Int, _ value: T) {
            lock.lock()
            slots[index] = value
            lock.unlock()
        }

        var values: [T] { slots.map { $0! } }
    }
}
