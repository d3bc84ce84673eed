import Testing
@testable import FlowKit

/// A step's handlers are found by event however many it has: a few are searched, many are looked up, and both give
/// each event its own target (and none for an event the step does not handle).
@Suite("Handler table")
struct HandlerTableTests {
    @Test(arguments: [1, 3, 8, 9, 40])
    func everyEventReachesItsOwnTarget(handlers count: Int) throws {
        let events = (0..<count).map { "event\($0)" }
        let handlers = events.indices.map { "event\($0): to\($0)" }.joined(separator: ", ")
        let finishes = events.indices.map { "  to\($0): { kind: finish }" }.joined(separator: "\n")
        let yaml = """
            flowkit: 1
            flow: many
            start: hub
            events: { \(events.map { "\($0): " }.joined(separator: ", ")), other: }
            steps:
              hub: { on: { \(handlers) } }
            \(finishes)
            """
        let flow = try #require(FlowLoader.load(bytes: Array(yaml.utf8), file: "many.yaml").flow)
        let compiled = try CompiledFlow(flow: flow)
        for (index, event) in events.enumerated() {
            var run = try FlowRun(flow: compiled)
            try run.complete(event: event)
            #expect(run.outcome == "to\(index)")
        }
        var run = try FlowRun(flow: compiled)
        #expect(throws: RunError.self) { try run.complete(event: "other") }
        #expect(run.currentStep == "hub")
    }

    @Test(arguments: [1, 8, 9, 30])
    func everyDerivedEventIsRefusedByHandAndOthersAreNot(derived count: Int) throws {
        let derived = (0..<count).map { "derived\($0): \"state.n > \($0)\"" }.joined(separator: ", ")
        let yaml = """
            flowkit: 1
            flow: derived
            start: hub
            state: { n: int }
            events: { \(derived), go: }
            steps:
              hub: { on: { go: done } }
              done: { kind: finish }
            """
        let flow = try #require(FlowLoader.load(bytes: Array(yaml.utf8), file: "derived.yaml").flow)
        let compiled = try CompiledFlow(flow: flow)
        for index in 0..<count {
            var run = try FlowRun(flow: compiled, start: .start(state: ["n": .int(0)]))
            #expect(throws: RunError.self) { try run.complete(event: "derived\(index)") }
            #expect(compiled.isDerived("derived\(index)"))
        }
        #expect(!compiled.isDerived("go"))
        var run = try FlowRun(flow: compiled, start: .start(state: ["n": .int(0)]))
        try run.complete(event: "go")
        #expect(run.outcome == "done")
    }
}
