import Foundation
@testable import FlowKit
@testable import FlowKitTool
import Testing

/// `Parallel.release` frees a value on another core, and `BackgroundWork.wait()` returns only once every such
/// release is done: the CLI calls it before exiting, so that nothing is left half freed.
@Suite struct BackgroundWorkTests {
    /// How many `Slow` values of one test were freed.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0

        func add() {
            lock.lock()
            count += 1
            lock.unlock()
        }

        var value: Int {
            lock.lock()
            defer { lock.unlock() }
            return count
        }
    }

    /// Counts its deinit, slowly, so that a wait that did not wait would find it missing.
    final class Slow: @unchecked Sendable {
        let counter: Counter

        init(_ counter: Counter) {
            self.counter = counter
        }

        deinit {
            Thread.sleep(forTimeInterval: 0.002)
            counter.add()
        }
    }

    @Test func waitReturnsOnlyOnceEveryReleaseIsDone() {
        let counter = Counter()
        for _ in 0..<20 {
            var values: [Slow]? = (0..<5).map { _ in Slow(counter) }
            Parallel.release(values.take())
        }
        BackgroundWork.wait()
        #expect(counter.value == 100)
    }

    @Test func theGroupReturnedIsDoneWhenItsValueIsFreed() {
        let counter = Counter()
        var value: Slow? = Slow(counter)
        Parallel.release(value.take()).wait()
        #expect(counter.value == 1)
    }
}
