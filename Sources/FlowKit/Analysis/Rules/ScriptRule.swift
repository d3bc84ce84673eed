import Foundation

/// `script`: a simulation script is malformed, or names a flow, steps, events, entries, outcomes or state keys
/// that its flow does not have.
enum ScriptRule: Rule {
    public static let description = RuleDescription(
        identifier: .script,
        name: "Script",
        summary: "A simulation script is malformed or names something its flow does not have.",
        rationale: """
            Scripts are checked like flows, so a renamed step breaks the scripts' lint in CI before it breaks a run. \
            The flow a script names (relative to the script) must exist and load; every step a scenario walks \
            through, every event it raises, its entry, the expected path and outcome, and the state keys it sets or \
            expects must be names the flow has. Steps inside nested flows are written 'parent/child'.
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit-script: 1
            scenarios:
              - name: typo
                ↓stepz: []
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit-script: 1
            scenarios:
              - name: fine
                steps:
                  - amount: { result: { amount: 50 } }
            """,
        ])

    /// Needs the document and its flow model only.
    static let needs: RuleNeeds = []

    public static func check(_ context: LintContext) -> [Diagnostic] {
        let document = context.document
        guard document.isScript, let root = document.root else { return [] }
        let decoded = ScriptDecoder.decode(root, file: document.file)
        guard let script = decoded.script, let reference = script.flow else { return decoded.diagnostics }
        var findings = decoded.diagnostics
        let directory = (document.file as NSString).deletingLastPathComponent
        let flowPath = directory.isEmpty ? reference : (directory as NSString).appendingPathComponent(reference)
        let position = script.flowPosition ?? .start
        let flowDocument: LoadedDocument
        do {
            flowDocument = try FlowLoader.load(path: flowPath)
        } catch {
            return findings + [context.finding(self, at: position, "the script's flow '\(reference)' cannot be read: \((error as? FlowKitError)?.problem ?? "\(error)")")]
        }
        guard let flow = flowDocument.flow, flowDocument.isWellFormed else {
            return findings + [context.finding(self, at: position, "the script's flow '\(reference)' does not load; lint it first")]
        }
        findings += names(in: script, against: flow, context: context)
        return findings
    }

    /// Findings for every name the script uses that the flow does not have.
    static func names(in script: Script, against flow: Flow, context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let steps = flow.steps.map(\.name.text)
        let stepSet = Set(steps)
        let nestedSteps = Set(flow.steps.filter { $0.kind == .flow }.map(\.name.text))
        let events = Set(flow.events.map(\.name.text))
        let outcomes = Set(flow.steps.filter { $0.kind == .finish }.map { $0.outcome?.text ?? $0.name.text })
        let stateKeys = flow.state.map(\.name.text)
        func checkStep(_ name: Name) {
            let top = name.text.split(separator: "/", maxSplits: 1).first.map(String.init) ?? name.text
            if name.text.contains("/") {
                if !nestedSteps.contains(top) {
                    findings.append(context.finding(self, at: name.position, "'\(top)' in '\(name.text)' is not a nested flow step of the flow"))
                }
            } else if !stepSet.contains(name.text) {
                findings.append(context.finding(self, at: name.position, "step '\(name.text)' is not in the flow\(Suggestions.didYouMean(name.text, in: steps))"))
            }
        }
        func checkState(_ key: Name) {
            if !stateKeys.contains(key.text) {
                findings.append(context.finding(self, at: key.position, "state key '\(key.text)' is not declared in the flow\(Suggestions.didYouMean(key.text, in: stateKeys))"))
            }
        }
        for scenario in script.scenarios {
            if case .entry(let entry, _, _) = scenario.start, !flow.entries.contains(where: { $0.name.text == entry.text }) {
                findings.append(context.finding(self, at: entry.position, "entry '\(entry.text)' is not in the flow\(Suggestions.didYouMean(entry.text, in: flow.entries.map(\.name.text)))"))
            }
            if case .url(let link, _) = scenario.start, EntryPath.entry(matching: link.text, in: flow) == nil {
                let hint = Suggestions.didYouMean(EntryPath.pathOnly(link.text), in: flow.entries.map(\.path))
                findings.append(context.finding(self, at: link.position, "no entry of the flow matches '\(Identifier.display(link.text))'\(hint)"))
            }
            if case .state(let state) = scenario.start {
                for input in flow.requiredInputs where state[input] == nil {
                    findings.append(context.finding(self, at: scenario.position,
                                                    "scenario '\(Identifier.display(scenario.name))' starts at 'start' without the input '\(input)', which the flow requires; give it in 'start: { state: … }'"))
                }
            }
            let derived = Set(flow.events.filter { $0.expression != nil }.map(\.name.text))
            for item in scenario.steps where !item.step.text.contains("/") && !item.back {
                if let event = item.event, derived.contains(event.text) {
                    findings.append(context.finding(self, at: event.position, "event '\(event.text)' is derived from its expression; a step cannot raise it"))
                }
                guard let step = flow.step(named: item.step.text), step.kind != .flow, step.kind != .finish else { continue }
                if step.result == nil && item.result != nil {
                    findings.append(context.finding(self, at: item.step.position, "step '\(item.step.text)' declares no 'result', so it cannot complete with one"))
                } else if step.result != nil && item.result == nil && item.event == nil {
                    findings.append(context.finding(self, at: item.step.position, "step '\(item.step.text)' declares a 'result': complete it with a 'result' or an 'event'"))
                }
            }
            for item in scenario.steps {
                checkStep(item.step)
                if let event = item.event, !item.step.text.contains("/"), !events.contains(event.text) {
                    findings.append(context.finding(self, at: event.position, "event '\(event.text)' is not declared in the flow\(Suggestions.didYouMean(event.text, in: events.sorted()))"))
                }
            }
            if let expect = scenario.expect {
                for name in expect.path ?? [] { checkStep(name) }
                if let outcome = expect.outcome, !outcomes.contains(outcome.text) {
                    findings.append(context.finding(self, at: outcome.position, "outcome '\(outcome.text)' is not an outcome of the flow\(Suggestions.didYouMean(outcome.text, in: outcomes.sorted()))"))
                }
                for (key, _) in expect.state { checkState(key) }
            }
        }
        return findings
    }
}
