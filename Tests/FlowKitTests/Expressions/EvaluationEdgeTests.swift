import Testing
@testable import FlowKit

/// Values at the edges of what a number can be (NaN, infinities, -0, huge, the ends of `int`), and text that
/// grows without end: each gives a defined answer or a run error, never a trap.
@Suite("Expression evaluation: edge values")
struct EvaluationEdgeTests {
    @Test func aNaNInAResultStopsAtThePathThatReadsIt() {
        let scope = ExprFixture.scope(result: ["x": .number(.nan)])
        #expect(ExprFixture.runError("1 + (result.x > 1)", in: scope) == Said(message: "'result.x' is nan, not a finite number", offset: 5))
        #expect(ExprFixture.runError("result.x == 1", in: scope) == Said(message: "'result.x' is nan, not a finite number", offset: 0))
        #expect(ExprFixture.value("exists(result.x)", in: scope) == .bool(true), "exists() does not read the number")
    }

    @Test func infinitiesInAScopeStopAtThePathThatReadsThem() {
        var state = ExprFixture.fullState
        state["total"] = .number(.infinity)
        #expect(ExprFixture.runError("state.total < 1", in: ExprFixture.scope(state: state))
                == Said(message: "'state.total' is inf, not a finite number", offset: 0))
        let nested = ExprFixture.scope(result: ["user": .object(["age": .number(-.infinity)])])
        #expect(ExprFixture.runError("result.user.age in [1, 2]", in: nested)
                == Said(message: "'result.user.age' is -inf, not a finite number", offset: 0))
    }

    @Test func comparingAnIntWithNaNOrAnInfinityNeverTraps() {
        #expect(NumberComparison.sign(1, .nan) == nil)
        #expect(NumberComparison.sign(.max, .infinity) == -1)
        #expect(NumberComparison.sign(.min, -.infinity) == 1)
        #expect(NumberComparison.sign(.max, 9_223_372_036_854_775_807.0) == -1, "the double is 2^63, above every int")
        #expect(NumberComparison.sign(.min, -9_223_372_036_854_775_808.0) == 0)
        #expect(NumberComparison.sign(0, -0.0) == 0)
        #expect(NumberComparison.sign(0, -0.5) == 1)
    }

    @Test(arguments: [
        ExprCase("-0.0 == 0", .bool(true)),
        ExprCase("0 == -0.0", .bool(true)),
        ExprCase("-0.0 == 0.0", .bool(true)),
        ExprCase("-0.0 < 0", .bool(false)),
        ExprCase("-0.0 > 0.0", .bool(false)),
        ExprCase("-0.0 <= 0", .bool(true)),
        ExprCase("0 * -1.0 == 0", .bool(true)),
        ExprCase("-0.0 in [0]", .bool(true)),
        ExprCase("-0", .int(0)),
    ])
    func minusZeroIsZero(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test func minusZeroFromAResultIsZero() {
        let scope = ExprFixture.scope(result: ["z": .number(-0.0)])
        #expect(ExprFixture.value("result.z == 0", in: scope) == .bool(true))
        #expect(ExprFixture.value("result.z < 0", in: scope) == .bool(false))
        #expect(ExprFixture.runError("1 / result.z", in: scope) == Said(message: "division by zero", offset: 0))
        #expect(ExprFixture.runError("1.5 % result.z", in: scope) == Said(message: "division by zero", offset: 0))
    }

    @Test(arguments: [
        ExprCase("9007199254740993 > 9007199254740992.0", .bool(true)),
        ExprCase("9223372036854775807 == 9223372036854775807.0", .bool(false)),
        ExprCase("9223372036854775807 < 1e19", .bool(true)),
        ExprCase("-9223372036854775808 > -1e19", .bool(true)),
        ExprCase("1e308 > 9223372036854775807", .bool(true)),
        ExprCase("-1e308 < -9223372036854775808", .bool(true)),
        ExprCase("9223372036854775807 + 0.0", .number(9_223_372_036_854_775_808.0)),
        ExprCase("1e308 - 1e308", .number(0)),
        ExprCase("-9223372036854775808 % -1", .int(0)),
        ExprCase("state.smallest % -1", .int(0)),
        ExprCase("-9223372036854775808 / 1", .int(.min)),
        ExprCase("-(-9223372036854775807)", .int(.max)),
    ])
    func hugeNumbersAndTheEndsOfInt(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test(arguments: [
        ExprFailure("-(-9223372036854775808)", "int overflow", at: 0),
        ExprFailure("-state.smallest", "int overflow", at: 0),
        ExprFailure("-9223372036854775808 * -1", "int overflow", at: 0),
        ExprFailure("state.smallest / -1", "int overflow", at: 0),
        ExprFailure("-1e308 - 1e308", "number overflow", at: 0),
        ExprFailure("1e308 / 1e-308", "number overflow", at: 0),
    ])
    func overflowAtTheEdges(_ f: ExprFailure) {
        #expect(ExprFixture.runError(f.text) == Said(message: f.message, offset: f.offset))
    }

    @Test func textLongerThanTheLimitIsARunError() {
        var state = ExprFixture.fullState
        state["name"] = .string(String(repeating: "é", count: FlowExpression.maxTextBytes / 4))
        let scope = ExprFixture.scope(state: state)
        #expect(ExprFixture.value("state.name + state.name", in: scope).map { if case .string(let text) = $0 { text.utf8.count } else { 0 } }
                == FlowExpression.maxTextBytes, "exactly the limit is allowed")
        #expect(ExprFixture.runError("(state.name + state.name) + 'x'", in: scope)
                == Said(message: "text longer than 1048576 bytes", offset: 0))
    }
}
