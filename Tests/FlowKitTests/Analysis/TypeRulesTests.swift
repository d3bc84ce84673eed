import Foundation
import Testing
import TestSupport
@testable import FlowKit

/// Shorthands for the type-inference tests: the fixture state, inference and checks by text.
enum TypeFixture {
    static func type(_ base: TypeRef.Base, optional: Bool = false) -> TypeRef {
        TypeRef(base: base, optional: optional, position: .start)
    }

    static func field(_ name: String, _ base: TypeRef.Base, optional: Bool = false) -> Field {
        Field(name: Name(name, at: .start), type: type(base, optional: optional))
    }

    /// The declared state of the fixtures.
    static let state: [Field] = [
        field("amount", .int),
        field("total", .number),
        field("name", .string),
        field("vip", .bool),
        field("tariff", .enumeration(["economy", "business"])),
        field("plan", .enumeration(["economy", "premium"])),
        field("note", .string, optional: true),
        field("age", .int, optional: true),
        field("flag", .bool, optional: true),
    ]

    /// A declared result: `{ total: int, coupon: string?, user: { name: string } }` of step 'a'.
    static let result = ResultContext.fields(StaticType.fields([
        field("total", .int),
        field("coupon", .string, optional: true),
        field("user", .object([field("name", .string)])),
    ]), owner: .step("a"))

    static func environment(result: ResultContext = .unknown) -> TypeEnvironment {
        TypeEnvironment(state: state, result: result)
    }

    static func infer(_ text: String, result: ResultContext = .unknown, sourceLocation: SourceLocation = #_sourceLocation) -> InferredExpression? {
        ExprFixture.parse(text, sourceLocation: sourceLocation).map { TypeInference.infer($0, in: environment(result: result)) }
    }

    static func assign(_ text: String, to type: TypeRef, sourceLocation: SourceLocation = #_sourceLocation) -> [TypeProblem] {
        guard let expression = ExprFixture.parse(text, sourceLocation: sourceLocation) else { return [] }
        return TypeInference.checkAssignment(expression, to: type, in: environment(), what: "step 'a' sets 'k'")
    }

    static func condition(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [TypeProblem] {
        guard let expression = ExprFixture.parse(text, sourceLocation: sourceLocation) else { return [] }
        return TypeInference.checkCondition(expression, in: environment(), what: "the 'if' of step 'a'")
    }
}

/// An expression that must give exactly one problem, with its message and offset.
struct TypeCase: CustomTestStringConvertible, Sendable {
    let text: String
    let message: String
    let offset: Int

    init(_ text: String, _ message: String, at offset: Int = 0) {
        self.text = text
        self.message = message
        self.offset = offset
    }

    var testDescription: String { text }
}

@Suite("Type inference")
struct TypeInferenceTests {
    static let operatorMismatches: [TypeCase] = [
        TypeCase("!state.amount", "'!' needs a bool, found an int"),
        TypeCase("-state.name", "'-' needs a number, found a string"),
        TypeCase("-state.vip", "'-' needs a number, found a bool"),
        TypeCase("state.name * 2", "'*' needs two numbers, found a string and an int"),
        TypeCase("state.amount / state.vip", "'/' needs two numbers, found an int and a bool"),
        TypeCase("state.total % 'x'", "'%' needs two numbers, found a number and a string"),
        TypeCase("state.name - 'x'", "'-' needs two numbers, found a string and a string"),
        TypeCase("state.vip + 1", "'+' needs two numbers or two strings, found a bool and an int"),
        TypeCase("state.name + 1", "'+' needs two numbers or two strings, found a string and an int"),
        TypeCase("state.tariff + state.amount", "'+' needs two numbers or two strings, found a string and an int"),
        TypeCase("1 + null", "'+' needs two numbers or two strings, found an int and null"),
        TypeCase("state.name < 1", "'<' needs two numbers or two strings, found a string and an int"),
        TypeCase("state.vip <= true", "'<=' needs two numbers or two strings, found a bool and a bool"),
        TypeCase("null > 1", "'>' needs two numbers or two strings, found null and an int"),
        TypeCase("state.amount >= 'x'", "'>=' needs two numbers or two strings, found an int and a string"),
        TypeCase("state.amount == 'x'", "'==' cannot compare an int with a string"),
        TypeCase("state.vip != 1", "'!=' cannot compare a bool with an int"),
        TypeCase("state.tariff == true", "'==' cannot compare a string with a bool"),
        TypeCase("state.amount && state.vip", "'&&' needs bools, found an int"),
        TypeCase("state.vip || 'x'", "'||' needs bools, found a string", at: 13),
        TypeCase("null && true", "'&&' needs bools, found null"),
        TypeCase("state.amount ? 1 : 2", "the condition of '? :' needs a bool, found an int"),
        TypeCase("state.amount in [1, 'x']", "'in' cannot compare an int with a string", at: 20),
        TypeCase("state.vip in [true, 2]", "'in' cannot compare a bool with an int", at: 20),
        // Operators nest: the inner mismatch is reported, and the outer operator sees an unknown and stays quiet.
        TypeCase("(state.vip + 1) * 2 > 0", "'+' needs two numbers or two strings, found a bool and an int"),
        TypeCase("state.amount > 0 && (state.name == 1)", "'==' cannot compare a string with an int", at: 20),
    ]

    @Test(arguments: operatorMismatches)
    func operatorMismatch(_ testCase: TypeCase) throws {
        let inferred = try #require(TypeFixture.infer(testCase.text))
        #expect(inferred.problems == [TypeProblem(kind: .typeMismatch, offset: testCase.offset, message: Message(verbatim: testCase.message))])
    }

    static let enumLiterals: [TypeCase] = [
        TypeCase("state.tariff == 'first'", "'first' is not a value of 'state.tariff' ('economy', 'business')", at: 16),
        TypeCase("'buisness' != state.tariff", "'buisness' is not a value of 'state.tariff' ('economy', 'business'); did you mean 'business'?"),
        TypeCase("state.tariff < 'zzz'", "'zzz' is not a value of 'state.tariff' ('economy', 'business')", at: 15),
        TypeCase("state.tariff in ['economy', 'bussiness']", "'bussiness' is not a value of 'state.tariff' ('economy', 'business'); did you mean 'business'?", at: 28),
        TypeCase("state.tariff == (state.vip ? 'economy' : 'bad')", "'bad' is not a value of 'state.tariff' ('economy', 'business')", at: 41),
        TypeCase("(state.vip ? state.tariff : state.plan) == 'x'", "'x' is not one of 'economy', 'business', 'premium'", at: 43),
    ]

    @Test(arguments: enumLiterals)
    func enumLiteral(_ testCase: TypeCase) throws {
        let inferred = try #require(TypeFixture.infer(testCase.text))
        #expect(inferred.problems == [TypeProblem(kind: .typeMismatch, offset: testCase.offset, message: Message(verbatim: testCase.message))])
    }

    static let wellTyped: [(String, StaticType)] = [
        ("1 + 2", .int),
        ("state.amount / 2", .int),
        ("state.amount * 1.5", .number),
        ("-state.total", .number),
        ("'a' + 'b'", .string),
        ("state.tariff + '!'", .string),
        ("state.name < 'b' && state.amount < 1.5", .bool),
        ("state.amount == 1.5", .bool),
        ("state.note == null", .bool),
        ("null == null", .bool),
        ("state.tariff == state.plan", .bool),
        ("state.tariff == state.name", .bool),
        ("state.tariff in ['economy', 'business', state.name]", .bool),
        ("exists(state.note)", .bool),
        ("state.age + 1", .int),
        ("state.note < 'x'", .bool),
        ("!state.flag", .bool),
        ("state.vip ? 1 : null", .optional(.int)),
        ("state.vip ? null : state.age", .optional(.int)),
        ("state.vip ? 1 : 2.5", .number),
        ("state.vip ? state.tariff : 'x'", .string),
        ("state.vip ? state.tariff : state.plan", .enumeration(["economy", "business", "premium"])),
        ("state.note", .optional(.string)),
        ("state.tariff", .enumeration(["economy", "business"])),
        ("result.anything.at.all + 1", .unknown),
        ("result.x * 'text' == 3", .bool),
    ]

    @Test func branchesOfDifferentKindsAreATypeMismatch() throws {
        let inferred = try #require(TypeFixture.infer("(state.vip ? 1 : 'x') == 'a'"))
        #expect(inferred.type == .bool)
        #expect(inferred.problems.map(\.message) == ["the branches of '? :' give an int and a string; give both the same type"])
        #expect(inferred.problems.map(\.offset) == [0])
    }

    @Test func wellTypedExpressions() throws {
        for (text, type) in Self.wellTyped {
            let inferred = try #require(TypeFixture.infer(text))
            #expect(inferred.type == type, "\(text)")
            #expect(inferred.problems.filter { $0.kind != .maybeNull }.isEmpty, "\(text): \(inferred.problems)")
        }
    }

    @Test func undeclaredStateKeys() throws {
        let read = try #require(TypeFixture.infer("state.amout + 1 > state.amount"))
        #expect(read.problems == [TypeProblem(kind: .undeclaredState, offset: 0, message: "state key 'amout' is not declared; did you mean 'amount'?", subject: "amout",
                                               replacement: .init(offset: 6, old: "amout", new: "amount"))])
        let exists = try #require(TypeFixture.infer("state.vip && exists(state.nte)"))
        #expect(exists.problems == [TypeProblem(kind: .undeclaredState, offset: 20, message: "state key 'nte' is not declared; did you mean 'note'?", subject: "nte",
                                                 replacement: .init(offset: 26, old: "nte", new: "note"))])
        let far = try #require(TypeFixture.infer("state.zzzzzzzz"))
        #expect(far.problems.map(\.message) == ["state key 'zzzzzzzz' is not declared"])
        #expect(far.type == .unknown)
    }

    @Test func resultKeys() throws {
        let result = TypeFixture.result
        #expect(try #require(TypeFixture.infer("result.total", result: result)).type == .int)
        #expect(try #require(TypeFixture.infer("result.coupon", result: result)).type == .optional(.string))
        #expect(try #require(TypeFixture.infer("result.user.name", result: result)).type == .string)
        #expect(try #require(TypeFixture.infer("exists(result.coupon) && result.coupon != ''", result: result)).problems.isEmpty)
        // The did-you-mean is also an edit of the key: its offset in the expression, the key and the suggestion.
        let cases: [(String, String, Int, TypeProblem.Replacement?)] = [
            ("result.totl > 1", "step 'a' has no result key 'totl'; did you mean 'total'?", 0, .init(offset: 7, old: "totl", new: "total")),
            ("state.vip && result.user.nme == 'x'", "step 'a' has no result key 'user.nme'; did you mean 'name'?", 13, .init(offset: 25, old: "nme", new: "name")),
            ("result.total.cents", "'result.total' is an int, not an object, so 'result.total.cents' cannot be read", 0, nil),
            ("exists(result.copon)", "step 'a' has no result key 'copon', so 'exists(result.copon)' is always false; did you mean 'coupon'?", 7,
             .init(offset: 14, old: "copon", new: "coupon")),
            ("result.total + 'x'", "'+' needs two numbers or two strings, found an int and a string", 0, nil),
            ("result.user == result.user", "'==' cannot compare an object with an object", 0, nil),
        ]
        for (text, message, offset, replacement) in cases {
            let inferred = try #require(TypeFixture.infer(text, result: result))
            #expect(inferred.problems == [TypeProblem(kind: .typeMismatch, offset: offset, message: Message(verbatim: message), replacement: replacement)], "\(text)")
        }
        let nested = ResultContext.nestedFlow(state: [TypeFixture.field("card", .string, optional: true)], step: "pay", file: "pay.yaml")
        #expect(try #require(TypeFixture.infer("result.card", result: nested)).type == .optional(.string))
        #expect(try #require(TypeFixture.infer("result.crad", result: nested)).problems.map(\.message)
                == ["the nested flow 'pay.yaml' of step 'pay' has no state key 'crad'; did you mean 'card'?"])
        let absent = ResultContext.absent(reason: .inputBeforeResult(step: "pay"))
        #expect(try #require(TypeFixture.infer("result.total", result: absent)).problems.map(\.message)
                == ["'result.total' cannot be read: 'input' is evaluated before step 'pay' has a result"])
        #expect(try #require(TypeFixture.infer("exists(result.total)", result: absent)).problems.map(\.message)
                == ["'exists(result.total)' is always false: 'input' is evaluated before step 'pay' has a result"])
    }

    /// Every assignability case: an expression, the declared key type, and the message after "step 'a' sets 'k': " (nil: fits).
    static let assignments: [(String, TypeRef, String?)] = {
        let t = TypeFixture.type
        let tariff = TypeRef.Base.enumeration(["economy", "business"])
        return [
            ("1", t(.int, false), nil),
            ("1", t(.number, false), nil),
            ("1.5", t(.number, false), nil),
            ("1.5", t(.int, false), "expected an int, found a number"),
            ("state.amount * 1.0", t(.int, false), "expected an int, found a number"),
            ("state.amount / 2", t(.int, false), nil),
            ("null", t(.int, false), "expected an int, found null (the type is not optional)"),
            ("null", t(.int, true), nil),
            ("null", t(tariff, true), nil),
            ("state.age", t(.int, false), nil),
            ("state.note", t(.string, false), nil),
            ("state.age", t(.string, false), "expected a string, found an int"),
            ("'x'", t(.string, false), nil),
            ("state.tariff", t(.string, false), nil),
            ("'economy'", t(tariff, false), nil),
            ("'first'", t(tariff, false), "'first' is not one of 'economy', 'business'"),
            ("'busines'", t(tariff, true), "'busines' is not one of 'economy', 'business'; did you mean 'business'?"),
            ("state.name", t(tariff, false), nil),
            ("state.plan", t(tariff, false), nil),
            ("state.tariff", t(.enumeration(["gold", "silver"]), false), "expected one of 'gold', 'silver', found one of 'economy', 'business'"),
            ("true", t(.bool, false), nil),
            ("state.amount > 1", t(.bool, false), nil),
            ("true", t(.int, false), "expected an int, found a bool"),
            ("'1'", t(.int, false), "expected an int, found a string"),
            ("1", t(.string, false), "expected a string, found an int"),
            ("state.name", t(.bool, false), "expected a bool, found a string"),
            ("1", t(tariff, false), "expected one of 'economy', 'business', found an int"),
            ("result.anything", t(.int, false), nil),
        ]
    }()

    @Test func assignability() {
        for (text, type, message) in Self.assignments {
            let problems = TypeFixture.assign(text, to: type).filter { $0.kind != .maybeNull }
            let expected = message.map { [TypeProblem(kind: .typeMismatch, offset: 0, message: Message(verbatim: "step 'a' sets 'k': \($0)"))] } ?? []
            #expect(problems == expected, "\(text) to \(type)")
        }
    }

    @Test func assignmentChecksEachBranch() {
        let int = TypeFixture.type(.int)
        #expect(TypeFixture.assign("state.vip ? 1 : 1.5", to: int)
                == [TypeProblem(kind: .typeMismatch, offset: 16, message: "step 'a' sets 'k': expected an int, found a number")])
        #expect(TypeFixture.assign("state.vip ? 1 : state.amount ? 2 : null", to: int).map(\.offset) == [16, 35])
        #expect(TypeFixture.assign("exists(state.age) ? state.age : 0", to: int).isEmpty)
        let tariff = TypeFixture.type(.enumeration(["economy", "business"]))
        #expect(TypeFixture.assign("state.vip ? 'business' : 'frist'", to: tariff).map(\.offset) == [25])
        let objectResult = TypeFixture.environment(result: TypeFixture.result)
        let expression = ExprFixture.parse("result.user")!
        #expect(TypeInference.checkAssignment(expression, to: TypeFixture.type(.string), in: objectResult, what: "step 'a' sets 'k'").map(\.message)
                == ["step 'a' sets 'k': expected a string, found an object"])
    }

    @Test func conditions() {
        #expect(TypeFixture.condition("state.vip").isEmpty)
        #expect(TypeFixture.condition("state.flag").map(\.kind) == [.maybeNull], "an optional bool is a bool or null")
        #expect(TypeFixture.condition("result.x").isEmpty)
        #expect(TypeFixture.condition("state.amount").map(\.message) == ["the 'if' of step 'a' must be a bool, found an int"])
        #expect(TypeFixture.condition("null").map(\.message) == ["the 'if' of step 'a' must be a bool, found null"])
        #expect(TypeFixture.condition("state.vip ? state.amount : true").map(\.offset) == [12])
        #expect(TypeFixture.condition("state.name ? true : false").map(\.message) == ["the condition of '? :' needs a bool, found a string"])
    }

    @Test func joins() {
        #expect(StaticType.join(.null, .optional(.int)) == .optional(.int))
        #expect(StaticType.join(.optional(.int), .number) == .optional(.number))
        #expect(StaticType.join(.optional(.int), .string) == .unknown)
        #expect(StaticType.join(.unknown, .int) == .unknown)
        #expect(StaticType.join(.enumeration(["a"]), .enumeration(["a", "b"])) == .enumeration(["a", "b"]))
        #expect(StaticType(TypeFixture.type(.int, optional: true)).description == "int?")
    }
}

@Suite("Type rules")
struct TypeRulesTests {
    func findings(_ text: String, file: String = "t.yaml", format: DocumentFormat = .yaml) -> [Diagnostic] {
        let document = FlowLoader.load(bytes: Array(text.utf8), file: file, format: format)
        let context = LintContext(document: document)
        return (UndeclaredStateRule.check(context) + TypeMismatchRule.check(context))
            .sorted { ($0.position, $0.rule, $0.message) < ($1.position, $1.rule, $1.message) }
    }

    func summary(_ findings: [Diagnostic]) -> [String] {
        findings.map { "\($0.line):\($0.column) \($0.rule) \($0.step ?? "-") \($0.message)" }
    }

    @Test func describeThemselves() {
        #expect(UndeclaredStateRule.description.identifier == "undeclared_state")
        #expect(TypeMismatchRule.description.identifier == "type_mismatch")
        #expect(UndeclaredStateRule.description.severity == .error)
        #expect(TypeMismatchRule.description.severity == .error)
        #expect(Linter.rule("undeclared_state") != nil)
        #expect(Linter.rule("type_mismatch") != nil)
    }

    @Test func setKeysAndReadsEverywhere() {
        let text = """
            flowkit: 1
            flow: t
            start: a
            state: { amount: int, tariff: [economy, business] }
            events:
              reset:
              go:
              small: state.amout < 1
            steps:
              "*":
                on: { reset: { forward: b, set: { tarif: "'economy'" } } }
              a:
                result: { amount: int }
                set: { amount: state.amuont, amont: result.amount }
                on: { small: b, go: c }
              c:
                on: { small: b }
                next: { forward: b, if: "exists(state.tarif)", set: { tariff: "state.plan" } }
              b: { kind: finish }
            """
            // (The write of 'amont' always fails: 'a' moves on by a result only through it, so 'c' is reached by an
            // explicit event, which may come without a result, and 'a' evaluates no derived event: 'c' evaluates
            // 'small'; see "Behind a certain run error".)
        #expect(summary(findings(text)) == [
            "8:10 undeclared_state - state key 'amout' is not declared; did you mean 'amount'?",
            "11:39 undeclared_state * step '*' sets 'tarif', which 'state' does not declare; did you mean 'tariff'?",
            "14:20 undeclared_state a state key 'amuont' is not declared; did you mean 'amount'?",
            "14:34 undeclared_state a step 'a' sets 'amont', which 'state' does not declare; did you mean 'amount'?",
            "18:37 undeclared_state c state key 'tarif' is not declared; did you mean 'tariff'?",
            "18:68 undeclared_state c state key 'plan' is not declared",
        ])
    }

    @Test func stepsAndTargets() {
        let text = """
            flowkit: 1
            flow: t
            start: a
            state: { total: int, tariff: [economy, business], vip: bool, note: string? }
            events: { go: , one: }
            steps:
              a:
                result: { total: number, coupon: string? }
                set: { total: result.total }
                on: { go: { forward: b, if: "result.totl > 1" }, one: c }
              c:
                result: { coupon: string? }
                set: { tariff: "'first'" }
                on: { one: d }
              d:
                result: { coupon: string? }
                set: { vip: null }
                on: { one: e }
              e:
                result: { coupon: string? }
                set: { note: result.coupon }
                on: { go: { forward: b, set: { total: "state.vip ? 1 : 2.5" } } }
                next: { forward: b, if: state.total }
              b: { kind: finish }
            """
            // (Each mistake where a run gets to it: a `set` that always fails stops the moves by a result, and an
            // `if` that always fails keeps its option's `set` from running; see "Behind a certain run error".)
        #expect(summary(findings(text)) == [
            "9:19 type_mismatch a step 'a' sets 'total': expected an int, found a number",
            "10:34 type_mismatch a step 'a' has no result key 'totl'; did you mean 'total'?",
            "13:21 type_mismatch c step 'c' sets 'tariff': 'first' is not one of 'economy', 'business'",
            "17:17 type_mismatch d step 'd' sets 'vip': expected a bool, found null (the type is not optional)",
            "22:60 type_mismatch e step 'e' sets 'total': expected an int, found a number",
            "23:29 type_mismatch e the 'if' of step 'e' must be a bool, found an int",
        ])
    }

    @Test func withoutADeclaredResultThereIsNoResultToRead() {
        // 'a' declares no result, so it completes without one: its targets and the "*" targets it uses cannot read
        // `result`. Its `set` never runs (set_without_result), so what that reads is not checked.
        let text = """
            flowkit: 1
            flow: t
            start: a
            state: { total: int }
            entries: { c: { step: c, path: /c } }
            steps:
              "*": { next: { forward: b, if: "result.whatever > 3", set: { total: result.x } } }
              a: { set: { total: "result.total + result.tax" }, next: { forward: b, if: result.ok } }
              c: { title: C }
              b: { kind: finish }
            """
        #expect(summary(findings(text)) == [
            // Not 'result.x' in that option's `set`: a run stopped at its `if` (one cause, one finding).
            "7:35 type_mismatch * 'result.whatever' cannot be read: step 'c' declares no 'result', so it completes without one",
            "8:77 type_mismatch a 'result.ok' cannot be read: step 'a' declares no 'result', so it completes without one",
        ])
    }

    @Test func theFirstReadOfAnAbsentResultIsTheOneReported() {
        // The later reads of the same evaluation are not reached by a run without a result; a part evaluation may
        // skip (the right side of '&&') proves nothing after it.
        let text = """
            flowkit: 1
            flow: t
            start: a
            state: { n: int, ok: bool }
            events: { edit: null }
            steps:
              a:
                result: { amount: int, b: bool }
                on: { edit: { forward: b, if: "(result.amount / result.amount) != result.amount", set: { n: "result.amount" } } }
                next: b
              c:
                result: { amount: int, b: bool }
                on: { edit: { forward: b, if: "(state.ok && result.b) || result.b" } }
                next: b
              b: { kind: finish }
            entries: { c: { step: c, path: /c } }
            """
        #expect(summary(findings(text)).filter { $0.contains("cannot be read") } == [
            "9:37 type_mismatch a 'result.amount' cannot be read when step 'a' completes with event 'edit': that completion may come without a result; guard it with exists(result.amount)",
            "13:49 type_mismatch c 'result.b' cannot be read when step 'c' completes with event 'edit': that completion may come without a result; guard it with exists(result.b)",
            "13:62 type_mismatch c 'result.b' cannot be read when step 'c' completes with event 'edit': that completion may come without a result; guard it with exists(result.b)",
        ])
    }

    @Test func anExplicitEventMayComeWithoutAResult() {
        let text = """
            flowkit: 1
            flow: t
            start: a
            state: { total: int }
            events: { skip: , big: "result.v > 5" }
            steps:
              a:
                result: { v: int }
                on:
                  skip: [{ forward: b, if: "result.v > 5" }, { forward: b, if: "exists(result.v) && result.v > 1" }, b]
                  big: { forward: b, set: { total: result.v } }
                next: { forward: b, set: { total: result.v } }
              b: { kind: finish }
            """
        #expect(summary(findings(text)) == [
            "10:33 type_mismatch a 'result.v' cannot be read when step 'a' completes with event 'skip': that completion may come without a result; guard it with exists(result.v)",
        ])
    }

    @Test func derivedEvents() {
        let text = """
            flowkit: 1
            flow: t
            start: a
            state: { total: int, name: string }
            events:
              big: result.total > 10
              wrong: "result.total + 1"
              odd: "state.name * 2 > 1"
              everywhere: result.nope
            entries: { c: { step: c, path: /c }, d: { step: d, path: /d }, e: { step: e, path: /e }, f: { step: f, path: /f }, g: { step: g, path: /g } }
            steps:
              "*": { on: { everywhere: b } }
              a:
                result: { total: number }
                on: { big: b, wrong: b, odd: b }
                next: b
              c:
                result: { count: int }
                on: { big: b, odd: b }
                next: b
              d:
                on: { big: b }
                next: b
              e:
                result: { total: number }
                on: { odd: b }
                next: b
              f: { result: { total: number }, next: b }
              g: { result: { total: number }, next: b }
              b: { kind: finish }
            """
        // 'd' declares no result, so it evaluates 'big' without one; "*" handles 'everywhere', so every step that
        // evaluates derived events evaluates it, unless one before it always fails there: 'a' stops at 'wrong', 'c'
        // and 'd' at 'big', 'e' at 'odd' (docs/format.md, "Behind a certain run error"). One mistake is one finding,
        // naming the first step and how many more share it.
        #expect(summary(findings(text)) == [
            "6:8 type_mismatch c step 'c' has no result key 'total' (and at 1 more step)",
            "7:11 type_mismatch a when step 'a' completes, the expression of event 'wrong' must be a bool, found a number",
            "8:9 type_mismatch - '*' needs two numbers, found a string and an int",
            "9:15 type_mismatch f step 'f' has no result key 'nope' (and at 1 more step)",
        ])
    }

    @Test func aDerivedEventHandledFromStarIsCheckedAgainstEachStepsResult() {
        // The issue's case: with the step's own handler 'name' was reported; through "*" it was not.
        let text = """
            flowkit: 1
            flow: t
            start: name
            events: { big: "result.amount > 100" }
            steps:
              "*": { on: { big: done } }
              name: { result: { first: string }, next: pay }
              pay: { result: { amount: int }, next: done }
              done: { kind: finish }
            """
        #expect(summary(findings(text)) == ["4:17 type_mismatch name step 'name' has no result key 'amount'"])
    }

    @Test func pastTheSharedCheckLimitOneFindingSaysSoInsteadOfStayingQuiet() throws {
        // Two result shapes and two derived events handled by "*": four checks, past a limit of 2.
        let text = """
            flowkit: 1
            flow: t
            start: a
            events: { one: "false", two: "result.amount > 1" }
            steps:
              "*": { on: { one: done, two: done } }
              a: { result: { n: int }, next: b }
              b: { result: { amount: int }, next: done }
              done: { kind: finish }
            """
        let flow = try #require(FlowLoader.load(bytes: Array(text.utf8), file: "t.yaml", format: .yaml).flow)
        let limited = FlowTypeChecker.check(flow, nestedState: { _ in nil }, sharedCheckLimit: 2)
        #expect(limited.map(\.message).contains { $0.hasPrefix("the flow is too large for this check") })
        #expect(limited.first { $0.message.hasPrefix("the flow is too large") }?.position == SourcePosition(line: 3, column: 8))
        let full = FlowTypeChecker.check(flow, nestedState: { _ in nil })
        #expect(full.map(\.message) == ["step 'a' has no result key 'amount'"])
    }

    @Test func starListsWithNothingToCheckStillCountTowardTheSharedCheckLimit() throws {
        // Three "*" lists with no 'if' and no 'set', and three result shapes: past a limit of 2 the check says so, as
        // it does for lists with something to check; under the default limit there is nothing to say.
        let text = """
            flowkit: 1
            flow: t
            start: a
            events: { one: , two: }
            steps:
              "*": { on: { one: done, two: done }, next: done }
              a: { result: { n: int }, next: b }
              b: { result: { amount: int }, next: c }
              c: { next: done }
              done: { kind: finish }
            """
        let flow = try #require(FlowLoader.load(bytes: Array(text.utf8), file: "t.yaml", format: .yaml).flow)
        let limited = FlowTypeChecker.check(flow, nestedState: { _ in nil }, sharedCheckLimit: 2)
        #expect(limited.map(\.message).contains { $0.hasPrefix("the flow is too large for this check") })
        #expect(FlowTypeChecker.check(flow, nestedState: { _ in nil }).isEmpty)
    }

    @Test func derivedEventsAreNotEvaluatedForFlowSteps() {
        let text = """
            flowkit: 1
            flow: t
            start: a
            state: { total: int }
            events: { big: result.total > 10 }
            steps:
              a: { kind: flow, flow: type-rules-missing-child.yaml, result: { count: int }, on: { big: b }, next: b }
              b: { kind: finish }
            """
        #expect(findings(text).isEmpty)
    }

    @Test func literalSlotsAreTypedByTheirLiteral() {
        let text = """
            {"flowkit": 1, "flow": "t", "start": "a",
             "state": {"n": "int", "ok": "bool", "x": "number"}, "events": {"go": null},
             "steps": {
               "a": {"result": {"n": "int"}, "set": {"n": 1.5}, "on": {"go": "c"}},
               "c": {"result": {"n": "int"}, "set": {"ok": 1, "x": 2}, "on": {"go": "d"}},
               "d": {"next": {"forward": "b", "if": 3}},
               "b": {"kind": "finish"}}}
            """
        #expect(summary(findings(text, file: "t.json", format: .json)) == [
            "4:47 type_mismatch a step 'a' sets 'n': expected an int, found a number",
            "5:48 type_mismatch c step 'c' sets 'ok': expected a bool, found an int",
            "6:41 type_mismatch d the 'if' of step 'd' must be a bool, found an int",
        ])
    }

    @Test func gate() {
        let schemaError = """
            flowkit: 1
            flow: t
            start: a
            state: { n: int }
            steps:
              a: { set: { n: "'x'", m: 1 }, nxt: b }
              b: { kind: finish }
            """
        #expect(findings(schemaError).isEmpty, "a file with schema errors is not type-checked")
        let unparsed = """
            flowkit: 1
            flow: t
            start: a
            state: { n: int }
            steps:
              a: { set: { n: "'x' +", m: "1 +" }, next: { forward: b, if: "state.n == 'x'" } }
              b: { kind: finish }
            """
        #expect(summary(findings(unparsed)) == [
            "6:27 undeclared_state a step 'a' sets 'm', which 'state' does not declare",
            "6:64 type_mismatch a '==' cannot compare an int with a string",
        ])
    }

    @Test func nestedFlows() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("flowkit-types-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            flowkit: 1
            flow: payment
            start: card
            state: { amount: int, currency: [eur, usd], card: string?, attempts: int }
            events: { cancel: }
            steps:
              card: { result: { card: string }, set: { card: result.card }, on: { cancel: failed }, next: done }
              done: { kind: finish, outcome: paid }
              failed: { kind: finish, outcome: cancelled }
            """.write(toFile: folder + "/sub/payment.yaml", atomically: true, encoding: .utf8)
        let parent = """
            flowkit: 1
            flow: parent
            start: pay
            state: { total: number, count: int, card: string, label: [eur, usd], paid: bool? }
            events: { paid: , cancelled: }
            # ('pay''s `input` always fails, so its nested flow never starts and its `set` never runs: 'settle' reads
            # the nested flow's final state, and it and 'again' are reached by their entries. Started with no input,
            # the nested flow never sets 'amount': the read of 'result.amount' always fails, and what follows it in
            # the `set` is behind it.)
            entries: { retry: { step: again, path: /retry }, settle: { step: settle, path: /settle } }
            steps:
              pay:
                kind: flow
                flow: sub/payment.yaml
                input: { amount: state.total, currency: "'gbp'", attemps: 0, card: result.card }
                set: { card: result.card, count: result.amount, total: result.attempts, label: result.currency, paid: result.cardd }
                on: { paid: { forward: done, if: "result.amount > 0" }, cancelled: again }
              settle:
                kind: flow
                flow: sub/payment.yaml
                set: { paid: result.cardd, card: result.card, count: result.amount, total: result.attempts, label: result.currency }
                next: done
              again:
                kind: flow
                flow: sub/missing.yaml
                input: { anything: "state.count + 1", other: result.x }
                set: { card: result.whatever }
                next: outside
              outside:
                kind: flow
                flow: ../payment.yaml
                input: { anything: 1 }
                next: done
              done: { kind: finish }
            """
        try parent.write(toFile: folder + "/parent.yaml", atomically: true, encoding: .utf8)
        let document = try FlowLoader.load(path: folder + "/parent.yaml")
        let context = LintContext(document: document)
        let found = (UndeclaredStateRule.check(context) + TypeMismatchRule.check(context))
            .sorted { ($0.position, $0.rule, $0.message) < ($1.position, $1.rule, $1.message) }
        #expect(summary(found) == [
            "15:22 type_mismatch pay step 'pay' passes 'amount': expected an int, found a number",
            "15:46 type_mismatch pay step 'pay' passes 'currency': 'gbp' is not one of 'eur', 'usd'",
            "15:54 type_mismatch pay step 'pay' passes 'attemps', which the state of nested flow 'sub/payment.yaml' does not declare; did you mean 'attempts'?",
            "15:72 type_mismatch pay 'result.card' cannot be read: 'input' is evaluated before step 'pay' has a result",
            "21:18 type_mismatch settle the nested flow 'sub/payment.yaml' of step 'settle' has no state key 'cardd'; did you mean 'card'?",
            "26:50 type_mismatch again 'result.x' cannot be read: 'input' is evaluated before step 'again' has a result",
        ])
        // The nested flow is found relative to the parent file, whatever the working directory.
        #expect(found.allSatisfy { $0.file == folder + "/parent.yaml" })
        // A lint run's workspace gives the same nested flows, and one it cannot read is skipped.
        let inWorkspace = TypeMismatchRule.check(LintContext(document: document, workspace: LintWorkspace(roots: [folder])))
        #expect(inWorkspace.sorted { $0.position < $1.position } == found)
        let confined = TypeMismatchRule.check(LintContext(document: document, workspace: LintWorkspace(roots: [folder + "/elsewhere"])))
        #expect(summary(confined).map { String($0.prefix(5)) } == ["15:72", "26:50"], "only the reads of 'result' in 'input'")
    }

    @Test func sampleFlowsHaveNoFindings() throws {
        let workspace = LintWorkspace(roots: [packageRoot + "/flows"])
        var checked = 0
        for folder in ["flows", "flows/nested"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/" + folder)
                .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted()
            for name in names {
                let document = try FlowLoader.load(path: packageRoot + "/" + folder + "/" + name)
                guard !document.isScript else { continue }
                checked += 1
                let found = Linter.lint(document, workspace: workspace).filter { $0.rule == "undeclared_state" || $0.rule == "type_mismatch" }
                #expect(found.isEmpty, "\(name): \(summary(found))")
            }
        }
        #expect(checked >= 6)
    }

    @Test func sampleNestedFlowIsChecked() throws {
        let path = packageRoot + "/flows/booking.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try #require(text.contains("\"customerId\": \"result.customerId\""), "booking.json's nested flow step reads 'result.customerId'")
        let misspelt = text.replacingOccurrences(of: "\"customerId\": \"result.customerId\"", with: "\"customerId\": \"result.customerID\"")
        let document = FlowLoader.load(bytes: Array(misspelt.utf8), file: path, format: .json)
        let found = TypeMismatchRule.check(LintContext(document: document)).map(\.message)
        #expect(found == ["the nested flow 'nested/sign-in.yaml' of step 'signIn' has no state key 'customerID'; did you mean 'customerId'?"])
    }

    @Test func largeFlowStaysFast() {
        var text = "flowkit: 1\nflow: big\nstart: s0\nstate:\n"
        let count = 3000
        for index in 0..<count { text += "  k\(index): int\n" }
        text += "events:\n  go:\n  check:\n"
        for index in 0..<count { text += "  e\(index): \"result.v > state.k\(index)\"\n" }
        text += "steps:\n"
        for index in 0..<count {
            // (The write of an undeclared key always fails: the steps are chained by an explicit event, whose moves
            // may come without a result.)
            text += "  s\(index):\n    result: { v: int }\n    set: { k\(index): \"result.v + state.k\((index + 1) % count)\", x\(index): 1 }\n"
            text += "    on: { e\(index): s\((index + 1) % count), go: \(index + 1 == count ? "done" : "s\(index + 1)"), check: { forward: done, if: \"state.k\(index) == 'no'\" } }\n"
        }
        text += "  done: { kind: finish }\n"
        let clock = ContinuousClock()
        var found: [Diagnostic] = []
        let elapsed = clock.measure { found = findings(text, file: "big.yaml") }
        #expect(found.count == 2 * count, "one undeclared key and one comparison per step")
        #expect(elapsed < .seconds(20), "\(elapsed)")
    }
}

/// Issue 11: `maybe_null`, a value that may be null reaching an operator, a condition or a non-optional key.
@Suite("maybe_null")
struct MaybeNullRuleTests {
    func nullFindings(_ text: String) -> [String] {
        let document = FlowLoader.load(bytes: Array(text.utf8), file: "t.yaml", format: .yaml)
        return MaybeNullRule.check(LintContext(document: document)).sorted { $0.position < $1.position }
            .map { "\($0.line):\($0.column) \($0.message)" }
    }

    @Test func optionalStateAndResultKeysInOperatorsConditionsAndStores() {
        let findings = nullFindings("""
            flowkit: 1
            flow: t
            start: a
            state: { first: string, last: string?, count: int?, flag: bool?, name: string }
            steps:
              a:
                result: { note: string? }
                set: { name: result.note }
                next:
                  - { forward: b, if: "state.count > 1" }
                  - { forward: b, if: state.flag }
                  - { forward: b, set: { name: "state.first + state.last" } }
              b: { kind: finish }
            """)
        #expect(findings == [
            "8:18 'result.note' may be null, and step 'a' sets 'name', which is not optional; guard it with exists(result.note)",
            "10:28 'state.count' may be null, and '>' needs a value; guard it with exists(state.count)",
            "11:27 'state.flag' may be null, and the 'if' of step 'a' needs true or false; guard it with exists(state.flag)",
            "12:51 'state.last' may be null, and '+' needs a value; guard it with exists(state.last)",
        ])
    }

    @Test func guardsThatProveAValueIsThere() {
        let findings = nullFindings("""
            flowkit: 1
            flow: t
            start: a
            state: { last: string?, count: int?, flag: bool?, name: string }
            steps:
              a:
                next:
                  - { forward: b, if: "exists(state.count) && state.count > 1" }
                  - { forward: b, if: "!exists(state.count) || state.count < 5" }
                  - { forward: b, if: "state.flag != null && state.flag" }
                  - { forward: b, if: "exists(state.last)", set: { name: state.last } }
                  - { forward: b, set: { name: "exists(state.last) ? state.last : 'anon'" } }
              b: { kind: finish }
            """)
        #expect(findings.isEmpty)
        // Equal to a literal that is not null, and a `? :` whose other branch is the literal `false` (or `true`, where
        // it must fail), prove it too; `== null` and a branch that may hold do not.
        let more = nullFindings("""
            flowkit: 1
            flow: t
            start: a
            state: { last: string?, count: int?, flag: bool?, name: string }
            steps:
              a:
                next:
                  - { forward: b, if: "state.flag == true && state.flag" }
                  - { forward: b, if: "state.count != 3 || state.count > 1" }
                  - { forward: b, if: "(exists(state.flag) ? state.flag : false) && state.flag" }
                  - { forward: b, if: "(exists(state.count) ? state.count < 2 : true) || state.count > 1" }
                  - { forward: b, if: "state.last == null && state.last > 'a'" }
                  - { forward: b, if: "(exists(state.flag) ? state.flag : true) && state.flag" }
              b: { kind: finish }
            """)
        #expect(more.map { String($0.prefix(5)) } == ["12:50", "13:72"], "\(more)")
    }

    @Test func anEarlierOptionsFailedGuardCovers() {
        let findings = nullFindings("""
            flowkit: 1
            flow: t
            start: a
            state: { count: int?, total: int }
            steps:
              a:
                next:
                  - { forward: b, if: "!exists(state.count)" }
                  - { forward: b, set: { total: "state.count + 1" } }
              b: { kind: finish }
            """)
        #expect(findings.isEmpty)
    }

    @Test func equalityAndMembershipTakeNull() {
        let findings = nullFindings("""
            flowkit: 1
            flow: t
            start: a
            state: { last: string?, note: string? }
            steps:
              a: { next: { forward: b, if: "state.last == 'x' || state.last in ['a', 'b']", set: { note: state.last } } }
              b: { kind: finish }
            """)
        #expect(findings.isEmpty)
    }
}
