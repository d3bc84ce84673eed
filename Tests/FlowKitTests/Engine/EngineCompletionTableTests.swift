import Testing
@testable import FlowKit

/// Issue 11: the engine takes exactly the completions of docs/format.md ("Running a flow"), requires the flow's
/// inputs, and reads an optional result key that is left out as null.
@Suite("Engine: the completion table and inputs")
struct EngineCompletionTableTests {
    static let flow = """
        flowkit: 1
        flow: t
        start: ask
        state: { country: string, name: string, note: string? }
        inputs: [country, note]
        events: { skip: null, short: "result.name == ''" }
        entries: { deep: { step: hello, path: /hello } }
        steps:
          ask:
            result: { name: string, note: string? }
            set: { name: result.name, note: result.note }
            on: { skip: hello, short: hello }
            next: hello
          hello: { next: done }
          done: { kind: finish }
        """

    func kind(_ body: () throws -> Void) -> RunError.Kind? {
        do {
            try body()
            return nil
        } catch let error as RunError {
            return error.kind
        } catch {
            return nil
        }
    }

    @Test func aRunThatStartsWithoutARequiredInputFailsNamingIt() throws {
        for flow in try compiledTwins(Self.flow) {
            #expect(runError { _ = try FlowRun(flow: flow) } == "the run starts without the input 'country', which the flow requires")
            #expect(kind { _ = try FlowRun(flow: flow) } == .missingInput)
            #expect(throws: Never.self) { _ = try FlowRun(flow: flow, start: .start(state: ["country": .string("RU")])) }
            #expect(throws: Never.self) { _ = try FlowRun(flow: flow, start: .entry("deep", params: [:], state: [:])) }
        }
    }

    @Test func completionsTheStepDoesNotTakeAreRefusedAndChangeNothing() throws {
        for flow in try compiledTwins(Self.flow) {
            var run = try FlowRun(flow: flow, start: .start(state: ["country": .string("RU")]))
            #expect(runError { try run.complete() } == "step 'ask' needs a result or an event to complete: it declares a 'result'")
            #expect(runError { try run.complete(event: "short", result: ["name": .string("")]) }
                    == "event 'short' is derived from its expression; a step cannot raise it")
            #expect(kind { try run.complete() } == .invalidCompletion)
            #expect(run.currentStep == "ask" && run.trace.isEmpty)
            try run.complete(event: "skip")
            #expect(run.currentStep == "hello" && run.state["name"] == nil, "an explicit event alone does not run 'set'")
            #expect(runError { try run.complete(result: ["x": .int(1)]) } == "step 'hello' declares no 'result', so it cannot complete with one")
            try run.complete()
            #expect(run.outcome == "done")
        }
    }

    @Test func anOptionalResultKeyLeftOutReadsNull() throws {
        for flow in try compiledTwins(Self.flow) {
            var run = try FlowRun(flow: flow, start: .start(state: ["country": .string("RU"), "note": .string("keep")]))
            try run.complete(result: ["name": .string("Ann")])
            #expect(run.state["name"] == .string("Ann"))
            #expect(run.state["note"] == .null, "'note' is left out of the result: it reads null and is stored")
        }
    }

    @Test func aDerivedEventIsRaisedByItsExpressionWithTheResult() throws {
        for flow in try compiledTwins(Self.flow) {
            let run = try walk(flow, start: .start(state: ["country": .string("RU")]), [(nil, ["name": .string("")]), (nil, nil)])
            #expect(run.trace.first?.event == "short" && run.trace.first?.eventKind == .derived)
            #expect(run.outcome == "done")
        }
    }
}
