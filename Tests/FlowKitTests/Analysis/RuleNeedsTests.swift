import Foundation
import Testing
import FlowGen
@testable import FlowKit

/// A rule declares what it needs (`Rule.needs`), and the linter provides it: run alone, through
/// `Linter.lint(_:rules:)`, every rule finds exactly what the whole lint finds with that rule, so that no caller
/// gets a silent, empty answer from a rule whose graphs were not built.
@Suite("Rule needs")
struct RuleNeedsTests {
    /// The documents: every rule example, every sample and broken flow, and random flows.
    private func documents() throws -> [LoadedDocument] {
        var documents: [LoadedDocument] = []
        for rule in Linter.rules {
            for example in rule.description.triggeringExamples + rule.description.nonTriggeringExamples {
                let text = example.replacingOccurrences(of: "↓", with: "")
                documents.append(FlowLoader.load(bytes: Array(text.utf8), file: "example.yaml", format: .yaml))
            }
        }
        for folder in ["flows", "flows/broken", "flows/nested", "flows/scripts"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/" + folder).sorted()
            where name.hasSuffix(".yaml") || name.hasSuffix(".json") {
                documents.append(try FlowLoader.load(path: packageRoot + "/" + folder + "/" + name))
            }
        }
        for seed in UInt64(1)...60 {
            let main = BlueprintGenerator.bundle(seed: seed).main
            documents.append(FlowLoader.load(bytes: Array(main.text.utf8), file: main.name))
        }
        return documents
    }

    @Test func everyRuleAloneFindsWhatTheWholeLintFinds() throws {
        var fired: Set<RuleID> = []
        for document in try documents() {
            let whole = Linter.lint(document)
            for rule in Linter.rules where !rule.needs.contains(.workspace) {
                let id = rule.description.identifier
                let alone = Linter.lint(document, rules: [rule]).filter { $0.rule == id }
                let expected = whole.filter { $0.rule == id }
                #expect(alone == expected, "\(id) alone on \(document.file): \(alone.map(\.message)) instead of \(expected.map(\.message))")
                if !expected.isEmpty { fired.insert(id) }
            }
        }
        // Every rule that can run without nested flows fired somewhere, so the comparison means something.
        let expected = Set(Linter.rules.filter { !$0.needs.contains(.workspace) }.map { $0.description.identifier })
        #expect(fired == expected, "never fired: \(expected.subtracting(fired).sorted())")
    }

    @Test func rulesThatNeedNestedFlowsDoNotRunWithoutThem() throws {
        let document = try FlowLoader.load(path: packageRoot + "/flows/broken/subflow_missing.yaml")
        #expect(Linter.lint(document, rules: [SubflowMissingRule.self]).isEmpty)
        let workspace = LintWorkspace(roots: [packageRoot + "/flows/broken"])
        #expect(!Linter.lint(document, workspace: workspace).filter { $0.rule == .subflowMissing }.isEmpty)
    }
}
