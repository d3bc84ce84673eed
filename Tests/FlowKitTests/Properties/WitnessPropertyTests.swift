import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool
import FlowGen

/// Issue 31's property: on the soundness property's random bundles, every witness lint's search finds, run by
/// the engine, stops with a run error its finding foresees, at the finding's place (the soundness oracle's
/// `verdict`, not the search's own matching, judges it); and at least 90% of the findings of the rules that
/// foresee run errors get one. `maybe_null` findings about a key every path sets before the read (a guard the
/// spec asks for by design, as Swift's optionals do) cannot have one: they are counted apart.
@Suite("Witnesses: every run-error warning shown by a run")
struct WitnessPropertyTests {
    @Test func everyWitnessFailsAsItsFindingSaysAndMostFindingsHaveOne() throws {
        let environment = ProcessInfo.processInfo.environment
        let flowCount = environment["FLOWKIT_PROPERTY_FLOWS"].flatMap(Int.init) ?? 120
        let seed = environment["FLOWKIT_PROPERTY_SEED"].flatMap { UInt64($0) } ?? 0x5EED_F10E
        let root = try Soundness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var considered: [String: Int] = [:]
        var witnessed: [String: Int] = [:]
        var withFixture = 0
        var setOnEveryPath = 0
        var wrong: [String] = []
        var unwitnessed: [String] = []
        // The classes of the rest: in a step lint reports unreachable; in a step no run the search made reaches;
        // in a step runs reach; about no step; and the bounds that stopped the searches.
        var classes: [String: Int] = [:]
        let search = WitnessSearch(budget: 20_000, seconds: 10)
        for index in 0..<flowCount {
            let bundle = BlueprintGenerator.bundle(seed: Soundness.mix(seed, index))
            let directory = root + "/b\(index)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            guard case .ready(let prepared) = Soundness.prepare(bundle.files.map { ($0.name, $0.text) }, in: directory) else { continue }
            let findings = prepared.findings.filter { $0.file == prepared.mainFile && WitnessSearch.witnesses($0.rule) }
            guard !findings.isEmpty else { continue }
            let outcomes = search.search(findings, flow: prepared.walker.flow, resolver: prepared.walker.resolver)
            var runStates: [ScenarioGenerator.SearchNode]?
            for finding in findings {
                let rule = finding.rule.rawValue
                guard let outcome = outcomes[finding] else {
                    wrong.append("\(rule) at \(finding.position): no outcome")
                    continue
                }
                guard case .found(let witness) = outcome else {
                    if finding.rule == .maybeNull {
                        runStates = runStates ?? Self.runStates(prepared)
                    }
                    if finding.rule == .maybeNull, Self.isSetOnEveryPath(finding, in: runStates ?? []) {
                        setOnEveryPath += 1
                        continue
                    }
                    considered[rule, default: 0] += 1
                    if case .none(let why) = outcome {
                        let place: String
                        if prepared.findings.contains(where: { $0.rule == .unreachableStep && $0.file == finding.file && $0.step != nil && $0.step == finding.step }) {
                            place = "in a step lint reports unreachable"
                        } else if Self.isInASetThatNeverRuns(finding, flow: prepared.flows[prepared.mainFile]) {
                            place = "in a step's 'set' that never runs (set_without_result)"
                        } else {
                            switch why.stepReached {
                            case false? where why.stoppedBefore != nil:
                                place = "in a step no run the search made reaches, where the runs nearest it stop first with another run error"
                            case false?: place = "in a step no run the search made reaches"
                            case true? where !why.stoppedFirst.isEmpty: place = "in a step runs reach, where every move tried stops first with another run error"
                            case true?: place = "in a step runs reach"
                            case nil: place = "about no step"
                            }
                        }
                        classes[place, default: 0] += 1
                        if case .model = why.bound {} else { classes["searches stopped by a bound", default: 0] += 1 }
                        unwitnessed.append("[\(place)] \(rule) at \(finding.position) ('\(finding.step ?? "-")'): \(finding.message); \(why)\n\(bundle.listing)")
                    }
                    continue
                }
                considered[rule, default: 0] += 1
                // Run it as a script would, and judge the run error by the soundness oracle.
                guard let error = Self.run(witness, flow: prepared.walker.flow, resolver: prepared.walker.resolver) else {
                    wrong.append("\(rule) at \(finding.position): its witness does not fail\n\(bundle.listing)")
                    continue
                }
                let kind = Soundness.Kind.classify(error, prepared: prepared)
                let verdict = Soundness.verdict(error, kind: kind, findings: [finding], prepared: prepared).verdict
                guard verdict != .missed else {
                    wrong.append("\(rule) at \(finding.position) ('\(finding.step ?? "-")'): its witness fails with \(error.kind) at \(error.position.map { "\($0)" } ?? "no position") "
                                 + "('\(error.step ?? "-")'): \(error.message)\n\(bundle.listing)")
                    continue
                }
                witnessed[rule, default: 0] += 1
                if !witness.fixture.isEmpty { withFixture += 1 }
                // What lint writes of it reads back: the JSON, and the script scenario as the same moves and start.
                if let problem = Self.readsBack(witness) { wrong.append("\(rule) at \(finding.position): \(problem)\n\(bundle.listing)") }
            }
        }
        let total = considered.values.reduce(0, +)
        let shown = witnessed.values.reduce(0, +)
        let share = total == 0 ? 1 : Double(shown) / Double(total)
        print("witnesses: \(shown) of \(total) run-error findings witnessed (\(String(format: "%.1f", share * 100))%, \(withFixture) of them with a fixture) on \(flowCount) bundles; "
              + "maybe_null about a key set on every path, apart: \(setOnEveryPath); by rule: "
              + considered.keys.sorted().map { "\($0) \(witnessed[$0] ?? 0)/\(considered[$0]!)" }.joined(separator: ", "))
        print("  unwitnessed: " + classes.keys.sorted().map { "\($0) \(classes[$0]!)" }.joined(separator: ", "))
        for example in unwitnessed.prefix(environment["FLOWKIT_WITNESS_EXAMPLES"].flatMap(Int.init) ?? 0) { print(example) }
        #expect(wrong.isEmpty, Comment(rawValue: "\(wrong.count) witnesses fail otherwise than their findings say:\n" + wrong.prefix(3).joined(separator: "\n\n")))
        #expect(total > 100, "the bundles give too few run-error findings to judge")
        // Only where runs go: no rule that foresees a run error speaks about a step lint reports unreachable.
        #expect(classes["in a step lint reports unreachable"] == nil, Comment(rawValue: unwitnessed.filter { $0.hasPrefix("[in a step lint reports unreachable]") }.prefix(2).joined(separator: "\n\n")))
        // Issue 31 asks for at least 90% (the closing note gives the classes of the rest).
        #expect(share >= 0.90, Comment(rawValue: "\(shown) of \(total) witnessed; unwitnessed, e.g.:\n" + unwitnessed.prefix(3).joined(separator: "\n\n")))
    }

    /// Whether `finding` is inside an expression of the `set` of a step with no `result` (not a `flow` step): a
    /// `set` no run evaluates (`set_without_result`).
    static func isInASetThatNeverRuns(_ finding: Diagnostic, flow: Flow?) -> Bool {
        guard let flow, let step = finding.step.flatMap({ flow.step(named: $0) }), step.result == nil, step.kind != .flow else { return false }
        return step.set.contains { assignment in
            let source = assignment.expression
            return source.position.line == finding.position.line && finding.position.column >= source.position.column
                && finding.position.column <= source.position.column + source.text.unicodeScalars.count + 2
        } || step.set.contains { $0.key.position == finding.position }
    }

    /// The run states a search over runs of `prepared` (as the witness search's first) reaches.
    static func runStates(_ prepared: Soundness.Prepared) -> [ScenarioGenerator.SearchNode] {
        var generator = ScenarioGenerator(budget: 20_000)
        generator.broad = true
        let flow = prepared.walker.flow
        let literals = ScenarioGenerator.literals(in: flow, resolver: prepared.walker.resolver)
        let starts = ScenarioGenerator.starts(flow, resolver: prepared.walker.resolver, literals: literals)
        return generator.explore(flow: flow, resolver: prepared.walker.resolver, literals: literals, starts: starts, done: { false }) { _ in false }.nodes
    }

    /// Why what lint writes of `witness` does not read back as it (nil when it does): its JSON must parse, and its
    /// script scenario (`--witnesses`) must decode to the same start and moves.
    static func readsBack(_ witness: Witness) -> String? {
        guard (try? JSONSerialization.jsonObject(with: Data(Witnesses.json(witness).utf8))) is [String: Any] else {
            return "its JSON does not parse: \(Witnesses.json(witness))"
        }
        let script = Script(file: "", flow: "flow.yaml", flowPosition: nil, scenarios: [Witnesses.scenario(witness, name: "w")])
        let text = ScriptWriter.text(script)
        let document = FlowLoader.load(bytes: Array(text.utf8), file: "w.yaml", format: .yaml)
        guard let root = document.root, document.diagnostics.isEmpty, let decoded = ScriptDecoder.decode(root, file: "w.yaml").script?.scenarios.first else {
            return "its script does not read back:\n\(text)"
        }
        let moves = decoded.steps.map { ScenarioGenerator.Move(step: $0.step.text, event: $0.event?.text, result: $0.result) }
        let start: ScenarioGenerator.Start?
        switch decoded.start {
        case .state(let state): start = .state(state)
        case .entry(let name, let params, let state): start = .entry(name.text, params: params, state: state)
        case .url: start = nil
        }
        guard moves == witness.moves, start == witness.start else { return "its script reads back otherwise:\n\(text)" }
        return nil
    }

    /// The run error `witness` stops with, run by the engine (nil when it does not stop with one at its last move).
    static func run(_ witness: Witness, flow: CompiledFlow, resolver: FlowResolver?) -> RunError? {
        let start: RunStart
        switch witness.start {
        case .state(let state): start = .start(state: state)
        case .entry(let name, let params, let state): start = .entry(name, params: params, state: state)
        }
        var run: FlowRun
        do {
            run = try FlowRun(flow: flow, start: start, resolver: resolver)
        } catch {
            return witness.moves.isEmpty ? error : nil
        }
        for (index, move) in witness.moves.enumerated() {
            guard run.currentStep == move.step else { return nil }
            do {
                try run.complete(event: move.event, result: move.result)
            } catch {
                return index == witness.moves.count - 1 ? error : nil
            }
        }
        return nil
    }

    /// Whether the optional state key a `maybe_null` finding reads (its subject, `state.k`) holds a value in every
    /// run state at the finding's step that a search over runs (as the witness search's) reaches, at least one:
    /// every path there sets it, as far as runs show.
    static func isSetOnEveryPath(_ finding: Diagnostic, in runStates: [ScenarioGenerator.SearchNode]) -> Bool {
        guard let subject = finding.subject, subject.hasPrefix("state."), let step = finding.step else { return false }
        let key = String(subject.dropFirst("state.".count))
        let there = runStates.filter { $0.run.currentStep == step }
        return !there.isEmpty && there.allSatisfy { node in
            if case .some(let value) = node.run.state[key], value != .null { return true }
            return false
        }
    }
}
