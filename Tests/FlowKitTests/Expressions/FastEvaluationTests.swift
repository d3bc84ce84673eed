import Testing
@testable import FlowKit

/// The engine's fast form of expressions answers only what the full evaluator would: over random expressions (well
/// and badly typed) and random scopes (keys unset, null, text, enum values, the ends of the int range), whenever it
/// gives a value, the evaluator gives the same value and no error.
@Suite("Fast evaluation")
struct FastEvaluationTests {
    /// A small seeded generator of expression texts and scopes.
    struct Generator {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }

        mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }

        static let atoms = ["0", "1", "-1", "2", "100", "9223372036854775807", "1.5", "0.0", "-2.5", "1e308", "true", "false", "null",
                            "'economy'", "'text'", "state.amount", "state.count", "state.total", "state.vip", "state.tariff",
                            "state.note", "state.age", "state.smallest", "state.name", "state.missing", "result.v", "result.w",
                            "result.flag", "result.label", "result.user.name", "exists(result.v)"]
        static let operators = ["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||"]

        mutating func expression(depth: Int) -> String {
            if depth == 0 || next(3) == 0 { return pick(Self.atoms) }
            switch next(6) {
            case 0: return "!" + expression(depth: depth - 1)
            case 1: return "-(" + expression(depth: depth - 1) + ")"
            case 2: return "(" + expression(depth: depth - 1) + " ? " + expression(depth: depth - 1) + " : " + expression(depth: depth - 1) + ")"
            case 3: return expression(depth: depth - 1) + " in [" + pick(Self.atoms) + ", " + pick(Self.atoms) + "]"
            default: return "(" + expression(depth: depth - 1) + " " + pick(Self.operators) + " " + expression(depth: depth - 1) + ")"
            }
        }

        mutating func value() -> Value {
            pick([.int(0), .int(3), .int(-7), .int(.max), .int(.min), .number(2.5), .number(-0.0), .number(1e308), .bool(true),
                  .bool(false), .null, .string("economy"), .string("business"), .string("x")])
        }

        mutating func scope() -> EvaluationScope {
            var state = ExprFixture.fullState
            for key in ["amount", "count", "total", "vip", "tariff", "note", "age", "name"] where next(4) == 0 {
                if next(2) == 0 { state[key] = nil } else { state[key] = value() }
            }
            var result: [String: Value]?
            if next(4) != 0 {
                var fields: [String: Value] = [:]
                for key in ["v", "w", "flag", "label"] where next(3) != 0 { fields[key] = value() }
                if next(3) == 0 { fields["user"] = .object(["name": .string("Ann")]) }
                result = fields
            }
            let resultTypes: [String: TypeRef] = ["v": ExprFixture.type(.int), "w": ExprFixture.type(.number, optional: true),
                                                  "flag": ExprFixture.type(.bool), "label": ExprFixture.type(.enumeration(["economy", "business"]))]
            return ExprFixture.scope(state: state, result: result, resultTypes: result == nil ? nil : resultTypes)
        }
    }

    @Test func whereTheFastFormAnswersTheEvaluatorGivesTheSameValue() throws {
        var generator = Generator(state: 0x5EED_F00D)
        var answered = 0
        var compared = 0
        for _ in 0..<4_000 {
            let text = generator.expression(depth: 4)
            guard case .success(let expression) = ExpressionParser.parse(text) else { continue }
            let fast = FastExpression(expression)
            for _ in 0..<5 {
                let scope = generator.scope()
                compared += 1
                guard let value = fast?.value(state: scope.state, result: scope.result) else { continue }
                answered += 1
                let full = Result { () throws(EvaluationError) in try expression.evaluate(in: scope) }
                switch full {
                case .success(let expected): #expect(value == expected, "'\(text)' in \(scope.state), result \(String(describing: scope.result))")
                case .failure(let error): Issue.record("'\(text)': the fast form gives \(value), the evaluator \(error.message)")
                }
            }
        }
        // The property says something only if the fast form answers often, and leaves some to the evaluator.
        #expect(answered > compared / 5, "the fast form answered \(answered) of \(compared)")
        #expect(answered < compared, "the fast form answered every one of \(compared)")
    }

    @Test func aRunGivesTheSameTraceWithTheFastFormAsWithTheEvaluator() throws {
        // The engine tries the fast form first; where it leaves off (null, text, an error), the evaluator decides.
        let flow = try #require(FlowLoader.load(bytes: Array("""
            flowkit: 1
            flow: fast
            start: amount
            state: { total: int, label: string? }
            events: { go: , big: "result.v > 100 && state.total < 1000" }
            steps:
              amount:
                result: { v: int }
                set: { total: "state.total == null ? result.v : result.v * 2", label: "result.v > 5 ? 'many' : null" }
                on: { big: done }
                next: [{ if: "result.v % 2 == 0", forward: amount }, done]
              done: { kind: finish }
            """.utf8), file: "fast.yaml").flow)
        var run = try FlowRun(flow: CompiledFlow(flow: flow), start: .start(state: ["total": .int(1)]))
        try run.complete(result: ["v": .int(4)])
        try run.complete(result: ["v": .int(7)])
        #expect(run.outcome == "done")
        #expect(run.path == ["amount", "amount", "done"])
        #expect(run.state == ["total": .int(14), "label": .string("many")])
    }
}
