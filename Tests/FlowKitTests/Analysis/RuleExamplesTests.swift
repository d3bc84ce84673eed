import Testing
@testable import FlowKit

/// One example of one rule, for the parameterised test.
struct RuleExample: CustomTestStringConvertible, Sendable {
    let rule: String
    let index: Int
    let triggers: Bool
    let text: String

    var testDescription: String { "\(rule) \(triggers ? "triggering" : "non-triggering") #\(index + 1)" }

    /// Every example of every rule.
    static let all: [RuleExample] = Linter.rules.flatMap { rule -> [RuleExample] in
        let d = rule.description
        return d.triggeringExamples.enumerated().map { RuleExample(rule: d.identifier, index: $0, triggers: true, text: $1) }
            + d.nonTriggeringExamples.enumerated().map { RuleExample(rule: d.identifier, index: $0, triggers: false, text: $1) }
    }
}

/// The example text without `↓` markers, and the position of each marker.
func stripMarkers(_ text: String) -> (text: String, positions: [SourcePosition]) {
    var output = ""
    var positions: [SourcePosition] = []
    var line = 1
    var column = 1
    for scalar in text.unicodeScalars {
        if scalar == "↓" {
            positions.append(SourcePosition(line: line, column: column))
            continue
        }
        output.unicodeScalars.append(scalar)
        if scalar == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }
    return (output, positions)
}

@Suite("Rule examples")
struct RuleExamplesTests {
    @Test(arguments: RuleExample.all)
    func example(_ example: RuleExample) {
        let (text, markers) = stripMarkers(example.text)
        let document = FlowLoader.load(bytes: Array(text.utf8), file: "example.yaml", format: .yaml)
        let findings = Linter.lint(document).filter { $0.rule == example.rule }
        if example.triggers {
            #expect(!markers.isEmpty, "a triggering example marks where its findings point with ↓")
            #expect(findings.map(\.position).sorted() == markers.sorted(), "findings: \(findings.map { "\($0.position) \($0.message)" })")
        } else {
            #expect(markers.isEmpty)
            #expect(findings.isEmpty, "unexpected findings: \(findings.map { "\($0.position) \($0.message)" })")
        }
    }

    @Test func everyRuleHasExamplesAndAUniqueIdentifier() {
        let identifiers = Linter.rules.map { $0.description.identifier }
        #expect(Set(identifiers).count == identifiers.count)
        for rule in Linter.rules {
            let d = rule.description
            #expect(!d.triggeringExamples.isEmpty, "\(d.identifier) has no triggering example")
            #expect(!d.nonTriggeringExamples.isEmpty, "\(d.identifier) has no non-triggering example")
            #expect(d.identifier.allSatisfy { $0.isLowercase || $0 == "_" }, "\(d.identifier) is not snake_case")
        }
    }

    @Test func nonTriggeringExamplesAreCleanUnderEveryRule() {
        for example in RuleExample.all where !example.triggers {
            let document = FlowLoader.load(bytes: Array(example.text.utf8), file: "example.yaml", format: .yaml)
            let errors = Linter.lint(document).filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(example.testDescription): \(errors.map { "\($0.rule) \($0.position) \($0.message)" })")
        }
    }
}
