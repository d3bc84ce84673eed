import Testing
@testable import FlowKit

@Suite("Expression evaluation")
struct ExpressionEvaluationTests {
    // MARK: - One test per operator

    @Test(arguments: [
        ExprCase("!true", .bool(false)),
        ExprCase("!false", .bool(true)),
        ExprCase("!!true", .bool(true)),
        ExprCase("!state.vip", .bool(false)),
    ])
    func not(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test(arguments: [
        ExprCase("-5", .int(-5)),
        ExprCase("-(5)", .int(-5)),
        ExprCase("- -5", .int(5)),
        ExprCase("-1.5", .number(-1.5)),
        ExprCase("-state.amount", .int(-500)),
        ExprCase("-state.total", .number(-250.5)),
        ExprCase("-9223372036854775808", .int(.min)),
    ])
    func negate(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test(arguments: [
        ExprCase("2 * 3", .int(6)),
        ExprCase("2 * 1.5", .number(3)),
        ExprCase("2 * 2.0", .number(4)),
        ExprCase("-4 * 3", .int(-12)),
        ExprCase("state.count * state.total", .number(1002)),
    ])
    func multiply(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test(arguments: [
        ExprCase("7 / 2", .int(3)),
        ExprCase("-7 / 2", .int(-3)),
        ExprCase("7 / -2", .int(-3)),
        ExprCase("-7 / -2", .int(3)),
        ExprCase("7.0 / 2", .number(3.5)),
        ExprCase("7 / 2.0", .number(3.5)),
        ExprCase("state.amount / state.count", .int(125)),
    ])
    func divide(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test(arguments: [
        ExprCase("7 % 3", .int(1)),
        ExprCase("-7 % 3", .int(-1)),
        ExprCase("7 % -3", .int(1)),
        ExprCase("-7 % -3", .int(-1)),
        ExprCase("7.5 % 2", .number(1.5)),
        ExprCase("-7.5 % 2", .number(-1.5)),
        ExprCase("-9223372036854775808 % -1", .int(0)),
    ])
    func remainder(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test(arguments: [
        ExprCase("1 + 2", .int(3)),
        ExprCase("1 + 2.5", .number(3.5)),
        ExprCase("2.5 + 1", .number(3.5)),
        ExprCase("'a' + 'b'", .string("ab")),
        ExprCase("state.name + ' ' + 'Lee'", .string("Ann Lee")),
        ExprCase("state.tariff + '!'", .string("economy!")),
    ])
    func add(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test(arguments: [
        ExprCase("5 - 7", .int(-2)),
        ExprCase("5 - 0.5", .number(4.5)),
        ExprCase("state.total - 0.5", .number(250)),
    ])
    func subtract(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test(arguments: [
        ExprCase("1 < 2", .bool(true)),
        ExprCase("2 < 2", .bool(false)),
        ExprCase("1 < 1.5", .bool(true)),
        ExprCase("2.5 < 2", .bool(false)),
        ExprCase("'a' < 'b'", .bool(true)),
        ExprCase("'B' < 'a'", .bool(true)),
        ExprCase("'ab' < 'abc'", .bool(true)),
        ExprCase("'z' < 'é'", .bool(true)),
        ExprCase("'é' < 'e\u{301}'", .bool(false)),
        ExprCase("9007199254740993 < 9007199254740992.5", .bool(false)),
    ])
    func less(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test(arguments: [
        ExprCase("2 <= 2", .bool(true)),
        ExprCase("2 <= 2.0", .bool(true)),
        ExprCase("3 <= 2", .bool(false)),
        ExprCase("'a' <= 'a'", .bool(true)),
    ])
    func lessOrEqual(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test(arguments: [
        ExprCase("3 > 2.5", .bool(true)),
        ExprCase("2 > 2", .bool(false)),
        ExprCase("'b' > 'a'", .bool(true)),
        ExprCase("state.amount > 100", .bool(true)),
    ])
    func greater(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test(arguments: [
        ExprCase("2 >= 2.0", .bool(true)),
        ExprCase("1 >= 2", .bool(false)),
        ExprCase("'b' >= 'b'", .bool(true)),
    ])
    func greaterOrEqual(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test(arguments: [
        ExprCase("1 == 1", .bool(true)),
        ExprCase("1 == 1.0", .bool(true)),
        ExprCase("1.5 == 1", .bool(false)),
        ExprCase("9007199254740993 == 9007199254740992.0", .bool(false)),
        ExprCase("'a' == 'a'", .bool(true)),
        ExprCase("'a' == \"a\"", .bool(true)),
        ExprCase("true == true", .bool(true)),
        ExprCase("true == false", .bool(false)),
        ExprCase("null == null", .bool(true)),
        ExprCase("1 == null", .bool(false)),
        ExprCase("null == 'a'", .bool(false)),
        ExprCase("state.note == null", .bool(true)),
        ExprCase("state.name == null", .bool(false)),
    ])
    func equal(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test(arguments: [
        ExprCase("1 != 2", .bool(true)),
        ExprCase("1 != 1.0", .bool(false)),
        ExprCase("'a' != 'b'", .bool(true)),
        ExprCase("false != true", .bool(true)),
        ExprCase("state.note != null", .bool(false)),
        ExprCase("5 != null", .bool(true)),
    ])
    func notEqual(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test(arguments: [
        ExprCase("true && true", .bool(true)),
        ExprCase("true && false", .bool(false)),
        ExprCase("false && true", .bool(false)),
        ExprCase("false && false", .bool(false)),
    ])
    func and(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test(arguments: [
        ExprCase("true || true", .bool(true)),
        ExprCase("true || false", .bool(true)),
        ExprCase("false || true", .bool(true)),
        ExprCase("false || false", .bool(false)),
    ])
    func or(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test(arguments: [
        ExprCase("true ? 1 : 2", .int(1)),
        ExprCase("false ? 1 : 2", .int(2)),
        ExprCase("state.vip ? 'yes' : 'no'", .string("yes")),
        ExprCase("false ? 1 : true ? 2 : 3", .int(2)),
        ExprCase("true ? false ? 1 : 2 : 3", .int(2)),
        ExprCase("true ? 1 : 1 / 0", .int(1)),
        ExprCase("false ? 1 / 0 : 'safe'", .string("safe")),
    ])
    func conditional(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test(arguments: [
        ExprCase("2 in [1, 2, 3]", .bool(true)),
        ExprCase("4 in [1, 2, 3]", .bool(false)),
        ExprCase("2 in [1.0, 2.0]", .bool(true)),
        ExprCase("'a' in ['a', 'b']", .bool(true)),
        ExprCase("'c' in ['a', 'b']", .bool(false)),
        ExprCase("1 in []", .bool(false)),
        ExprCase("null in [null]", .bool(true)),
        ExprCase("state.note in [null, 'x']", .bool(true)),
        ExprCase("state.amount in [state.count, 500]", .bool(true)),
        ExprCase("state.amount + 1 in [501]", .bool(true)),
    ])
    func membership(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    // MARK: - Precedence and associativity

    @Test(arguments: [
        ExprCase("1 + 2 * 3", .int(7)),
        ExprCase("(1 + 2) * 3", .int(9)),
        ExprCase("10 - 4 - 3", .int(3)),
        ExprCase("100 / 10 / 5", .int(2)),
        ExprCase("2 * 3 % 4", .int(2)),
        ExprCase("7 % 4 * 2", .int(6)),
        ExprCase("-2 * 3", .int(-6)),
        ExprCase("-(2 + 3)", .int(-5)),
        ExprCase("1 + 2 < 4", .bool(true)),
        ExprCase("1 < 2 == true", .bool(true)),
        ExprCase("2 < 1 == 1 > 2", .bool(true)),
        ExprCase("true || false && false", .bool(true)),
        ExprCase("false && true || true", .bool(true)),
        ExprCase("!true == false", .bool(true)),
        ExprCase("!false && false", .bool(false)),
        ExprCase("true ? 1 : 0 + 5", .int(1)),
        ExprCase("false ? 1 : 0 + 5", .int(5)),
        ExprCase("false || true ? 'a' : 'b'", .string("a")),
        ExprCase("1 in [1] == true", .bool(true)),
        ExprCase("2 + 3 in [5]", .bool(true)),
        ExprCase("'a' + 'b' == 'ab'", .bool(true)),
        ExprCase("1 == 1 && 2 == 2", .bool(true)),
        ExprCase("false ? 1 : false ? 2 : 3", .int(3)),
    ])
    func precedence(_ c: ExprCase) {
        #expect(ExprFixture.value(c.text) == c.expected)
    }

    @Test func shortCircuitSkipsTheRightSide() {
        let empty = ExprFixture.scope(result: [:])
        #expect(ExprFixture.value("exists(result.x) && result.x > 1", in: empty) == .bool(false))
        #expect(ExprFixture.value("exists(result.x) && result.x > 1", in: ExprFixture.scope()) == .bool(false))
        #expect(ExprFixture.value("exists(result.x) && result.x > 1", in: ExprFixture.scope(result: ["x": .int(2)])) == .bool(true))
        #expect(ExprFixture.value("!exists(result.x) || result.x > 1", in: empty) == .bool(true))
        #expect(ExprFixture.value("false && 1 / 0 == 1") == .bool(false))
        #expect(ExprFixture.value("true || 1 / 0 == 1") == .bool(true))
        #expect(ExprFixture.value("false && 5") == .bool(false))
    }

    // MARK: - Numbers

    @Test func intAndNumberMix() {
        #expect(ExprFixture.value("1 + 1") == .int(2))
        #expect(ExprFixture.value("1 + 1.0") == .number(2))
        #expect(ExprFixture.value("state.total + state.amount") == .number(750.5))
        #expect(ExprFixture.value("state.amount / 2.0") == .number(250))
        #expect(ExprFixture.value("1.5e3") == .number(1500))
        #expect(ExprFixture.value("9223372036854775807") == .int(.max))
    }

    @Test(arguments: [
        ExprFailure("9223372036854775807 + 1", "int overflow", at: 0),
        ExprFailure("-9223372036854775808 - 1", "int overflow", at: 0),
        ExprFailure("9223372036854775807 * 2", "int overflow", at: 0),
        ExprFailure("-9223372036854775808 / -1", "int overflow", at: 0),
        ExprFailure("1 + -state.smallest", "int overflow", at: 4),
        ExprFailure("1e308 * 10", "number overflow", at: 0),
    ])
    func overflow(_ f: ExprFailure) {
        let error = ExprFixture.runError(f.text)
        #expect(error == Said(message: f.message, offset: f.offset))
    }

    @Test(arguments: [
        ExprFailure("7 / 0", "division by zero", at: 0),
        ExprFailure("7 % 0", "division by zero", at: 0),
        ExprFailure("7.5 / 0", "division by zero", at: 0),
        ExprFailure("7 / 0.0", "division by zero", at: 0),
        ExprFailure("7.5 % 0.0", "division by zero", at: 0),
        ExprFailure("state.amount + 10 / (state.count - 4)", "division by zero", at: 15),
    ])
    func divisionByZero(_ f: ExprFailure) {
        #expect(ExprFixture.runError(f.text) == Said(message: f.message, offset: f.offset))
    }

    // MARK: - Type errors

    @Test(arguments: [
        ExprFailure("!1", "'!' needs a bool, found an int", at: 0),
        ExprFailure("-'a'", "'-' needs a number, found a string", at: 0),
        ExprFailure("-true", "'-' needs a number, found a bool", at: 0),
        ExprFailure("'a' + 1", "'+' needs two numbers or two strings, found a string and an int", at: 0),
        ExprFailure("null + 1", "'+' needs two numbers or two strings, found null and an int", at: 0),
        ExprFailure("'a' - 'b'", "'-' needs two numbers, found a string and a string", at: 0),
        ExprFailure("true * 2", "'*' needs two numbers, found a bool and an int", at: 0),
        ExprFailure("1 / 'x'", "'/' needs two numbers, found an int and a string", at: 0),
        ExprFailure("1 % false", "'%' needs two numbers, found an int and a bool", at: 0),
        ExprFailure("true < false", "'<' needs two numbers or two strings, found a bool and a bool", at: 0),
        ExprFailure("1 <= '2'", "'<=' needs two numbers or two strings, found an int and a string", at: 0),
        ExprFailure("null > 1", "'>' needs two numbers or two strings, found null and an int", at: 0),
        ExprFailure("1 >= true", "'>=' needs two numbers or two strings, found an int and a bool", at: 0),
        ExprFailure("1 == '1'", "'==' cannot compare an int with a string", at: 0),
        ExprFailure("true != 1", "'!=' cannot compare a bool with an int", at: 0),
        ExprFailure("1 in ['a']", "'in' cannot compare an int with a string", at: 0),
        ExprFailure("1 && true", "'&&' needs bools, found an int", at: 0),
        ExprFailure("true && 'x'", "'&&' needs bools, found a string", at: 8),
        ExprFailure("false || 2", "'||' needs bools, found an int", at: 9),
        ExprFailure("1 ? 2 : 3", "the condition of '? :' needs a bool, found an int", at: 0),
        ExprFailure("state.note ? 2 : 3", "the condition of '? :' needs a bool, found null", at: 0),
    ])
    func typeErrors(_ f: ExprFailure) {
        #expect(ExprFixture.runError(f.text) == Said(message: f.message, offset: f.offset))
    }

    @Test func objectsAreNotCompared() {
        let scope = ExprFixture.scope(result: ["user": .object(["name": .string("a")])])
        #expect(ExprFixture.runError("result.user == result.user", in: scope)?.message == "'==' cannot compare an object with an object")
        #expect(ExprFixture.value("result.user == null", in: scope) == .bool(false))
    }

    // MARK: - Enums

    @Test func enumComparisons() {
        #expect(ExprFixture.value("state.tariff == 'economy'") == .bool(true))
        #expect(ExprFixture.value("state.tariff != 'business'") == .bool(true))
        #expect(ExprFixture.value("'business' == state.tariff") == .bool(false))
        #expect(ExprFixture.value("state.tariff == state.plan") == .bool(true))
        #expect(ExprFixture.value("state.tariff in ['economy', 'business']") == .bool(true))
        #expect(ExprFixture.value("(state.vip ? state.tariff : state.plan) == 'business'") == .bool(false))
        #expect(ExprFixture.value("state.tariff + '' == 'vip'") == .bool(false))
        #expect(ExprFixture.value("state.tariff < 'business'") == .bool(false))
        #expect(ExprFixture.runError("state.tariff < 'zebra'")?.message == "'zebra' is not a value of 'state.tariff' ('economy', 'business')")
        let resultScope = ExprFixture.scope(result: ["tariff": .string("business")],
                                            resultTypes: ["tariff": ExprFixture.type(.enumeration(["economy", "business"]))])
        #expect(ExprFixture.value("result.tariff == 'business'", in: resultScope) == .bool(true))
        #expect(ExprFixture.value("result.tariff != state.tariff", in: resultScope) == .bool(true))
    }

    @Test(arguments: [
        ExprFailure("state.tariff == 'vip'", "'vip' is not a value of 'state.tariff' ('economy', 'business')", at: 16),
        ExprFailure("state.tariff != 'economi'", "'economi' is not a value of 'state.tariff' ('economy', 'business'); did you mean 'economy'?", at: 16),
        ExprFailure("'first' == state.tariff", "'first' is not a value of 'state.tariff' ('economy', 'business')", at: 0),
        ExprFailure("state.tariff in ['economy', 'vip']", "'vip' is not a value of 'state.tariff' ('economy', 'business')", at: 28),
        ExprFailure("'vip' in [state.plan]", "'vip' is not a value of 'state.plan' ('economy', 'premium')", at: 0),
        ExprFailure("state.tariff == 1", "'==' cannot compare a string with an int", at: 0),
    ])
    func enumTypeErrors(_ f: ExprFailure) {
        #expect(ExprFixture.runError(f.text) == Said(message: f.message, offset: f.offset))
    }

    @Test func enumInAResultShape() {
        let types = ["tariff": ExprFixture.type(.enumeration(["economy", "business"])),
                     "user": ExprFixture.type(.object([ExprFixture.field("plan", ExprFixture.type(.enumeration(["free", "pro"])))]))]
        let scope = ExprFixture.scope(result: ["tariff": .string("economy"), "user": .object(["plan": .string("pro")])], resultTypes: types)
        #expect(ExprFixture.runError("result.tariff == 'vip'", in: scope)?.message == "'vip' is not a value of 'result.tariff' ('economy', 'business')")
        #expect(ExprFixture.value("result.user.plan == 'pro'", in: scope) == .bool(true))
        #expect(ExprFixture.runError("result.user.plan == 'gold'", in: scope)?.message == "'gold' is not a value of 'result.user.plan' ('free', 'pro')")
    }

    // MARK: - exists, unset keys and results

    @Test func existsOnState() {
        #expect(ExprFixture.value("exists(state.note)") == .bool(false))
        #expect(ExprFixture.value("exists(state.note)", in: ExprFixture.scope(state: ["note": .null])) == .bool(false))
        #expect(ExprFixture.value("exists(state.note)", in: ExprFixture.scope(state: ["note": .string("")])) == .bool(true))
        #expect(ExprFixture.value("exists(state.amount)") == .bool(true))
        #expect(ExprFixture.value("exists(state.amount)", in: ExprFixture.scope(state: [:])) == .bool(false))
        #expect(ExprFixture.value("!exists(state.age)") == .bool(true))
    }

    @Test func existsOnResults() {
        #expect(ExprFixture.value("exists(result.x)") == .bool(false))
        #expect(ExprFixture.value("exists(result.x)", in: ExprFixture.scope(result: [:])) == .bool(false))
        #expect(ExprFixture.value("exists(result.x)", in: ExprFixture.scope(result: ["x": .null])) == .bool(false))
        #expect(ExprFixture.value("exists(result.x)", in: ExprFixture.scope(result: ["x": .bool(false)])) == .bool(true))
        let nested = ExprFixture.scope(result: ["user": .object(["name": .string("a"), "email": .null])])
        #expect(ExprFixture.value("exists(result.user.name)", in: nested) == .bool(true))
        #expect(ExprFixture.value("exists(result.user.email)", in: nested) == .bool(false))
        #expect(ExprFixture.value("exists(result.user.phone)", in: nested) == .bool(false))
        #expect(ExprFixture.value("exists(result.user.name.first)", in: nested) == .bool(false))
        #expect(ExprFixture.value("exists(result.user)", in: nested) == .bool(true))
    }

    @Test func unsetStateKeys() {
        let empty = ExprFixture.scope(state: [:])
        #expect(ExprFixture.runError("1 + state.amount", in: empty) == Said(message: "state key 'amount' is not set", offset: 4))
        #expect(ExprFixture.value("state.note", in: empty) == .null)
        #expect(ExprFixture.value("state.age == null", in: empty) == .bool(true))
        #expect(ExprFixture.value("state.tariff == null", in: ExprFixture.scope(state: ["tariff": .null])) == .bool(true))
    }

    @Test func undeclaredStateKeys() {
        #expect(ExprFixture.runError("state.amout > 1") == Said(message: "state key 'amout' is not declared; did you mean 'amount'?", offset: 0))
        #expect(ExprFixture.runError("state.zzzzzz") == Said(message: "state key 'zzzzzz' is not declared", offset: 0))
        #expect(ExprFixture.value("exists(state.nte)") == .bool(false))
        let bare = EvaluationScope(state: ["x": .int(1)], stateTypes: [:], result: nil, resultTypes: nil)
        #expect(ExprFixture.value("state.x + 1", in: bare) == .int(2))
        #expect(ExprFixture.value("exists(state.x) && !exists(state.y)", in: bare) == .bool(true))
        #expect(ExprFixture.runError("state.missing", in: bare) == Said(message: "state key 'missing' is not declared", offset: 0))
    }

    @Test func resultReads() {
        let scope = ExprFixture.scope(result: ["amount": .int(50), "user": .object(["name": .string("Ann")]), "gone": .null, "n": .int(1)])
        #expect(ExprFixture.value("result.amount < 100", in: scope) == .bool(true))
        #expect(ExprFixture.value("result.user.name", in: scope) == .string("Ann"))
        #expect(ExprFixture.value("result.gone", in: scope) == .null)
        #expect(ExprFixture.runError("result.amout", in: scope) == Said(message: "the result has no key 'amout'; did you mean 'amount'?", offset: 0))
        #expect(ExprFixture.runError("result.user.nme", in: scope)?.message == "the result has no key 'user.nme'; did you mean 'name'?")
        #expect(ExprFixture.runError("result.gone.x", in: scope)?.message == "'result.gone' is null, so 'result.gone.x' cannot be read")
        #expect(ExprFixture.runError("result.n.x", in: scope)?.message == "'result.n' is an int, not an object, so 'result.n.x' cannot be read")
        #expect(ExprFixture.runError("2 * result.amount") == Said(message: "'result.amount' is read, but the step completed without a result", offset: 4))
    }

    @Test func optionalResultKeysThatAreLeftOutReadNull() {
        let scope = ExprFixture.scope(result: [:], resultTypes: ["age": ExprFixture.type(.int, optional: true)])
        #expect(ExprFixture.value("result.age", in: scope) == .null)
        #expect(ExprFixture.value("result.age == null", in: scope) == .bool(true))
        #expect(ExprFixture.runError("result.age + 1", in: scope) != nil, "null in arithmetic is still a run error")
        #expect(ExprFixture.runError("result.name", in: scope)?.message == "the result has no key 'name'", "undeclared keys are not optional")
        #expect(ExprFixture.value("exists(result.age) ? result.age : null", in: scope) == .null)
    }

    // MARK: - Literal slots and conditions

    @Test func literalSlots() throws {
        let cases: [(Scalar.Kind, String, Value)] = [
            (.int(12), "12", .int(12)), (.number(1.5), "1.5", .number(1.5)), (.bool(true), "true", .bool(true)),
            (.bool(false), "false", .bool(false)), (.null, "null", .null), (.null, "~", .null),
        ]
        for (kind, text, expected) in cases {
            let source = ExpressionSource(text: text, position: .start, literal: kind)
            let expression = try ExpressionParser.parse(source).get()
            #expect(try expression.evaluate(in: ExprFixture.scope()) == expected)
        }
        let infinite = ExpressionSource(text: ".inf", position: .start, literal: .number(.infinity))
        #expect(throws: ExpressionParseError.self) { try ExpressionParser.parse(infinite).get() }
    }

    @Test func runErrorsSayWhatKindTheyAre() {
        let scope = ExprFixture.scope(result: ["n": .int(0), "gone": .null], resultTypes: nil)
        #expect(ExprFixture.failure("1 / result.n", in: scope)?.kind == .arithmetic)
        #expect(ExprFixture.failure("9223372036854775807 + 1")?.kind == .arithmetic)
        #expect(ExprFixture.failure("result.gone + 1", in: scope)?.kind == .nullValue)
        #expect(ExprFixture.failure("!result.gone", in: scope)?.kind == .nullValue)
        #expect(ExprFixture.failure("result.gone.x", in: scope)?.kind == .nullValue)
        #expect(ExprFixture.failure("'a' + 1")?.kind == .typeError)
        #expect(ExprFixture.failure("result.missing", in: scope)?.kind == .missingResultKey)
        #expect(ExprFixture.failure("result.n")?.kind == .resultAbsent)
        #expect(ExprFixture.failure("state.nope")?.kind == .undeclaredState)
    }

    @Test func conditions() throws {
        let scope = ExprFixture.scope()
        #expect(try ExprFixture.parse("state.amount > 100")?.evaluateCondition(in: scope) == true)
        #expect(throws: EvaluationError(message: "a condition must be a bool, found an int", offset: 0, kind: .typeError)) {
            try ExprFixture.parse("state.amount")?.evaluateCondition(in: scope)
        }
    }

    @Test func valuesDescribeThemselvesAsLiterals() {
        #expect(Value.null.description == "null")
        #expect(Value.bool(true).description == "true")
        #expect(Value.int(-3).description == "-3")
        #expect(Value.number(250).description == "250.0")
        #expect(Value.string("it's \\ ok\n").description == "'it\\'s \\\\ ok\\n'")
        #expect(Value.object(["b": .int(1), "a": .string("x")]).description == "{a: 'x', b: 1}")
        #expect(ExprFixture.value(Value.string("it's \\ ok\n").description) == .string("it's \\ ok\n"))
    }

    @Test func valuesFromDocumentNodes() {
        let document = FlowLoader.load(bytes: Array("a: 1\nb: [x]\nc: { d: 2.5, e: ~, f: hi, g: true }\n".utf8), file: "v.yaml", format: .yaml)
        guard let root = document.root else {
            Issue.record("no document")
            return
        }
        #expect(root["a"].flatMap(Value.init(node:)) == .int(1))
        #expect(root["b"].flatMap(Value.init(node:)) == nil)
        #expect(root["c"].flatMap(Value.init(node:)) == .object(["d": .number(2.5), "e": .null, "f": .string("hi"), "g": .bool(true)]))
    }
}
