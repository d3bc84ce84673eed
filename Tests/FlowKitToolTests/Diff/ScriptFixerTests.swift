import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool

/// `flowkit diff --fix-scripts` (docs/format.md, "Scripts follow renames"): names rewritten in place, the rest of the
/// text byte for byte, only sure renames, and the rewritten script passes where the old one did.
@Suite("Scripts follow renames")
struct ScriptFixerTests {
    static let old = """
        flowkit: 1
        flow: t
        start: ask
        events:
          go:
        steps:
          ask:
            title: Ask
            on: { go: pay }
          pay:
            title: Pay
            kind: flow
            flow: child.yaml
            on: { paid: done }
          done: { kind: finish, outcome: finished }
        """

    static let new = old.replacingOccurrences(of: "  ask:\n", with: "  question:\n").replacingOccurrences(of: "start: ask", with: "start: question")
        .replacingOccurrences(of: "  go:\n", with: "  proceed:\n").replacingOccurrences(of: "on: { go: pay }", with: "on: { proceed: pay }")
        .replacingOccurrences(of: "  pay:\n", with: "  yes:\n").replacingOccurrences(of: "proceed: pay", with: "proceed: \"yes\"")
        .replacingOccurrences(of: "outcome: finished", with: "outcome: completed")

    static let script = """
        # A comment that stays.
        flowkit-script: 1
        flow: t.yaml
        scenarios:
          - name: all of it   # and this one
            steps:
              - ask: { event: go }       # plain
              - "pay/card": { event: go } # quoted, nested; 'go' here is the child's outcome
              - 'pay': { event: paid }
            expect:
              outcome: finished
              path: [ask, "pay/card", done]

        """

    static func flows() throws -> (old: Flow, new: Flow) {
        (try FlowDiffTests.flow(Self.old, file: "old.yaml"), try FlowDiffTests.flow(Self.new, file: "t.yaml"))
    }

    @Test func namesAreRewrittenInPlaceAndNothingElse() throws {
        let (old, new) = try Self.flows()
        let renames = FlowRenames.find(old: old, new: new)
        #expect(renames.steps.map { "\($0.old.text)→\($0.new.text) \($0.confidence)" } == ["ask→question 100", "pay→yes 100"])
        #expect(renames.events.map(\.new.text) == ["proceed"] && renames.outcomes.map(\.new.text) == ["completed"])
        let fixed = try #require(try ScriptFixer.fix(Array(Self.script.utf8), file: "s.yaml", flow: new, renames: renames))
        #expect(String(decoding: fixed.bytes, as: UTF8.self) == """
            # A comment that stays.
            flowkit-script: 1
            flow: t.yaml
            scenarios:
              - name: all of it   # and this one
                steps:
                  - question: { event: proceed }       # plain
                  - "yes/card": { event: go } # quoted, nested; 'go' here is the child's outcome
                  - 'yes': { event: paid }
                expect:
                  outcome: completed
                  path: [question, "yes/card", done]

            """)
        #expect(fixed.edits.map(\.kind) == ["step", "event", "step", "step", "outcome", "step", "step"])
        #expect(fixed.edits.first == ScriptFixer.Edit(line: 7, column: 9, old: "ask", new: "question", kind: "step"))
    }

    @Test func aPlainNameThatYAMLWouldMisreadIsQuoted() throws {
        let (old, new) = try Self.flows()
        let script = "flowkit-script: 1\nflow: t.yaml\nscenarios:\n  - name: a\n    steps:\n      - ask: { event: go }\n      - pay: {}\n"
        let fixed = try #require(try ScriptFixer.fix(Array(script.utf8), file: "s.yaml", flow: new, renames: FlowRenames.find(old: old, new: new)))
        #expect(String(decoding: fixed.bytes, as: UTF8.self).hasSuffix("      - question: { event: proceed }\n      - \"yes\": {}\n"))
    }

    @Test func aJSONScriptKeepsItsQuotes() throws {
        let (old, new) = try Self.flows()
        let script = "{\"flowkit-script\": 1, \"flow\": \"t.yaml\", \"scenarios\": [{\"name\": \"a\", \"steps\": [{\"ask\": {\"event\": \"go\"}}], \"expect\": {\"path\": [\"ask\"]}}]}\n"
        let fixed = try #require(try ScriptFixer.fix(Array(script.utf8), file: "s.json", flow: new, renames: FlowRenames.find(old: old, new: new)))
        #expect(String(decoding: fixed.bytes, as: UTF8.self)
                == "{\"flowkit-script\": 1, \"flow\": \"t.yaml\", \"scenarios\": [{\"name\": \"a\", \"steps\": [{\"question\": {\"event\": \"proceed\"}}], \"expect\": {\"path\": [\"question\"]}}]}\n")
    }

    @Test func lessSureRenamesAndScriptsWithoutRenamedNamesAreLeftAlone() throws {
        let (old, _) = try Self.flows()
        // 'ask' renamed with another title: a rename, but not a sure one.
        let unsure = try FlowDiffTests.flow(Self.old.replacingOccurrences(of: "  ask:\n    title: Ask", with: "  question:\n    title: Question")
            .replacingOccurrences(of: "start: ask", with: "start: question"), file: "t.yaml")
        let renames = FlowRenames.find(old: old, new: unsure)
        #expect(renames.steps.map(\.confidence) == [66])
        #expect(try ScriptFixer.fix(Array(Self.script.utf8), file: "s.yaml", flow: unsure, renames: renames) == nil)
        let (_, new) = try Self.flows()
        let other = "flowkit-script: 1\nflow: t.yaml\nscenarios:\n  - name: a\n    steps:\n      - done: {}\n"
        #expect(try ScriptFixer.fix(Array(other.utf8), file: "s.yaml", flow: new, renames: FlowRenames.find(old: old, new: new)) == nil)
    }

    @Test func aNameWrittenWithEscapesLeavesTheScriptAsItWas() throws {
        let (old, new) = try Self.flows()
        let script = "flowkit-script: 1\nflow: t.yaml\nscenarios:\n  - name: a\n    steps:\n      - \"\\u0061sk\": {}\n"
        #expect(throws: FlowDiff.Problem.self) {
            try ScriptFixer.fix(Array(script.utf8), file: "s.yaml", flow: new, renames: FlowRenames.find(old: old, new: new))
        }
    }

    /// Property: for each sample flow and each step, renaming that step (everywhere the flow names it) and fixing
    /// the flow's scripts gives scripts whose runs pass exactly where the old scripts' runs passed.
    @Test func fixedScriptsPassWhereTheOldOnesDid() throws {
        let pairs = [("transfer.yaml", "scripts/transfer.yaml"), ("profile.yaml", "scripts/profile.yaml"), ("onboarding.yaml", "scripts/onboarding.yaml")]
        var checked = 0
        for (flowName, scriptName) in pairs {
            let flowPath = packageRoot + "/flows/" + flowName
            let scriptPath = packageRoot + "/flows/" + scriptName
            guard FileManager.default.fileExists(atPath: scriptPath) else { continue }
            let old = try FlowDiff.load(path: flowPath)
            let text = try String(contentsOfFile: flowPath, encoding: .utf8)
            for step in old.steps {
                let name = step.name.text
                let renamed = "renamed_" + name
                // Every place the flow names the step: its key, start, entries, and moves.
                var lines = text.components(separatedBy: "\n")
                var inSteps = false
                for (index, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
                    var changed = line
                    if line.hasPrefix("steps:") { inSteps = true }
                    let patterns = inSteps ? ["  \(name):", "next: \(name)", "back: \(name)", "forward: \(name)", ": \(name)", "- \(name)"] : ["start: \(name)", "step: \(name)"]
                    for pattern in patterns {
                        if changed.hasSuffix(pattern) || changed.contains(pattern + " ") || changed.contains(pattern + ",") || changed.contains(pattern + " }")
                            || changed.contains(pattern + "}") || changed.hasSuffix(pattern + ":") {
                            changed = changed.replacingOccurrences(of: pattern, with: pattern.replacingOccurrences(of: name, with: renamed))
                        }
                    }
                    lines[index] = changed
                }
                let document = FlowLoader.load(bytes: Array(lines.joined(separator: "\n").utf8), file: flowPath, format: .yaml)
                guard let new = document.flow, document.diagnostics.allSatisfy({ $0.severity != .error }),
                      new.steps.contains(where: { $0.name.text == renamed }) else { continue }
                let renames = FlowRenames.find(old: old, new: new)
                guard renames.steps.map(\.new.text) == [renamed], renames.steps.first?.confidence == 100 else { continue }
                guard let fixed = try ScriptFixer.fix(Array(try Data(contentsOf: URL(fileURLWithPath: scriptPath))), file: scriptPath, flow: new, renames: renames) else { continue }
                let resolver = FileFlowResolver(root: packageRoot + "/flows")
                let oldScript = try #require(ScriptFixer.decode(Array(try Data(contentsOf: URL(fileURLWithPath: scriptPath))), file: scriptPath))
                let before = ScriptRunner.run(oldScript, flow: try CompiledFlow(flow: old), resolver: resolver)
                let after = ScriptRunner.run(try #require(ScriptFixer.decode(fixed.bytes, file: scriptPath)), flow: try CompiledFlow(flow: new), resolver: resolver)
                #expect(before.contains { $0.passed })
                #expect(before.map(\.passed) == after.map(\.passed), "\(flowName) with '\(name)' renamed: \(after.compactMap(\.error).prefix(2))")
                checked += 1
            }
        }
        #expect(checked >= 5, "\(checked) renames checked")
    }
}
