import Foundation
import Testing
@_exported import FlowGen
@_exported import TestSupport
@testable import FlowKit

/// Loads YAML text as a flow document.
func loadYAML(_ text: String) -> LoadedDocument {
    FlowLoader.load(bytes: Array(text.utf8), file: "t.yaml", format: .yaml)
}

/// A document with one schema problem and the finding it must give.
struct SchemaCase: CustomTestStringConvertible, Sendable {
    let name: String
    let yaml: String
    let line: Int
    let column: Int
    let message: String

    var testDescription: String { name }
}

@Suite("Flow decoder")
struct FlowDecoderTests {
    static let header = "flowkit: 1\nflow: t\nstart: a\n"

    static let cases: [SchemaCase] = [
        // The result mapping is level 1; the 33rd level, 32 `{ f: ` in, is one too deep.
        SchemaCase(name: "a result shape nested 33 levels", yaml: header + "steps:\n  a: { kind: action, result: " + String(repeating: "{ f: ", count: 33) + "int"
                       + String(repeating: " }", count: 33) + ", next: b }\n  b: { kind: finish }\n",
                   line: 5, column: 29 + 32 * 5 + 1, message: "a result shape may nest at most 32 levels; this one is nested deeper"),
        SchemaCase(name: "an input listed twice", yaml: header + "state: { country: string }\ninputs: [country, country]\nsteps:\n  a: { kind: finish }\n",
                   line: 5, column: 19, message: "input 'country' is listed twice"),
        SchemaCase(name: "inputs that are not a list", yaml: header + "state: { country: string }\ninputs: country\nsteps:\n  a: { kind: finish }\n",
                   line: 5, column: 9, message: "'inputs' must be a list of state keys, found a string"),
        SchemaCase(name: "unknown step key suggests the closest", yaml: header + "steps:\n  a:\n    nxt: b\n  b: { kind: finish }\n",
                   line: 6, column: 5, message: "unknown key 'nxt' in step 'a'; did you mean 'next'?"),
        SchemaCase(name: "unknown top-level key", yaml: header + "stae: {}\nsteps:\n  a: { kind: finish }\n",
                   line: 4, column: 1, message: "unknown key 'stae' in the flow; did you mean 'state'?"),
        SchemaCase(name: "unknown target key", yaml: header + "steps:\n  a: { next: { fowrard: b } }\n  b: { kind: finish }\n",
                   line: 5, column: 16, message: "unknown key 'fowrard' in a target; did you mean 'forward'?"),
        SchemaCase(name: "missing start", yaml: "flowkit: 1\nflow: t\nsteps:\n  a: { kind: finish }\n",
                   line: 1, column: 1, message: "the flow is missing the required key 'start'"),
        SchemaCase(name: "missing several keys", yaml: "flow: t\n",
                   line: 1, column: 1, message: "the flow is missing the required keys 'flowkit', 'start', 'steps'"),
        SchemaCase(name: "unsupported version", yaml: "flowkit: 2\nflow: t\nstart: a\nsteps:\n  a: { kind: finish }\n",
                   line: 1, column: 10, message: "unsupported format version 2; this flowkit reads version 1"),
        SchemaCase(name: "version as text", yaml: "flowkit: \"1\"\nflow: t\nstart: a\nsteps:\n  a: { kind: finish }\n",
                   line: 1, column: 10, message: "'flowkit' must be the format version 1, found a string"),
        SchemaCase(name: "step name with a space", yaml: header + "steps:\n  a: { kind: finish }\n  b c: { kind: finish }\n",
                   line: 6, column: 3, message: "'b c' is not a valid step name"),
        SchemaCase(name: "step name starting with a digit", yaml: header + "steps:\n  a: { kind: finish }\n  1st: { kind: finish }\n",
                   line: 6, column: 3, message: "'1st' is not a valid step name"),
        SchemaCase(name: "non-ASCII step name", yaml: header + "steps:\n  a: { kind: finish }\n  schritt_ä: { kind: finish }\n",
                   line: 6, column: 3, message: "'schritt_ä' is not a valid step name"),
        SchemaCase(name: "event name with a slash", yaml: header + "events:\n  a/b:\nsteps:\n  a: { kind: finish }\n",
                   line: 5, column: 3, message: "'a/b' is not a valid event name"),
        SchemaCase(name: "unknown kind", yaml: header + "steps:\n  a: { kind: finsh }\n",
                   line: 5, column: 14, message: "unknown step kind 'finsh'; did you mean 'finish'?"),
        SchemaCase(name: "outcome on a screen", yaml: header + "steps:\n  a: { outcome: done, next: b }\n  b: { kind: finish }\n",
                   line: 5, column: 8, message: "'outcome' only applies to finish steps"),
        SchemaCase(name: "flow step without a file", yaml: header + "steps:\n  a: { kind: flow, next: b }\n  b: { kind: finish }\n",
                   line: 5, column: 3, message: "step 'a' is a nested flow step but names no 'flow' file"),
        SchemaCase(name: "title on the star step", yaml: header + "steps:\n  \"*\": { title: x }\n  a: { kind: finish }\n",
                   line: 5, column: 10, message: "the '*' step only holds 'on' and 'next'"),
        SchemaCase(name: "two moves in one target", yaml: header + "steps:\n  a: { next: { forward: b, back: b } }\n  b: { kind: finish }\n",
                   line: 5, column: 28, message: "a target takes only one of 'forward', 'back' or 'restart'"),
        SchemaCase(name: "a target with no move", yaml: header + "steps:\n  a: { next: { if: \"true\" } }\n  b: { kind: finish }\n",
                   line: 5, column: 14, message: "a target needs one of 'forward', 'back' or 'restart'"),
        SchemaCase(name: "back false", yaml: header + "steps:\n  a: { next: { back: false } }\n",
                   line: 5, column: 22, message: "'back' takes a step name or true"),
        SchemaCase(name: "restart false", yaml: header + "steps:\n  a: { next: { restart: false } }\n",
                   line: 5, column: 25, message: "'restart' takes true"),
        SchemaCase(name: "empty target list", yaml: header + "steps:\n  a: { next: [] }\n",
                   line: 5, column: 14, message: "a target list must have at least one target"),
        SchemaCase(name: "unknown type suggests the closest", yaml: header + "state: { amount: integer }\nsteps:\n  a: { kind: finish }\n",
                   line: 4, column: 18, message: "unknown type 'integer'"),
        SchemaCase(name: "misspelt type", yaml: header + "state: { amount: strng }\nsteps:\n  a: { kind: finish }\n",
                   line: 4, column: 18, message: "unknown type 'strng'; did you mean 'string'?"),
        SchemaCase(name: "empty enum", yaml: header + "state: { tariff: [] }\nsteps:\n  a: { kind: finish }\n",
                   line: 4, column: 18, message: "an enum must list at least one value"),
        SchemaCase(name: "object in state", yaml: header + "state: { user: { name: string } }\nsteps:\n  a: { kind: finish }\n",
                   line: 4, column: 16, message: "a state type must be int, number, string, bool or a list of values"),
        SchemaCase(name: "steps is a list", yaml: header + "steps: [a]\n",
                   line: 4, column: 8, message: "'steps' must be a mapping, found a list"),
        SchemaCase(name: "root is a list", yaml: "- a\n",
                   line: 1, column: 1, message: "a flow file must be a mapping"),
        SchemaCase(name: "expression as a mapping", yaml: header + "steps:\n  a: { set: { x: { y: 1 } }, next: b }\n  b: { kind: finish }\n",
                   line: 5, column: 18, message: "the value of 'x' must be an expression"),
        SchemaCase(name: "entry without a path", yaml: header + "entries:\n  deep: { step: a }\nsteps:\n  a: { kind: finish }\n",
                   line: 5, column: 3, message: "entry 'deep' is missing 'path'"),
        SchemaCase(name: "a target list inside a target list", yaml: header + "steps:\n  a: { next: [[b]] }\n  b: { kind: finish }\n",
                   line: 5, column: 15, message: "a target list holds targets, not lists"),
    ]

    /// An input 'state' does not declare is a reference, which the JSON Schema cannot see: `undeclared_state`.
    @Test func anUndeclaredInputIsUndeclaredStateNotSchema() {
        let document = loadYAML(Self.header + "state: { country: string }\ninputs: [contry]\nsteps:\n  a: { kind: finish }\n")
        #expect(!document.diagnostics.contains { $0.rule == "schema" })
        let finding = document.diagnostics.first { $0.rule == "undeclared_state" }
        #expect(finding?.position == SourcePosition(line: 5, column: 10))
        #expect(finding?.message == "input 'contry' is not a declared state key; did you mean 'country'?")
        #expect(finding?.subject == "contry")
        #expect(document.isWellFormed && document.flow?.inputs.isEmpty == true)
    }

    @Test(arguments: cases)
    func schemaFinding(_ schemaCase: SchemaCase) {
        let document = loadYAML(schemaCase.yaml)
        let schema = document.diagnostics.filter { $0.rule == "schema" }
        #expect(schema.count == 1, "\(schema.map { "\($0.position) \($0.message)" })")
        #expect(schema.first?.position == SourcePosition(line: schemaCase.line, column: schemaCase.column), "\(schema.first?.message ?? "")")
        #expect(schema.first?.message.contains(schemaCase.message) == true, "\(schema.first?.message ?? "no finding")")
    }

    @Test func namesThatLookLikeOtherScalarsAreNames() throws {
        let document = loadYAML("flowkit: 1\nflow: t\nstart: no\nsteps:\n  no: { next: null }\n  null: { next: true }\n  true: { kind: finish }\n")
        #expect(document.diagnostics.isEmpty)
        let flow = try #require(document.flow)
        #expect(flow.steps.map(\.name.text) == ["no", "null", "true"])
        #expect(Linter.lint(document).isEmpty)
    }

    @Test func modelOfTheTransferFlow() throws {
        let document = try FlowLoader.load(path: packageRoot + "/flows/transfer.yaml")
        let flow = try #require(document.flow)
        #expect(flow.name.text == "transfer")
        #expect(flow.start.text == "amount")
        #expect(flow.events.map(\.name.text) == ["invalidAmount", "error", "confirmationContinue", "confirmationEditAmount", "confirmationEditTariff"])
        #expect(flow.events[0].expression?.text == "result.amount < 100")
        #expect(flow.events[1].expression == nil)
        #expect(flow.state.map(\.type.description) == ["string", "int", "[economy, business]", "string?"])
        #expect(flow.anyStep?.on.first?.event.text == "error")
        let confirmation = try #require(flow.step(named: "confirmation"))
        #expect(confirmation.on.map { "\($0.targets[0].move)" } == ["forward(success)", "back(amount)", "back(tariffs)"])
        #expect(flow.step(named: "alert")?.next?.first?.move == .backOne)
        #expect(flow.entries.first?.path == "/transfer/{amount}/tariffs")
    }

    @Test func schemaKeyIsAccepted() {
        let document = loadYAML("$schema: ./flow.schema.json\nflowkit: 1\nflow: t\nstart: a\nsteps:\n  a: { kind: finish }\n")
        #expect(document.diagnostics.isEmpty)
    }

    @Test func aMalformedStepBodyGivesOneFindingNotACascade() {
        let document = loadYAML("flowkit: 1\nflow: t\nstart: a\nsteps:\n  a: 5\n  b: { next: a }\n")
        #expect(Linter.lint(document).map(\.message) == ["step 'a' must be a mapping, found an integer"])
    }

    @Test func everyProblemInADocumentIsReported() {
        let document = loadYAML(Self.header + "steps:\n  a: { nxt: b, kind: finsh }\n  b c: {}\n")
        #expect(document.diagnostics.filter { $0.rule == "schema" }.count == 3)
    }
}


@Suite("Suppressions")
struct SuppressionTests {
    static let flow = """
        flowkit: 1
        flow: t
        start: a
        steps:
          a: { next: sink }
          sink:
            title: Error sink the host app dismisses
            lint: LINT
        """

    func findings(_ lint: String) -> [String] {
        let text = Self.flow.replacingOccurrences(of: "LINT", with: lint)
        return Linter.lint(loadYAML(text)).map { "\($0.rule) \($0.position) \($0.message)" }
    }

    @Test func aReasonedSuppressionSilencesTheRuleOnItsStep() {
        #expect(findings("{ allow: [dead_end], reason: \"the host app dismisses it\" }").isEmpty)
    }

    @Test func aSuppressionWithoutAReasonIsAFindingAndSilencesNothing() {
        let result = findings("{ allow: [dead_end] }")
        #expect(result.count == 2)
        #expect(result.contains { $0.hasPrefix("dead_end ") })
        #expect(result.contains { $0.hasPrefix("schema 8:5 the 'lint' of step 'sink' allows rules without a 'reason'") })
    }

    @Test func unknownAndUnsuppressibleRulesAreFindings() {
        let result = findings("{ allow: [dead_ends, schema, dead_end], reason: \"x\" }")
        #expect(result.contains { $0.contains("unknown rule 'dead_ends' in 'allow'; did you mean 'dead_end'?") })
        #expect(result.contains { $0.contains("rule 'schema' cannot be allowed on a step") })
        #expect(!result.contains { $0.hasPrefix("dead_end ") })
    }
}
