import Foundation
import Testing
@testable import FlowKit

/// `FlowRunner`: moves from any thread, every transition to every observer in order (docs/format.md, "Observing a run").
@Suite("FlowRunner")
struct FlowRunnerTests {
    private func transfer() throws -> FlowRun {
        let document = try FlowLoader.load(path: packageRoot + "/flows/transfer.yaml")
        return try FlowRun(flow: try CompiledFlow(flow: try #require(document.flow)), start: .start(state: ["country": .string("RU")]))
    }

    /// Collects what a callback is given, from whatever thread.
    private final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [TraceEntry] = []
        func add(_ entry: TraceEntry) { lock.lock(); entries.append(entry); lock.unlock() }
        var all: [TraceEntry] { lock.lock(); defer { lock.unlock() }; return entries }
    }

    @Test func observersAndTheStreamSeeEveryTransitionInOrder() async throws {
        let runner = FlowRunner(try transfer())
        let seen = Seen()
        let observation = runner.observe { seen.add($0) }
        let stream = runner.transitions
        let reader = Task { var entries: [TraceEntry] = []; for await entry in stream { entries.append(entry) }; return entries }
        try runner.complete(result: ["amount": .int(50)])
        #expect(throws: RunError.self) { try runner.complete(event: "nope") }
        try runner.complete()
        try runner.complete(result: ["amount": .int(300)])
        try runner.goBack()
        try runner.complete(result: ["amount": .int(300)])
        try runner.complete(result: ["tariff": .string("economy")])
        try runner.complete(event: "confirmationContinue")
        observation.cancel()
        try runner.complete()
        #expect(runner.run.outcome == "finish")
        let streamed = await reader.value
        #expect(streamed == runner.run.trace, "the stream sees every transition and ends with the flow")
        #expect(seen.all == Array(runner.run.trace.dropLast()), "a cancelled observer sees nothing more")
        #expect(runner.run.trace.map(\.move).contains(.backButton))
        var afterwards: [TraceEntry] = []
        for await entry in runner.transitions { afterwards.append(entry) }
        #expect(afterwards.isEmpty, "a finished run's stream ends at once")
    }

    @Test func movesFromManyThreadsAreDeliveredInTheOrderTheyWereMade() throws {
        let runner = FlowRunner(try transfer())
        let seen = Seen()
        _ = runner.observe { seen.add($0) }
        try runner.complete(result: ["amount": .int(300)])
        try runner.complete(result: ["tariff": .string("economy")])
        // Many threads raise 'error' and press back; whichever order they run in, observers see the run's trace.
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            if index % 2 == 0 { try? runner.complete(event: "error") } else { try? runner.goBack() }
        }
        #expect(seen.all == runner.run.trace)
    }

    @Test func aCallbackMayMakeAMove() throws {
        let runner = FlowRunner(try transfer())
        let seen = Seen()
        // Weakly: the runner keeps its observers, so a strong capture would keep both alive for good.
        _ = runner.observe { [weak runner] entry in
            seen.add(entry)
            if entry.to == "invalidAmount" { try? runner?.complete() }
        }
        try runner.complete(result: ["amount": .int(50)])
        #expect(runner.run.currentStep == "amount")
        #expect(seen.all == runner.run.trace)
    }
}
