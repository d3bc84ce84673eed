import Foundation

/// A run an app's coordinator shares and watches (docs/format.md, "Observing a run"): the same moves as `FlowRun`,
/// made under a lock from any thread, and every transition handed to observers, as callbacks or as an
/// `AsyncStream`, in the order the moves were made, so that a coordinator can push and pop its screens.
public final class FlowRunner: @unchecked Sendable {
    private let lock = NSLock()
    private var current: FlowRun
    private var observers: [Int: @Sendable (TraceEntry) -> Void] = [:]
    private var streams: [Int: AsyncStream<TraceEntry>.Continuation] = [:]
    private var nextID = 0
    /// Serialises delivery, so that observers see transitions in the order of the moves even across threads. It
    /// is recursive: a handler may itself make a move, whose transitions it and the others then see at once.
    private let delivery = NSRecursiveLock()

    /// Wraps `run`, which may be new, restored from a snapshot, or part-way through.
    public init(_ run: FlowRun) {
        current = run
    }

    /// The run as it is now.
    public var run: FlowRun {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Completes the current step (`FlowRun.complete(event:result:)`) and tells the observers what happened.
    public func complete(event: String? = nil, result: [String: Value]? = nil) throws(RunError) {
        try move { (run: inout FlowRun) throws(RunError) in try run.complete(event: event, result: result) }
    }

    /// The back button (`FlowRun.goBack()`), told to the observers as a `back button` transition.
    public func goBack() throws(RunError) {
        try move { (run: inout FlowRun) throws(RunError) in try run.goBack() }
    }

    /// Calls `handler` with every transition from now on; keep the returned token and `cancel` it to stop. The
    /// runner keeps `handler` until then: a handler that uses the runner should capture it weakly, or the two keep
    /// each other alive.
    public func observe(_ handler: @escaping @Sendable (TraceEntry) -> Void) -> Observation {
        lock.lock()
        defer { lock.unlock() }
        nextID += 1
        observers[nextID] = handler
        return Observation(runner: self, id: nextID)
    }

    /// The transitions from now on, as an asynchronous sequence that ends when the flow finishes (at once when it
    /// already has) or when the task reading it is cancelled.
    public var transitions: AsyncStream<TraceEntry> {
        AsyncStream { continuation in
            lock.lock()
            if current.isFinished {
                lock.unlock()
                continuation.finish()
                return
            }
            nextID += 1
            let id = nextID
            streams[id] = continuation
            lock.unlock()
            continuation.onTermination = { [weak self] _ in self?.remove(id) }
        }
    }

    /// A registration made by `observe(_:)`.
    public struct Observation: Sendable {
        fileprivate weak var runner: FlowRunner?
        fileprivate let id: Int

        /// Stops the observation; later transitions are not passed to its handler.
        public func cancel() {
            runner?.remove(id)
        }
    }

    private func remove(_ id: Int) {
        lock.lock()
        observers[id] = nil
        streams[id] = nil
        lock.unlock()
    }

    /// Makes a move on the run under the lock; a move that fails changes nothing and tells no one.
    private func move(_ body: (inout FlowRun) throws(RunError) -> Void) throws(RunError) {
        delivery.lock()
        defer { delivery.unlock() }
        lock.lock()
        var run = current
        let before = run.trace.count
        do {
            try body(&run)
        } catch {
            lock.unlock()
            throw error
        }
        current = run
        let entries = Array(run.trace[before...])
        let handlers = observers.keys.sorted().compactMap { observers[$0] }
        let continuations = streams.keys.sorted().compactMap { streams[$0] }
        if run.isFinished { streams = [:] }
        lock.unlock()
        for entry in entries {
            for handler in handlers { handler(entry) }
            for continuation in continuations { continuation.yield(entry) }
        }
        if run.isFinished {
            for continuation in continuations { continuation.finish() }
        }
    }
}
