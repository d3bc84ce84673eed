import Testing
@testable import FlowKit

@Suite("Expression rule")
struct ExpressionRuleTests {
    func findings(_ text: String, format: DocumentFormat = .yaml) -> [Diagnostic] {
        let document = FlowLoader.load(bytes: Array(text.utf8), file: "e.\(format.rawValue)", format: format)
        return ExpressionRule.check(LintContext(document: document))
    }

    @Test func describesItself() {
        let description = ExpressionRule.description
        #expect(description.identifier == "expression")
        #expect(description.severity == .error)
        #expect(!description.triggeringExamples.isEmpty)
        #expect(!description.nonTriggeringExamples.isEmpty)
    }

    // Its examples run in RuleExamplesTests with every other rule's.

    static let header = "flowkit: 1\nflow: t\nstart: a\nstate: { tariff: [economy, business], n: int }\n"

    @Test func plainYAMLScalar() {
        let found = findings(Self.header + "steps:\n  a:\n    next: { forward: b, if: state.tariff == economy }\n  b: { kind: finish }\n")
        #expect(found.count == 1)
        // The value starts at column 29 on line 7; 'economy' is 16 scalars into the expression.
        #expect(found.first?.position == SourcePosition(line: 7, column: 45))
        #expect(found.first?.step == "a")
        #expect(found.first?.message == "unknown name 'economy'; to compare with text, quote it: 'economy'")
        #expect(found.first?.file == "e.yaml")
    }

    @Test func quotedYAML() {
        let double = findings(Self.header + "steps:\n  a:\n    next: { forward: b, if: \"state.tariff == economy\" }\n  b: { kind: finish }\n")
        #expect(double.map(\.position) == [SourcePosition(line: 7, column: 46)])
        let single = findings(Self.header + "steps:\n  a:\n    set: { n: 'state.n +* 2' }\n    next: b\n  b: { kind: finish }\n")
        #expect(single.map(\.position) == [SourcePosition(line: 7, column: 25)])
        #expect(single.first?.message == "expected a value, found '*'")
        // A quote before the fault, written as itself or escaped, still leaves the column exact.
        let quote = findings(Self.header + "steps:\n  a:\n    next: { forward: b, if: \"'x' == economy\" }\n  b: { kind: finish }\n")
        #expect(quote.map(\.position) == [SourcePosition(line: 7, column: 37)])
        let escaped = findings(Self.header + "steps:\n  a:\n    next: { forward: b, if: \"\\\"x\\\" == economy\" }\n  b: { kind: finish }\n")
        #expect(escaped.map(\.position) == [SourcePosition(line: 7, column: 39)])
    }

    @Test func theEndOfAValueIsItsClosingQuote() {
        // Past a folded line break, or an escaped one, to the quote on the next line (review of issue 32's change).
        let folded = findings(Self.header + "steps:\n  a:\n    next: { forward: b, if: \"state.n ==\n          \" }\n  b: { kind: finish }\n")
        #expect(folded.map(\.position) == [SourcePosition(line: 8, column: 11)])
        let escaped = findings(Self.header + "steps:\n  a:\n    next: { forward: b, if: \"state.n == \\\n          \" }\n  b: { kind: finish }\n")
        #expect(escaped.map(\.position) == [SourcePosition(line: 8, column: 11)])
    }

    @Test func json() {
        let text = """
            {"flowkit": 1, "flow": "t", "start": "a",
             "state": {"n": "int"},
             "events": {"big": "state.n >> 3"},
             "steps": {
               "a": {"on": {"big": "b"}, "next": {"forward": "b", "if": "state.n == nope"}},
               "b": {"kind": "finish"}}}
            """
        let found = findings(text, format: .json)
        #expect(found.map(\.position) == [SourcePosition(line: 3, column: 30), SourcePosition(line: 5, column: 73)])
        #expect(found.map(\.step) == [nil, "a"])
        #expect(found.first?.message == "expected a value, found '>'")
    }

    @Test func everySlotIsChecked() {
        let text = """
            flowkit: 1
            flow: t
            start: a
            state: { n: int }
            events:
              e1: "1 +"
            steps:
              "*":
                on: { e1: { forward: b, if: "2 +", set: { n: "3 +" } } }
                next: { forward: b, set: { n: "4 +" } }
              a:
                result: { n: int }
                set: { n: "5 +" }
                on: { e1: [{ forward: b, if: "6 +" }, b] }
                next: { back: b, if: "7 +", set: { n: "8 +" } }
              c:
                kind: flow
                flow: child.yaml
                input: { x: "9 +" }
                next: b
              b: { kind: finish }
            """
        let found = findings(text)
        #expect(found.count == 9)
        #expect(Set(found.map(\.message)) == ["expected a value at the end of the expression"])
        #expect(found.map(\.step) == [nil, "*", "*", "*", "a", "a", "a", "a", "c"])
        #expect(found.map(\.position.line) == [6, 9, 9, 10, 13, 14, 15, 15, 19])
    }

    @Test func literalsAndValidExpressionsGiveNoFinding() {
        let text = Self.header + """
            steps:
              a:
                result: { n: int, tariff: [economy, business] }
                set: { n: 12, tariff: result.tariff }
                next:
                  - { forward: b, if: true }
                  - { forward: b, if: "result.tariff in ['economy'] && exists(state.n)", set: { n: null } }
              b: { kind: finish }

            """
        #expect(findings(text).isEmpty)
    }

    @Test func noFlowNoFindings() {
        #expect(findings("flow: [").isEmpty)
        #expect(findings("just text").isEmpty)
    }
}
