import Foundation
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
        return d.triggeringExamples.enumerated().map { RuleExample(rule: d.identifier.rawValue, index: $0, triggers: true, text: $1) }
            + d.nonTriggeringExamples.enumerated().map { RuleExample(rule: d.identifier.rawValue, index: $0, triggers: false, text: $1) }
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

/// The JSON twin of a YAML example (keys in document order), or nil when the YAML does not parse (syntax examples).
func jsonTwin(_ yaml: String) -> String? {
    guard let root = YAMLReader.parse(Array(yaml.utf8), file: "example.yaml").root else { return nil }
    return root.jsonText
}

/// Lints an example the way `flowkit lint` would: written as `example.yaml` in a fresh folder beside `child.yaml`
/// (a nested flow that finishes with 'done' or 'cancelled'), with nested flows followed inside that folder.
func lintExample(_ text: String, name: String = "example.yaml") throws -> [Diagnostic] {
    let child = "flowkit: 1\nflow: child\nstart: a\nevents: { quit: }\nsteps:\n  a: { on: { quit: cancelled }, next: done }\n"
        + "  done: { kind: finish }\n  cancelled: { kind: finish }\n"
    return try lintFiles(["child.yaml": child, name: text], linting: name)
}

/// Lints `name` of `files` (name to text) the way `flowkit lint` would, written in a fresh folder with nested flows
/// followed inside it; the findings name their files by file name.
func lintFiles(_ files: [String: String], linting name: String) throws -> [Diagnostic] {
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("flowkit-example-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for (file, text) in files { try text.write(toFile: folder + "/" + file, atomically: true, encoding: .utf8) }
    let document = try FlowLoader.load(path: folder + "/" + name)
    return Linter.lint(document, workspace: LintWorkspace(roots: [folder])).map { finding in
        var relative = finding
        relative.file = (finding.file as NSString).lastPathComponent
        return relative
    }
}

@Suite("Rule examples")
struct RuleExamplesTests {
    @Test(arguments: RuleExample.all)
    func example(_ example: RuleExample) throws {
        let (text, markers) = stripMarkers(example.text)
        let findings = try lintExample(text).filter { $0.rule.rawValue == example.rule && $0.file == "example.yaml" }
        if example.triggers {
            #expect(!markers.isEmpty, "a triggering example marks where its findings point with ↓")
            #expect(findings.map(\.position).sorted() == markers.sorted(), "findings: \(findings.map { "\($0.position) \($0.message)" })")
        } else {
            #expect(markers.isEmpty)
            #expect(findings.isEmpty, "unexpected findings: \(findings.map { "\($0.position) \($0.message)" })")
        }
    }

    @Test(arguments: RuleExample.all)
    func exampleAsJSON(_ example: RuleExample) throws {
        let (text, _) = stripMarkers(example.text)
        guard example.rule != "syntax", example.rule != "duplicate_key", let json = jsonTwin(text) else { return }
        let yamlCount = try lintExample(text).filter { $0.rule.rawValue == example.rule && $0.file == "example.yaml" }.count
        let jsonCount = try lintExample(json.replacingOccurrences(of: "example.yaml", with: "example.json"), name: "example.json")
            .filter { $0.rule.rawValue == example.rule && $0.file == "example.json" }.count
        #expect(jsonCount == yamlCount, "the JSON twin gives \(jsonCount) findings, the YAML \(yamlCount)")
    }

    @Test func everyRuleHasExamplesAndAUniqueIdentifier() {
        let identifiers = Linter.rules.map { $0.description.identifier }
        #expect(Set(identifiers).count == identifiers.count)
        for rule in Linter.rules {
            let d = rule.description
            #expect(!d.triggeringExamples.isEmpty, "\(d.identifier) has no triggering example")
            #expect(!d.nonTriggeringExamples.isEmpty, "\(d.identifier) has no non-triggering example")
            #expect(d.identifier.rawValue.allSatisfy { $0.isLowercase || $0 == "_" }, "\(d.identifier) is not snake_case")
        }
    }

    @Test func nonTriggeringExamplesAreCleanUnderEveryRule() throws {
        for example in RuleExample.all where !example.triggers {
            let errors = try lintExample(example.text).filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(example.testDescription): \(errors.map { "\($0.rule) \($0.position) \($0.message)" })")
        }
    }
}
