import Foundation
import Testing
import FlowGen
@testable import FlowKit

/// `flowkit generate scenarios` (docs/format.md, "Generated scenarios").
@Suite("Generated scenarios")
struct ScenarioGeneratorTests {
    /// The generated script of `text` (named `file`), read back as a script and run, with the coverage of its runs.
    private func generateAndRun(_ flow: CompiledFlow, resolver: FlowResolver?, reference: String, budget: Int = 20_000)
        throws -> (generated: ScenarioGenerator.Generated, results: [ScenarioResult], coverage: Coverage) {
        let generated = ScenarioGenerator(budget: budget).generate(flow: flow, resolver: resolver)
        let text = GeneratedScript.text(generated, flowReference: reference, flowName: flow.flow.file)
        let document = FlowLoader.load(bytes: Array(text.utf8), file: "generated.yaml", format: .yaml)
        #expect(document.diagnostics.isEmpty, "\(document.diagnostics.map(\.message))\n\(text)")
        let root = try #require(document.root)
        let decoded = ScriptDecoder.decode(root, file: "generated.yaml")
        let script = try #require(decoded.script, "\(decoded.diagnostics.map(\.message))\n\(text)")
        #expect(script.scenarios.count == generated.scenarios.count)
        let results = ScriptRunner.run(script, flow: flow, resolver: resolver)
        var recorder = CoverageRecorder(flow: flow, resolver: resolver)
        for result in results { recorder.record(result) }
        return (generated, results, recorder.coverage)
    }

    @Test(arguments: ["transfer.yaml", "booking.json", "onboarding.yaml", "profile.yaml", "signup.yaml"])
    func everySampleFlowsScriptPassesAndCoversEveryTransition(_ name: String) throws {
        let path = packageRoot + "/flows/" + name
        let model = try #require(try FlowLoader.load(path: path).flow)
        let flow = try CompiledFlow(flow: model)
        let (generated, results, coverage) = try generateAndRun(flow, resolver: FileFlowResolver(root: packageRoot + "/flows"), reference: path)
        for result in results { #expect(result.passed, "\(result.name): \(result.error ?? "")") }
        #expect(generated.uncovered.isEmpty, "\(generated.uncovered)")
        for file in coverage.files {
            let (covered, total) = file.count(.transition)
            #expect(covered == total, "\(file.file): \(file.missed.map(\.description))")
        }
    }

    /// Property: for random flows with nested flows, the generated script reads back, every scenario passes, and
    /// every coverable transition is covered or named among those it could not cover.
    @Test func randomFlowsAreCoveredOrWhatIsMissingIsNamed() throws {
        var checked = 0
        for seed in UInt64(1)...60 {
            let bundle = BlueprintGenerator.bundle(seed: seed)
            // Flows with lint findings too: a scenario is kept only when its run passes, and whatever no run can
            // take must still be named.
            let document = FlowLoader.load(bytes: Array(bundle.main.text.utf8), file: bundle.main.name)
            guard let main = document.flow, let flow = try? CompiledFlow(flow: main) else { continue }
            var children: [String: CompiledFlow] = [:]
            for child in bundle.children {
                if let loaded = FlowLoader.load(bytes: Array(child.text.utf8), file: child.name).flow, let compiled = try? CompiledFlow(flow: loaded) {
                    children[child.name] = compiled
                }
            }
            let resolver = InMemoryResolver(children)
            // A small budget: the property (covered, or named with why) holds at any budget, and a debug build
            // searches slowly.
            let (generated, results, coverage) = try generateAndRun(flow, resolver: resolver, reference: bundle.main.name, budget: 2_000)
            for result in results { #expect(result.passed, "seed \(seed): \(result.name): \(result.error ?? "")") }
            for file in coverage.files {
                for item in file.missed where item.kind == .transition {
                    let place = "\(file.file):\(item.line):\(item.column): \(item.description):"
                    #expect(generated.uncovered.contains { $0.hasPrefix(place) }, "seed \(seed): \(place) neither covered nor named")
                }
                // And nothing it names as not covered was covered after all.
                for item in file.items where item.hits > 0 && item.kind == .transition {
                    let place = "\(file.file):\(item.line):\(item.column): \(item.description):"
                    #expect(!generated.uncovered.contains { $0.hasPrefix(place) }, "seed \(seed): \(place) covered, yet named as not")
                }
            }
            checked += 1
        }
        #expect(checked >= 40, "only \(checked) random flows compiled")
    }

    @Test func valuesComeFromTheFlowsExpressions() throws {
        let text = """
            flowkit: 1
            flow: t
            start: ask
            state: { level: string? }
            events: { big: "result.n > 99 && result.code == 'X7'" }
            steps:
              ask:
                result: { n: int, code: string }
                on: { big: done }
                next: done
              done: { kind: finish }
            """
        let model = try #require(FlowLoader.load(bytes: Array(text.utf8), file: "t.yaml", format: .yaml).flow)
        let flow = try CompiledFlow(flow: model)
        let literals = ScenarioGenerator.literals(in: flow, resolver: nil)
        #expect(literals.ints == [99] && literals.strings == ["X7"])
        // The literals first, then their neighbours, then round numbers; no "text" beside a string literal.
        let ints = ScenarioGenerator.candidates(TypeRef(base: .int, optional: false, position: .start), literals: literals)
        #expect(ints == [99, 98, 100, 0, 1, 10, 1_000].map { Value.int($0) })
        #expect(ScenarioGenerator.candidates(TypeRef(base: .string, optional: true, position: .start), literals: literals) == [.string("X7"), .null])
        let generated = ScenarioGenerator().generate(flow: flow, resolver: nil)
        #expect(generated.uncovered.isEmpty, "\(generated.uncovered)")
        // The guard needs two keys away from the plainest at once: the lockstep results give n=100 with code 'X7'.
        let scenario = generated.scenarios.first { $0.covers.contains { $0.contains("--on big-->") } }
        #expect(scenario?.moves.first?.result == ["n": .int(100), "code": .string("X7")])
    }

    /// Names that YAML reads as something else when plain (`yes`, `null`, `on`, `true`) are valid flowkit names:
    /// the script quotes them, and reads back to the same runs.
    @Test func namesYAMLWouldMisreadAreQuoted() throws {
        let text = """
            flowkit: 1
            flow: t
            start: "yes"
            events: { "on": null }
            steps:
              "yes":
                on: { "on": done }
                next: "null"
              "null":
                result: { "y": int }
                next: done
              done: { kind: finish, outcome: "true" }
            """
        let model = try #require(FlowLoader.load(bytes: Array(text.utf8), file: "t.yaml", format: .yaml).flow)
        let flow = try CompiledFlow(flow: model)
        let (generated, results, _) = try generateAndRun(flow, resolver: nil, reference: "t.yaml")
        #expect(generated.uncovered.isEmpty && results.count == 2 && results.allSatisfy(\.passed))
        let script = GeneratedScript.text(generated, flowReference: "t.yaml", flowName: "t.yaml")
        for line in ["- \"yes\": { event: \"on\" }", "- \"null\": { result: { \"y\": 0 } }", "outcome: \"true\"", "path: [\"yes\", \"null\", done]"] {
            #expect(script.contains(line), "\(line) in\n\(script)")
        }
    }
}
