import FlowKit

/// The outcome of one scenario: whether it passed, why not, and the run it made.
package struct ScenarioResult: Sendable {
    /// The scenario's name.
    package let name: String
    /// Whether every step and expectation held.
    package let passed: Bool
    /// Why it failed, when it did: a run error, or every `expect` that does not hold, each with where it points in
    /// the script (or the flow).
    package let failures: [ScenarioFailure]
    /// Why it failed, when it did (the first failure).
    package var error: String? { failures.first?.message }
    /// Where in the script (or the flow) the first failure points.
    package var errorLocation: (file: String, position: SourcePosition)? {
        failures.first.flatMap { failure in failure.file.map { ($0, failure.position) } }
    }
    /// The steps shown.
    package let path: [String]
    /// The flow's outcome, when it finished.
    package let outcome: String?
    /// The final top-level state.
    package let state: [String: Value]
    /// Every completion.
    package let trace: [TraceEntry]
    /// The entry (deep link) the run began at, nil for a run from `start`.
    package var entry: String? = nil
}

/// One reason a scenario failed, and where it points.
package struct ScenarioFailure: Sendable, Equatable {
    /// What went wrong.
    package let message: String
    /// The file it points into: the script, or the flow for a run error; nil when it points nowhere (a run of
    /// `--events`).
    package let file: String?
    /// Where in that file.
    package let position: SourcePosition

    /// Creates a failure.
    package init(message: String, file: String?, position: SourcePosition) {
        self.message = message
        self.file = file
        self.position = position
    }
}

/// Runs a script's scenarios against a compiled flow.
package enum ScriptRunner {
    /// Runs every scenario of `script` (or only the one named `only`) against `flow`.
    package static func run(_ script: Script, flow: CompiledFlow, resolver: FlowResolver?, maxSteps: Int = 10_000, only: String? = nil) -> [ScenarioResult] {
        script.scenarios.filter { only == nil || $0.name == only }.map { run($0, script: script, flow: flow, resolver: resolver, maxSteps: maxSteps) }
    }

    /// Runs one scenario.
    package static func run(_ scenario: Scenario, script: Script, flow: CompiledFlow, resolver: FlowResolver?, maxSteps: Int) -> ScenarioResult {
        let start: RunStart
        switch scenario.start {
        case .state(let state): start = .start(state: state)
        case .entry(let entry, let params, let state): start = .entry(entry.text, params: params, state: state)
        case .url(let link, let state): start = .url(link.text, state: state)
        }
        var run: FlowRun
        do {
            run = try FlowRun(flow: flow, start: start, resolver: resolver, maxSteps: maxSteps)
        } catch {
            // The location is reported on its own: the message does not repeat it.
            return failure(scenario, nil, error.message, location(error, script: script, fallback: scenario.position))
        }
        for item in scenario.steps {
            guard let current = run.currentStep else {
                return failure(scenario, run, "the flow finished with outcome '\(run.outcome ?? "")' before the script's step '\(item.step.text)'",
                               (script.file, item.step.position))
            }
            guard current == item.step.text else {
                return failure(scenario, run, "expected the run at step '\(item.step.text)', but it is at '\(current)'", (script.file, item.step.position))
            }
            do {
                if item.back {
                    try run.goBack()
                } else {
                    try run.complete(event: item.event?.text, result: item.result)
                }
            } catch {
                return failure(scenario, run, error.message, location(error, script: script, fallback: item.step.position))
            }
        }
        if let current = run.currentStep {
            return failure(scenario, run, "the script ended at step '\(current)' before the flow finished", (script.file, scenario.position))
        }
        let mismatches = scenario.expect.map { check($0, run: run) } ?? []
        var result = ScenarioResult(name: scenario.name, passed: mismatches.isEmpty,
                                    failures: mismatches.map { ScenarioFailure(message: $0.message, file: script.file, position: $0.position) },
                                    path: run.path, outcome: run.outcome, state: run.state, trace: run.trace)
        result.entry = entryName(scenario, flow: flow.flow)
        return result
    }

    /// The entry a scenario starts at, named or matched by its link; nil for a start at `start`.
    private static func entryName(_ scenario: Scenario, flow: Flow) -> String? {
        switch scenario.start {
        case .state: return nil
        case .entry(let entry, _, _): return entry.text
        case .url(let link, _): return EntryPath.entry(matching: link.text, in: flow)?.name
        }
    }

    /// Runs the flow from `start`, making `moves` in order (`flowkit simulate --events`); the run passes when the
    /// moves finish the flow.
    package static func run(moves: [RunMove], start: RunStart = .start(state: [:]), flow: CompiledFlow, resolver: FlowResolver?,
                           maxSteps: Int = 10_000) -> ScenarioResult {
        let name = "moves " + moves.map(\.text).joined(separator: ",")
        var run: FlowRun
        do {
            run = try FlowRun(flow: flow, start: start, resolver: resolver, maxSteps: maxSteps)
        } catch {
            return ScenarioResult(name: name, passed: false, failures: [runFailure(error)], path: [], outcome: nil, state: [:], trace: [])
        }
        var failure: ScenarioFailure?
        for (index, move) in moves.enumerated() {
            guard !run.isFinished else {
                failure = ScenarioFailure(message: Message("the flow finished with outcome '\(name: run.outcome ?? "")' before move \(index + 1) ('\(name: move.text)')").text,
                                          file: nil, position: .start)
                break
            }
            do {
                try move.apply(to: &run)
            } catch {
                failure = runFailure(error, move: index + 1)
                break
            }
        }
        if failure == nil, let current = run.currentStep {
            failure = ScenarioFailure(message: "the moves ran out at step '\(current)' before the flow finished", file: nil, position: .start)
        }
        return ScenarioResult(name: name, passed: failure == nil, failures: failure.map { [$0] } ?? [],
                              path: run.path, outcome: run.outcome, state: run.state, trace: run.trace)
    }

    /// A run error as a failure that points into the flow when the error does.
    private static func runFailure(_ error: RunError, move: Int? = nil) -> ScenarioFailure {
        let prefix = move.map { "move \($0): " } ?? ""
        if let file = error.file, let position = error.position { return ScenarioFailure(message: prefix + error.message, file: file, position: position) }
        return ScenarioFailure(message: prefix + error.message, file: nil, position: .start)
    }

    private static func failure(_ scenario: Scenario, _ run: FlowRun?, _ message: String, _ location: (String, SourcePosition)) -> ScenarioResult {
        var result = ScenarioResult(name: scenario.name, passed: false, failures: [ScenarioFailure(message: message, file: location.0, position: location.1)],
                                    path: run?.path ?? [], outcome: run?.outcome, state: run?.state ?? [:], trace: run?.trace ?? [])
        if let run {
            result.entry = entryName(scenario, flow: run.frames[0].flow.flow)
        } else if case .entry(let entry, _, _) = scenario.start {
            result.entry = entry.text
        }
        return result
    }

    private static func location(_ error: RunError, script: Script, fallback: SourcePosition) -> (String, SourcePosition) {
        if let file = error.file, let position = error.position { return (file, position) }
        return (script.file, fallback)
    }

    /// Every expectation that does not hold (the outcome, the path at its first differing step, each state key, in
    /// that order), with where it was written.
    static func check(_ expect: Expectation, run: FlowRun) -> [(message: String, position: SourcePosition)] {
        var mismatches: [(message: String, position: SourcePosition)] = []
        if let outcome = expect.outcome, outcome.text != run.outcome {
            mismatches.append(("expected outcome '\(outcome.text)', but the flow finished with '\(run.outcome ?? "")'", outcome.position))
        }
        if let path = expect.path {
            let expected = path.map(\.text)
            if expected != run.path {
                let index = zip(expected, run.path).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(expected.count, run.path.count)
                let position = index < path.count ? path[index].position : (path.last?.position ?? .start)
                let wanted = index < expected.count ? "'\(expected[index])'" : "the end"
                let got = index < run.path.count ? "'\(run.path[index])'" : "the end"
                mismatches.append(("expected path [\(expected.joined(separator: ", "))], but it was [\(run.path.joined(separator: ", "))]: "
                                   + "step \(index + 1) should be \(wanted), not \(got)", position))
            }
        }
        for (key, value) in expect.state {
            let actual = run.state[key.text]
            if !matches(expected: value, actual: actual) {
                mismatches.append(("expected state.\(key.text) = \(value), but it is \(actual.map { "\($0)" } ?? "unset")", key.position))
            }
        }
        return mismatches
    }

    /// Whether an expected value matches: `null` matches unset; numbers compare numerically; objects by key.
    static func matches(expected: Value, actual: Value?) -> Bool {
        switch (expected, actual) {
        case (.null, nil), (.null, .null?): return true
        case (.int(let a), .number(let b)?): return Double(a) == b
        case (.number(let a), .int(let b)?): return a == Double(b)
        case (.object(let a), .object(let b)?):
            return a.count == b.count && a.allSatisfy { key, value in matches(expected: value, actual: b[key]) }
        default: return expected == actual
        }
    }
}
