import Foundation
import Testing
import FlowGen
@testable import FlowKit
@testable import FlowKitTool

/// Lists of moves (`--events`) and the back button (docs/format.md, "Moves" and "The back button").
@Suite("RunMove and FlowRun.goBack")
struct RunMoveTests {
    @Test func anEmptyListIsNoMoves() throws {
        #expect(try RunMove.parseList("") == [])
        #expect(try RunMove.parseList("  ") == [])
    }

    @Test func aListOfMovesIsRead() throws {
        let moves = try RunMove.parseList(#" amount={"amount": 150, "note": "a, b {c}"} , back,error,next, signIn/email={"email":"x@y"},={}"#)
        #expect(moves == [
            .result(["amount": .int(150), "note": .string("a, b {c}")], step: "amount"), .back, .event("error"), .next,
            .result(["email": .string("x@y")], step: "signIn/email"), .result([:], step: nil),
        ])
    }

    @Test(arguments: [
        ("a,,b", 3, "an empty move; give an event name, next, back or STEP={result}"),
        ("a,", 3, "an empty move; give an event name, next, back or STEP={result}"),
        ("amount=150", 8, "a result is a JSON object after '=', e.g. amount={\"amount\": 150}"),
        ("amount={\"a\": 1", 8, "the result's JSON object is not closed"),
        ("amount={\"a\": 1,}", 15, "the result is not valid JSON: trailing comma before '}'"),
        ("amount={\"a\": [1]}", 8, "a result must be a JSON object"),
        ("amount={} x", 11, "expected ',' between moves, found 'x'"),
        ("two words", 1, "'two words' is not an event name, next, back or STEP={result}"),
        ("a b={}", 1, "'a b' is not a step name"),
    ])
    func aListThatCannotBeReadNamesTheColumn(text: String, column: Int, message: String) {
        #expect(throws: RunMoveError(message: Message(verbatim: message), column: column)) { try RunMove.parseList(text) }
    }

    /// Property: any list of moves, written as `text` and joined with commas, reads back as the same list.
    @Test func writtenMovesReadBackTheSame() throws {
        var random = SplitMix64(seed: 0x5eed_0012)
        let names = ["amount", "next_step", "signIn/email", "a", "_x9"]
        let values: [Value] = [.int(-3), .number(1.5), .string("a,b}\"{"), .bool(true), .null, .object(["k": .string("v, w")])]
        for _ in 0..<500 {
            let moves = (0..<Int.random(in: 1...8, using: &random)).map { _ -> RunMove in
                switch Int.random(in: 0..<4, using: &random) {
                case 0: return .event(["error", "cancel", "ok_2"].randomElement(using: &random)!)
                case 1: return .next
                case 2: return .back
                default:
                    var object: [String: Value] = [:]
                    for _ in 0..<Int.random(in: 0...3, using: &random) { object[["a", "b", "c"].randomElement(using: &random)!] = values.randomElement(using: &random)! }
                    return .result(object, step: Bool.random(using: &random) ? names.randomElement(using: &random)! : nil)
                }
            }
            let text = moves.map(\.text).joined(separator: Bool.random(using: &random) ? "," : " , ")
            #expect(try RunMove.parseList(text) == moves, "\(text)")
        }
    }

    static let flow = """
        flowkit: 1
        flow: f
        start: a
        events: { go: }
        steps:
          a: { next: sub }
          sub: { kind: flow, flow: child.yaml, next: done }
          done: { kind: finish }
        """
    static let child = """
        flowkit: 1
        flow: child
        start: one
        state: { n: int? }
        steps:
          one: { result: { n: int }, set: { n: result.n }, next: two }
          two: { next: end }
          end: { kind: finish }
        """

    @Test func theBackButtonPopsOneStepAndLeavesANestedFlowAtItsFirstStep() throws {
        let resolver = InMemoryResolver(["child.yaml": try compiled(Self.child)])
        var run = try FlowRun(flow: try compiled(Self.flow), resolver: resolver)
        #expect(throws: RunError("step 'a' is the first step of the run: there is nothing to go back to", kind: .backAtFirstStep, step: "a")) {
            try run.goBack()
        }
        try run.complete()
        #expect(run.currentStep == "sub/one")
        try run.complete(result: ["n": .int(1)])
        #expect(run.currentStep == "sub/two")
        // Inside the nested flow: one step back, the nested state kept.
        try run.goBack()
        #expect(run.currentStep == "sub/one")
        // At the nested flow's first step: the nested flow and its flow step are left.
        try run.goBack()
        #expect(run.currentStep == "a")
        #expect(run.path == ["a", "sub/one", "sub/two", "sub/one", "a"])
        #expect(run.trace.suffix(2).map(\.move) == [.backButton, .backButton])
        #expect(run.trace.last?.to == "a" && run.trace.last?.event == nil && run.trace.last?.changes == [])
        // Going forward again starts the nested flow afresh.
        try run.complete()
        #expect(run.currentStep == "sub/one")
        try run.complete(result: ["n": .int(2)])
        try run.complete()
        #expect(run.outcome == "done")
        #expect(throws: RunError.self) { try run.goBack() }
    }

    @Test func aResultForAnotherStepFailsTheMove() throws {
        var run = try FlowRun(flow: try compiled(Self.child))
        #expect(throws: RunError("the move gives a result for step 'two', but the run is at 'one'", kind: .invalidCompletion, step: "one")) {
            try RunMove.result(["n": .int(1)], step: "two").apply(to: &run)
        }
        try RunMove.result(["n": .int(1)], step: "one").apply(to: &run)
        #expect(run.currentStep == "two")
    }
}
