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
}
