import Foundation
import Testing
@testable import FlowKit

/// What a run did, in a form that can leave the thread it ran on.
struct RunSummary: Sendable {
    var outcome: String?
    var path: [String] = []
    var trace: [TraceEntry] = []
    var error: String?
}

/// Runs `body` on a thread of its own with a stack of `stackSize` bytes and returns what it returns. A run whose
/// stack grows with the steps it shows overflows such a stack (and crashes the test process) long before the end.
func onSmallStack<T: Sendable>(stackSize: Int = 256 * 1024, _ body: @escaping @Sendable () -> T) -> T {
    let box = ThreadResult<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.value = body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return box.value!
}

/// A value handed from a thread to the one that waits for it (the semaphore orders the write before the read).
final class ThreadResult<T>: @unchecked Sendable {
    var value: T?
}

/// Starts `flow` and completes each step with no event and no result until it finishes or stops.
func runToTheEnd(_ flow: CompiledFlow, resolver: FlowResolver, maxSteps: Int = 10_000) -> RunSummary {
    var summary = RunSummary()
    do {
        var run = try FlowRun(flow: flow, resolver: resolver, maxSteps: maxSteps)
        defer { (summary.outcome, summary.path, summary.trace) = (run.outcome, run.path, run.trace) }
        while !run.isFinished { try run.complete() }
    } catch {
        summary.error = error.message
    }
    return summary
}

@Suite("Engine: constant stack depth")
struct EngineStackTests {
    /// A nested flow whose start step is a finish step: it finishes as soon as it is entered.
    static let instantChild = """
        flowkit: 1
        flow: instant
        start: end
        steps:
          end: { kind: finish, outcome: ok }
        """

    @Test func aNestedFlowThatLeadsBackToItsOwnStepStopsAtMaxSteps() throws {
        let parent = try compiled("""
            flowkit: 1
            flow: parent
            start: again
            steps:
              again: { kind: flow, flow: instant.yaml, next: again }
              done: { kind: finish }
            """)
        let resolver = InMemoryResolver(["instant.yaml": try compiled(Self.instantChild)])
        let summary = onSmallStack { runToTheEnd(parent, resolver: resolver) }
        #expect(summary.error == "the run showed more than 10000 steps without finishing; does the flow loop?")
    }

    @Test func aLoopThroughANestedFlowAfterAScreenStopsAtMaxSteps() throws {
        let parent = try compiled("""
            flowkit: 1
            flow: parent
            start: ask
            steps:
              ask: { next: again }
              again: { kind: flow, flow: instant.yaml, next: again }
              done: { kind: finish }
            """)
        let resolver = InMemoryResolver(["instant.yaml": try compiled(Self.instantChild)])
        let summary = onSmallStack { runToTheEnd(parent, resolver: resolver, maxSteps: 5_000) }
        #expect(summary.error == "the run showed more than 5000 steps without finishing; does the flow loop?")
        #expect(summary.path.count == 5_000, "the steps shown before the bound are on the path")
        #expect(summary.path.first == "ask")
        #expect(summary.path.dropFirst().allSatisfy { $0 == "again/end" })
    }

    @Test func aChainOfThreeThousandNestedFlowsThatFinishAtOnceFinishes() throws {
        let count = 3_000
        var text = "flowkit: 1\nflow: chain\nstart: s0\nsteps:\n"
        for i in 0..<count { text += "  s\(i): { kind: flow, flow: instant.yaml, next: \(i + 1 < count ? "s\(i + 1)" : "done") }\n" }
        text += "  done: { kind: finish }\n"
        let parent = try compiled(text)
        let resolver = InMemoryResolver(["instant.yaml": try compiled(Self.instantChild)])
        let summary = onSmallStack { runToTheEnd(parent, resolver: resolver) }
        #expect(summary.error == nil)
        #expect(summary.outcome == "done")
        #expect(summary.path.count == count + 1)
        #expect(summary.path.first == "s0/end")
        #expect(summary.path.last == "done")
        #expect(summary.trace.count == count)
        #expect(summary.trace.first == TraceEntry(step: "s0", event: "ok", eventKind: .outcome, result: [:], move: .forward,
                                                  to: "s1/end", changes: [],
                                                  taken: TraceEntry.Taken(file: "/tmp/flowkit-engine-test.yaml", handler: nil, shared: false, option: 0)))
        #expect(summary.trace.last?.to == "done")
        #expect(zip(summary.trace, summary.path.dropFirst()).allSatisfy { $0.to == $1 }, "each entry's 'to' is the next step shown")
    }

    @Test func aFlowThatNestsItselfStopsAtTheNestingLimit() throws {
        let selfNesting = try compiled("""
            flowkit: 1
            flow: again
            start: inner
            steps:
              inner: { kind: flow, flow: again.yaml, next: done }
              done: { kind: finish }
            """)
        let resolver = InMemoryResolver(["again.yaml": selfNesting])
        let summary = onSmallStack { runToTheEnd(selfNesting, resolver: resolver) }
        let inner = Array(repeating: "inner", count: FlowRun.maxNesting).joined(separator: "/")
        #expect(summary.error == "nested flows are deeper than 32 levels at '\(inner)'; do flows nest each other?")
    }

    @Test func aCompletionThatFinishesNestedFlowsAtSeveralLevelsRecordsWhereEachMoveLanded() throws {
        let outer = try compiled("""
            flowkit: 1
            flow: outer
            start: pay
            state: { n: int? }
            steps:
              pay: { kind: flow, flow: middle.yaml, on: { ok: done } }
              done: { kind: finish }
            """)
        let middle = try compiled("""
            flowkit: 1
            flow: middle
            start: ask
            steps:
              ask: { next: check }
              check: { kind: flow, flow: instant.yaml, on: { ok: fin } }
              fin: { kind: finish, outcome: ok }
            """)
        let resolver = InMemoryResolver(["middle.yaml": middle, "instant.yaml": try compiled(Self.instantChild)])
        var run = try FlowRun(flow: outer, resolver: resolver)
        #expect(run.currentStep == "pay/ask")
        try run.complete()
        #expect(run.path == ["pay/ask", "pay/check/end", "pay/fin", "done"])
        #expect(run.trace.map(\.step) == ["pay/ask", "pay/check", "pay"])
        #expect(run.trace.map(\.to) == ["pay/check/end", "pay/fin", "done"])
        #expect(run.outcome == "done")
    }
}
