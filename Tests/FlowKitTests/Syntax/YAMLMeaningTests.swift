@testable import FlowKit
import Foundation
import Testing

/// YAML that would change a flow's meaning (docs/format.md, "Files"): tags, merge keys and directives are `syntax`
/// findings at their position, and a plain value in an expression slot is read only when every reader agrees on it.
@Suite("YAML that changes meaning")
struct YAMLMeaningTests {
    static let header = "flowkit: 1\nflow: f\nstart: a\n"

    /// The findings of a YAML flow, linted as a file of its own.
    static func lint(_ yaml: String) -> [Diagnostic] {
        Linter.lint(FlowLoader.load(bytes: Array(yaml.utf8), file: "f.yaml"))
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let yaml: String
        let line: Int
        let column: Int
        let message: String
        var testDescription: String { name }
    }

    static let tagged: [Case] = [
        Case(name: "the expression a tag swallowed", yaml: header + "events:\n  wrong: !result.ok\nsteps:\n  a: { result: { ok: bool }, on: { wrong: a }, next: b }\n  b: { kind: finish }\n",
             line: 5, column: 10, message: "'!result.ok' is read as a YAML tag, not as text or an expression, and the value is left empty; quote it: \"!result.ok\""),
        Case(name: "a core tag", yaml: header + "steps:\n  a: { next: b, title: !!str 12 }\n  b: { kind: finish }\n",
             line: 5, column: 24, message: "YAML tags ('!!str') have no meaning in a flow file"),
        Case(name: "a verbatim tag", yaml: header + "steps:\n  a: { next: !<tag:x> b }\n  b: { kind: finish }\n",
             line: 5, column: 14, message: "YAML tags ('!<tag:x>') have no meaning in a flow file"),
        Case(name: "a tag on a mapping", yaml: header + "steps: !flows\n  a: { next: b }\n  b: { kind: finish }\n",
             line: 4, column: 8, message: "YAML tags ('!flows') have no meaning"),
        Case(name: "a tag on a list", yaml: header + "state: { n: int }\nsteps:\n  a: { next: !!seq [b] }\n  b: { kind: finish }\n",
             line: 6, column: 14, message: "YAML tags ('!!seq') have no meaning"),
        Case(name: "a tag on a key", yaml: header + "steps:\n  !x a: { next: b }\n  b: { kind: finish }\n",
             line: 5, column: 3, message: "YAML tags ('!x') have no meaning"),
        Case(name: "the non-specific tag", yaml: header + "steps:\n  a: { next: ! b }\n  b: { kind: finish }\n",
             line: 5, column: 14, message: "'! ' is read as a YAML tag, not as 'not'; quote the expression: \"! b\""),
        Case(name: "a negation read as a tag", yaml: header + "state: { done: bool }\ninputs: [done]\nsteps:\n  a: { next: [{ forward: b, if: ! state.done }, b] }\n  b: { kind: finish }\n",
             line: 7, column: 33, message: "'! ' is read as a YAML tag, not as 'not'; quote the expression: \"! state.done\""),
        Case(name: "a tag on quoted empty text", yaml: header + "steps:\n  a: { next: b, title: !x '' }\n  b: { kind: finish }\n",
             line: 5, column: 24, message: "YAML tags ('!x') have no meaning in a flow file; remove the tag"),
        Case(name: "an anchor inside one of the same name", yaml: header + "steps:\n  a: &x { next: &x b }\n  b: { kind: finish }\n",
             line: 5, column: 17, message: "anchor '&x' is defined again (first at line 5, column 6)"),
        Case(name: "a merge key in a step", yaml: header + "steps:\n  base: &base { next: b }\n  a:\n    <<: *base\n  b: { kind: finish }\n",
             line: 7, column: 5, message: "YAML merge keys ('<<') are not part of the flow format"),
        Case(name: "a merge key among the steps", yaml: header + "steps:\n  a: { next: b }\n  b: { kind: finish }\n  <<: { c: { kind: finish } }\n",
             line: 7, column: 3, message: "YAML merge keys ('<<') are not part of the flow format"),
        Case(name: "a merge key in state", yaml: header + "state:\n  <<: { n: int }\nsteps:\n  a: { kind: finish }\n",
             line: 5, column: 3, message: "YAML merge keys ('<<') are not part of the flow format"),
        Case(name: "an anchor defined twice", yaml: header + "steps:\n  a: { next: &t b }\n  c: { next: &t d }\n  b: { next: *t }\n  d: { kind: finish }\n",
             line: 6, column: 14, message: "anchor '&t' is defined again (first at line 5, column 14)"),
        Case(name: "a YAML 1.1 directive", yaml: "%YAML 1.1\n---\n" + header + "steps:\n  a: { kind: finish }\n",
             line: 1, column: 1, message: "'%YAML 1.1' asks for another YAML than flowkit reads"),
        Case(name: "a tag directive", yaml: "%TAG !e! tag:example.com,2000:\n---\n" + header + "steps:\n  a: { kind: finish }\n",
             line: 1, column: 1, message: "'%TAG' directives have no meaning in a flow file"),
    ]

    /// Each is the file's one finding: the tag or key is reported, and nothing it changed is reported again.
    @Test(arguments: tagged)
    func isOneSyntaxFinding(_ c: Case) {
        let findings = Self.lint(c.yaml)
        #expect(findings.count == 1, "\(findings.map { "\($0.position) \($0.rule) \($0.message)" })")
        #expect(findings.first?.rule == .syntax)
        #expect(findings.first?.position == SourcePosition(line: c.line, column: c.column))
        #expect(findings.first?.message.hasPrefix(c.message) == true, "\(findings.first?.message ?? "")")
    }

    /// A flow with such a finding does not run: the library refuses it.
    @Test(arguments: tagged)
    func refusesToRun(_ c: Case) {
        #expect(throws: (any Error).self) { try CompiledFlow.checked(Array(c.yaml.utf8), name: "f.yaml") }
    }

    @Test func aQuotedMergeKeyAndADirectiveForYAML12AreOrdinary() {
        #expect(Self.lint("%YAML 1.2\n---\n" + Self.header + "steps:\n  a: { kind: finish }\n").isEmpty)
        let quoted = Self.lint(Self.header + "steps:\n  a:\n    \"<<\": { next: b }\n  b: { kind: finish }\n")
        #expect(quoted.map(\.rule) == [.schema])
        #expect(quoted.first?.message.hasPrefix("unknown key '<<' in step 'a'") == true)
    }

    // MARK: - Plain values in expression slots

    static let refused: [(text: String, message: String)] = [
        ("0o17", "YAML reads '0o17' as the number 15, which an expression writes as 15"),
        ("0x1F", "YAML reads '0x1F' as the number 31"),
        ("017", "YAML 1.2 reads '017' as 17, YAML 1.1 as an octal number"),
        (".5", "YAML reads '.5' as the number 0.5"),
        ("+5", "YAML reads '+5' as the number 5"),
        ("5.", "YAML reads '5.' as the number 5.0"),
        ("no", "'no' is text in YAML 1.2, which flowkit reads (YAML 1.1 reads it as false); write false"),
        ("On", "'On' is text in YAML 1.2, which flowkit reads (YAML 1.1 reads it as true); write true"),
        ("2026-01-01", "'2026-01-01' is a date in YAML 1.1 and text in YAML 1.2"),
        ("2026-1-1 10:00:00", "'2026-1-1 10:00:00' is a date in YAML 1.1"),
        ("1_000", "YAML 1.1 reads '1_000' as the number 1000, YAML 1.2 as text; write 1000"),
        ("0b101", "YAML 1.1 reads '0b101' as the number 5"),
        ("1:30", "YAML 1.1 reads '1:30' as the number 90"),
    ]

    /// Text that starts like a date but is no YAML 1.1 timestamp is read the same by both versions: an expression.
    @Test func arithmeticThatStartsLikeADateIsAnExpression() {
        let yaml = Self.header + "state: { v: int, x: int }\ninputs: [x]\nsteps:\n  a: { result: { n: int }, set: { v: 2024-1-1 - state.x }, next: b }\n  b: { kind: finish }\n"
        #expect(Self.lint(yaml).isEmpty, "\(Self.lint(yaml).map(\.message))")
    }

    @Test func plainValuesWhoseMeaningDependsOnTheReaderAreExpressionFindings() {
        for (text, message) in Self.refused {
            let yaml = Self.header + "state: { v: int? }\nsteps:\n  a: { result: { x: int }, set: { v: \(text) }, next: b }\n  b: { kind: finish }\n"
            let findings = Self.lint(yaml).filter { $0.rule == .expression }
            #expect(findings.count == 1, "\(text): \(findings.map(\.message))")
            #expect(findings.first?.position == SourcePosition(line: 6, column: 38), "\(text)")
            #expect(findings.first?.message.hasPrefix(message) == true, "\(text): \(findings.first?.message ?? "none")")
            // Quoted, the same text is an expression (or its parse error), never this finding.
            let quoted = Self.lint(Self.header + "state: { v: int? }\nsteps:\n  a: { result: { x: int }, set: { v: \"'\(text)'\" }, next: b }\n  b: { kind: finish }\n")
            #expect(!quoted.contains { $0.rule == .expression }, "\(text) quoted: \(quoted.map(\.message))")
        }
    }

    /// The property: a plain value in an expression slot that lint accepts means the same to YAML and to the
    /// expression language: the literal YAML made of it equals what the same text, parsed as an expression, gives.
    @Test func anAcceptedPlainValueMeansWhatItsTextSays() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["0", "1", "7", "9", "00", "12", "017", "0o", "0x", "1F", ".", "e", "E", "+", "-", "_", ":", "30",
                      "5", "2026", "01", "inf", "nan", "b", "true", "True", "null", "~", "no", "yes", "on"]
        var accepted = 0
        var refused = 0
        for _ in 0..<3_000 {
            let count = Int.random(in: 1...4, using: &generator)
            let text = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let yaml = Self.header + "state: { v: number? }\nsteps:\n  a: { result: { x: int }, set: { v: \(text) }, next: b }\n  b: { kind: finish }\n"
            let document = FlowLoader.load(bytes: Array(yaml.utf8), file: "f.yaml")
            guard document.diagnostics.isEmpty, let flow = document.flow,
                  let source = flow.steps.first(where: { $0.name.text == "a" })?.set.first?.expression else { continue }
            switch ExpressionParser.parse(source) {
            case .failure:
                refused += 1
            case .success(let expression):
                accepted += 1
                let scope = EvaluationScope(state: [:], stateTypes: [:])
                let asYAML = try? expression.evaluate(in: scope)
                // The same text, read by the expression language alone.
                // (A spelling the expression language has no reading of, such as `~` or `True`, means the same
                // to every YAML reader; only a different value would be a change of meaning.)
                guard let asExpression = try? ExpressionParser.parse(source.text).get().evaluate(in: scope) else { continue }
                #expect(asYAML == asExpression, "'\(text)': YAML gives \(String(describing: asYAML)), the expression \(String(describing: asExpression))")
            }
        }
        #expect(accepted > 100 && refused > 100, "accepted \(accepted), refused \(refused)")
    }
}
