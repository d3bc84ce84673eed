import Foundation
import Testing
import FlowGen
@testable import FlowKit
@testable import FlowKitTool

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
                    #expect(generated.uncovered.contains { $0.text.hasPrefix(place) }, "seed \(seed): \(place) neither covered nor named")
                }
                // And nothing it names as not covered was covered after all.
                for item in file.items where item.hits > 0 && item.kind == .transition {
                    let place = "\(file.file):\(item.line):\(item.column): \(item.description):"
                    #expect(!generated.uncovered.contains { $0.text.hasPrefix(place) }, "seed \(seed): \(place) covered, yet named as not")
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

    /// A literal after a unary minus is tried as the negative number it is (a binary minus leaves it as written).
    @Test func negativeLiteralsKeepTheirSign() throws {
        let text = """
            flowkit: 1
            flow: t
            start: ask
            steps:
              ask:
                result: { n: int, x: number }
                next:
                  - { forward: done, if: "result.n > -3 && result.x < (-2.5) && result.n - 7 > 0" }
                  - done
              done: { kind: finish }
            """
        let model = try #require(FlowLoader.load(bytes: Array(text.utf8), file: "t.yaml", format: .yaml).flow)
        let literals = ScenarioGenerator.literals(in: try CompiledFlow(flow: model), resolver: nil)
        #expect(literals.ints == [-3, 3, 7, 0] && literals.numbers == [-2.5, 2.5], "\(literals.ints) \(literals.numbers)")
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

/// Issue 29: the search covers what only the host can give, blames the first thing that failed, and is bounded
/// by the state text it holds.
@Suite("Generated scenarios: the host's side and bounds")
struct ScenarioGeneratorHostTests {
    private func generate(_ path: String) throws -> (ScenarioGenerator.Generated, CompiledFlow) {
        let flow = try CompiledFlow(flow: try #require(try FlowLoader.load(path: path).flow))
        let resolver = FileFlowResolver(root: (path as NSString).deletingLastPathComponent)
        return (ScenarioGenerator().generate(flow: flow, resolver: resolver), flow)
    }

    /// The loan example: `preApproved` is an optional key nothing sets, so only the host gives it; the option that
    /// reads it is covered by a start that gives it, and every transition is covered.
    @Test func hostSideSearchCoversWhatOnlyTheHostCanGive() throws {
        let (generated, flow) = try generate(packageRoot + "/docs/examples/loan/loan.yaml")
        #expect(ScenarioGenerator.hostKeys(flow.flow).map(\.name.text) == ["customerId", "segment", "preApproved"])
        #expect(generated.uncovered.isEmpty, "\(generated.uncovered)")
        let preApproved = generated.scenarios.first { scenario in
            switch scenario.start {
            case .state(let state), .entry(_, _, let state): return state["preApproved"] == .bool(true)
            }
        }
        #expect(preApproved?.covers.contains { $0.contains("decision --next [0]--> offer") } == true)
        // Values read like data: the flow's literals first (1,000 for an amount, not 0), and no "text".
        let literals = ScenarioGenerator.literals(in: flow, resolver: FileFlowResolver(root: packageRoot + "/docs/examples/loan"))
        #expect(ScenarioGenerator.candidates(TypeRef(base: .int, optional: false, position: .start), literals: literals).first == .int(1_000))
        let amounts = generated.scenarios.flatMap(\.moves).compactMap { $0.result?["amount"] }
        #expect(!amounts.isEmpty && amounts.allSatisfy { [999, 1_000, 1_001, 49_999, 50_000, 50_001].map(Value.int).contains($0) }, "\(amounts)")
        let written = GeneratedScript.text(generated, flowReference: "loan.yaml", flowName: "loan")
        #expect(!written.contains("\"text\""))
    }

    /// The checkout example: nested entries are starts too, with their parameters.
    @Test func nestedEntriesAreStarts() throws {
        let (_, flow) = try generate(packageRoot + "/docs/examples/checkout/checkout.yaml")
        let literals = ScenarioGenerator.literals(in: flow, resolver: FileFlowResolver(root: packageRoot + "/docs/examples/checkout"))
        let starts = ScenarioGenerator.starts(flow, resolver: FileFlowResolver(root: packageRoot + "/docs/examples/checkout"), literals: literals)
        #expect(starts.contains { if case .entry("magicLink", let params, _) = $0.0 { return params["token"] != nil } else { return false } })
        // Host keys varied: a start with the customer known, one with the staff voucher.
        #expect(starts.contains { if case .state(let state) = $0.0 { return state["customerId"] != nil } else { return false } })
        #expect(starts.contains { if case .state(let state) = $0.0 { return state["voucher"] == .string("STAFF") } else { return false } })
    }

    /// An option whose condition no host state makes hold is blamed with the host key it reads, and a step only it
    /// leads to is blamed on it, not reported as merely unreached.
    @Test func whatFailsFirstIsBlamed() throws {
        let text = """
            flowkit: 1
            flow: b
            start: ask
            state: { flag: bool? }
            steps:
              ask:
                next:
                  - { forward: special, if: "state.flag == true && state.flag == false" }
                  - done
              special: { next: later }
              later: { next: done }
              done: { kind: finish }
            """
        let flow = try CompiledFlow(flow: try #require(FlowLoader.load(bytes: Array(text.utf8), file: "b.yaml", format: .yaml).flow))
        let generated = ScenarioGenerator().generate(flow: flow, resolver: nil)
        let option = "option 'ask --next [0]--> special' (if state.flag == true && state.flag == false)"
        #expect(generated.uncovered.contains { $0.text.hasSuffix("\(option) is never taken at step 'ask', which runs reach: it reads state 'flag', which only the host can give, and no host state tried makes it hold") },
                "\(generated.uncovered)")
        #expect(generated.uncovered.contains { $0.text.contains("later --next--> done: no run reaches step 'later': \(option) is never taken at step 'ask'") },
                "\(generated.uncovered)")
    }

    /// A nested flow no run enters is blamed on what keeps runs from the `flow` step that runs it.
    @Test func aNestedFlowNoRunEntersIsBlamedOnItsParent() throws {
        let folder = NSTemporaryDirectory() + "flowkit-blame-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["checkout.yaml", "sign-in.yaml", "three-d-secure.yaml"] {
            var text = try String(contentsOfFile: packageRoot + "/docs/examples/checkout/" + name, encoding: .utf8)
            text = text.replacingOccurrences(of: "(!exists(state.total) || state.total > 250)", with: "state.voucher == 'NO' && state.voucher != 'NO'")
            try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        }
        let (generated, _) = try generate(folder + "/checkout.yaml")
        let challenge = try #require(generated.uncovered.first { $0.text.contains("three-d-secure.yaml:17:9: challenge --next [0]--> authenticated") })
        #expect(challenge.text.hasSuffix("no run reaches step 'challenge': no run reaches step 'secure' of \(CoverageRecorder.display(folder + "/checkout.yaml")), which runs it: "
                                    + "option 'payment --next [0]--> secure' (if result.method == 'card' && state.voucher == 'NO' && state.voucher != 'NO') is never taken at step 'payment', "
                                    + "which runs reach: it reads state 'voucher', which only the host can give, and no host state tried makes it hold"), "\(challenge)")
    }

    /// A run inside a nested flow is at its `flow` step too: an outcome handler no run takes says the step is
    /// reached, not that no run reaches it.
    @Test func aFlowStepARunIsInsideIsReached() throws {
        let folder = NSTemporaryDirectory() + "flowkit-reached-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "flowkit: 1\nflow: p\nstart: a\nevents: { ok: , bad: }\nsteps:\n  a: { next: sub }\n  sub: { kind: flow, flow: child.yaml, on: { ok: done, bad: done } }\n  done: { kind: finish }\n"
            .write(toFile: folder + "/p.yaml", atomically: true, encoding: .utf8)
        try "flowkit: 1\nflow: c\nstart: x\nsteps:\n  x:\n    result: { v: int }\n    next: [{ forward: bad, if: \"result.v == 3 && result.v == 4\" }, ok]\n  ok: { kind: finish }\n  bad: { kind: finish }\n"
            .write(toFile: folder + "/child.yaml", atomically: true, encoding: .utf8)
        let (generated, _) = try generate(folder + "/p.yaml")
        let bad = try #require(generated.uncovered.first { $0.text.contains("sub --on bad--> done") })
        #expect(bad.text.hasSuffix("step 'sub' is reached, but no completion tried takes this option (results are made of the values the flow's expressions compare with)"), "\(bad)")
    }

    /// States that each hold a text of a megabyte: the search stops at 256 MB of held state text and says so,
    /// still covering what it reached (its time and memory are measured in bench/, not asserted here).
    @Test func theSearchIsBoundedByTheStateTextItHolds() throws {
        let seed = String(repeating: "a", count: 4_000)
        let text = """
            flowkit: 1
            flow: big
            start: load
            state: { doc: string, rounds: int, n: int }
            events: { done: }
            steps:
              load:
                kind: action
                next:
                  - { forward: grow, set: { doc: "'\(seed)'", rounds: "0" } }
              grow:
                kind: action
                next:
                  - { forward: edit, if: "state.rounds == 8" }
                  - { forward: grow, set: { doc: "state.doc + state.doc", rounds: "state.rounds + 1" } }
              edit:
                result: { n: int }
                set: { doc: "state.doc + 'x'", n: result.n }
                on: { done: finish }
                next:
                  - { forward: finish, if: "result.n == 7" }
                  - { forward: finish, if: "result.n * 2 == 15" }
                  - edit
              finish: { kind: finish }
            """
        let flow = try CompiledFlow(flow: try #require(FlowLoader.load(bytes: Array(text.utf8), file: "big.yaml", format: .yaml).flow))
        let generated = ScenarioGenerator().generate(flow: flow, resolver: nil)
        let cut = try #require(generated.cut)
        #expect(cut.hasPrefix("the search stopped at ") && cut.hasSuffix(" run states: they held more than 256 MB of state text"))
        #expect(generated.statesVisited < 1_000)
        #expect(generated.scenarios.reduce(0) { $0 + $1.covers.count } == 6)
        #expect(generated.uncovered.count == 1 && generated.uncovered[0].text.contains("edit --next [1]--> finish"))
        #expect(GeneratedScript.text(generated, flowReference: "big.yaml", flowName: "big").contains("# \(cut).\n"))
    }
}
