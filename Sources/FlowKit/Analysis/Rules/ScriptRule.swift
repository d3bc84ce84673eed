import Foundation

/// `script`: a simulation script is malformed, or names a flow, steps, events, entries, outcomes or state keys
/// that its flow does not have.
enum ScriptRule: Rule {
    package static let description = RuleDescription(
        identifier: .script,
        name: "Script",
        summary: "A simulation script is malformed, names something its flow does not have, or gives values the engine would refuse.",
        rationale: """
            Scripts are checked like flows, so a renamed step breaks the scripts' lint in CI before it breaks a run. \
            The flow a script names (relative to the script) must exist and load; every step a scenario walks \
            through, every event it raises, its entry, the expected path and outcome, and the state keys it sets or \
            expects must be names the flow has, level by level for steps inside nested flows ('parent/child'). \
            Whatever the engine would refuse before a run is found here too: a result that does not fit the step's \
            declared shape (an unknown key, a missing one, an enum value that does not exist, text for an int), a \
            result where none is declared, a start state that does not fit the flow's state, an entry's path \
            parameters. (In the examples, 'child.yaml' is a flow whose step 'a' declares no result and handles \
            'quit'.)
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit-script: 1
            scenarios:
              - name: typo
                ↓stepz: []
            """,
            """
            flowkit-script: 1
            flow: child.yaml
            scenarios:
              - name: wrong completions
                steps:
                  - a: { event: ↓quti }
                  - ↓a: { result: { x: 1 } }
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
            """
            flowkit-script: 1
            flow: child.yaml
            scenarios:
              - name: quits
                steps:
                  - a: { event: quit }
                expect: { outcome: cancelled }
            """,
        ])

    /// Needs the document and its flow model only.
    static let needs: RuleNeeds = []

    package static func check(_ context: LintContext) -> [Diagnostic] {
        let document = context.document
        guard document.isScript, let root = document.root else { return [] }
        let decoded = ScriptDecoder.decode(root, file: document.file)
        guard let script = decoded.script, let reference = script.flow else { return decoded.diagnostics }
        var findings = decoded.diagnostics
        let directory = FilePath.directory(of: document.file)
        let flowPath = directory.isEmpty ? reference : (directory as NSString).appendingPathComponent(reference)
        let position = script.flowPosition ?? .start
        let flowDocument: LoadedDocument
        do {
            flowDocument = try context.workspace?.load(path: flowPath) ?? FlowLoader.load(path: flowPath)
        } catch {
            return findings + [context.finding(self, at: position, "the script's flow '\(path: reference)' cannot be read: \(verbatim: (error as? FlowKitError)?.problem ?? "\(error)")")]
        }
        guard let flow = flowDocument.flow, flowDocument.isWellFormed else {
            return findings + [context.finding(self, at: position, "the script's flow '\(path: reference)' does not load; lint it first")]
        }
        findings += names(in: script, against: flow, context: context)
        return findings
    }

    /// Findings for every name the script uses that the flow (or a nested flow, for qualified names) does not
    /// have, and for every completion the engine would refuse before any run: an event a step cannot raise, a
    /// result where none is declared or none where one is, and a result that does not fit the declared shape.
    static func names(in script: Script, against flow: Flow, context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let stateKeys = flow.state.map(\.name.text)
        let outcomes = Set(flow.steps.filter { $0.kind == .finish }.map { $0.outcome?.text ?? $0.name.text })
        // The nested flows a qualified name goes through, loaded once each (relative to the flow that names them,
        // never outside the top flow's folder, as a run reads them).
        let root = FilePath.directory(of: flow.file)
        var nested: [String: Flow?] = [:]
        func child(of step: Step, in parent: Flow) -> Flow? {
            guard let reference = step.flowPath else { return nil }
            guard let file = try? FileFlowResolver.locate(reference, from: parent.file, root: root.isEmpty ? "." : root) else { return nil }
            if let known = nested[file] { return known }
            let document = try? context.workspace?.load(path: file) ?? FlowLoader.load(path: file)
            let loaded = document.flatMap { $0.isWellFormed ? $0.flow : nil }
            nested[file] = .some(loaded)
            return loaded
        }
        /// The flow and step a (possibly qualified) step name means, or nil after reporting why not (nil without a
        /// finding when a nested flow cannot be loaded: the flow's own lint reports that).
        func resolve(_ name: Name) -> (flow: Flow, step: Step)? {
            let parts = name.text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            var current = flow
            var prefix: [String] = []
            for (index, part) in parts.enumerated() {
                let names = current.steps.map(\.name.text)
                let place: Message = prefix.isEmpty ? "the flow" : "the nested flow of '\(path: prefix.joined(separator: "/"))'"
                guard let step = current.step(named: part) else {
                    let problem: Message = parts.count > 1 ? "'\(name: part)' in '\(name: name.text)' is not a step of \(place)"
                        : "step '\(name: part)' is not in the flow"
                    findings.append(context.finding(self, at: name.position, problem + "\(verbatim: Suggestions.didYouMean(part, in: names))"))
                    return nil
                }
                if index == parts.count - 1 { return (current, step) }
                guard step.kind == .flow else {
                    findings.append(context.finding(self, at: name.position,
                                                    "'\(name: part)' in '\(name: name.text)' is not a nested flow step of \(place)"))
                    return nil
                }
                guard let next = child(of: step, in: current) else { return nil }
                prefix.append(part)
                current = next
            }
            return nil
        }
        for scenario in script.scenarios {
            if case .entry(let entry, _, _) = scenario.start, !flow.entries.contains(where: { $0.name.text == entry.text }) {
                findings.append(context.finding(self, at: entry.position, "entry '\(name: entry.text)' is not in the flow\(verbatim: Suggestions.didYouMean(entry.text, in: flow.entries.map(\.name.text)))"))
            }
            if case .url(let link, _) = scenario.start, EntryPath.entry(matching: link.text, in: flow) == nil {
                let hint = Suggestions.didYouMean(EntryPath.pathOnly(link.text), in: flow.entries.map(\.path))
                findings.append(context.finding(self, at: link.position, "no entry of the flow matches '\(name: link.text)'\(verbatim: hint)"))
            }
            findings += startFindings(scenario, flow: flow, context: context)
            if case .state(let state) = scenario.start {
                // (A required input given as null is refused for its type, above: one finding.)
                for input in flow.requiredInputs where state[input] == nil {
                    findings.append(context.finding(self, at: scenario.position,
                                                    "scenario '\(name: scenario.name)' starts at 'start' without the input '\(name: input)', which the flow requires; give it in 'start: { state: … }'"))
                }
            }
            for item in scenario.steps {
                let resolved = resolve(item.step)
                guard !item.back else { continue }
                // A step that is not found still has its event checked, at the level its name is in.
                let level = resolved?.flow ?? (item.step.text.contains("/") ? nil : flow)
                if let level, let event = item.event {
                    let events = level.events.map(\.name.text)
                    if !events.contains(event.text) {
                        findings.append(context.finding(self, at: event.position, "event '\(name: event.text)' is not declared in \(verbatim: level.file == flow.file ? "the flow" : "the nested flow of step '\(item.step.text)'")\(verbatim: Suggestions.didYouMean(event.text, in: events.sorted()))"))
                    } else if level.events.contains(where: { $0.name.text == event.text && $0.expression != nil }) {
                        findings.append(context.finding(self, at: event.position, "event '\(name: event.text)' is derived from its expression; a step cannot raise it"))
                    }
                }
                guard let step = resolved?.step, step.kind != .flow, step.kind != .finish else { continue }
                if step.result == nil && item.result != nil {
                    findings.append(context.finding(self, at: item.step.position, "step '\(name: item.step.text)' declares no 'result', so it cannot complete with one"))
                } else if step.result != nil && item.result == nil && item.event == nil {
                    findings.append(context.finding(self, at: item.step.position, "step '\(name: item.step.text)' declares a 'result': complete it with a 'result' or an 'event'"))
                } else if let fields = step.result, let result = item.result {
                    findings += resultFindings(result, fields: fields, item: item, context: context)
                }
            }
            if let expect = scenario.expect {
                for name in expect.path ?? [] { _ = resolve(name) }
                if let outcome = expect.outcome, !outcomes.contains(outcome.text) {
                    findings.append(context.finding(self, at: outcome.position, "outcome '\(name: outcome.text)' is not an outcome of the flow\(verbatim: Suggestions.didYouMean(outcome.text, in: outcomes.sorted()))"))
                }
                for (key, _) in expect.state where !stateKeys.contains(key.text) {
                    findings.append(context.finding(self, at: key.position, "state key '\(name: key.text)' is not declared in the flow\(verbatim: Suggestions.didYouMean(key.text, in: stateKeys))"))
                }
            }
        }
        return findings
    }

    /// What the engine would refuse in a scenario's start, before any run: a state key the flow does not declare
    /// (with did-you-mean), a value that does not fit its key's type or is not finite, and for an entry, a path
    /// parameter it does not have, one it needs and is not given, or text its key's type cannot read.
    static func startFindings(_ scenario: Scenario, flow: Flow, context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let types = flow.stateTypes
        let declared = flow.state.map(\.name.text)
        let state: [String: Value]
        switch scenario.start {
        case .state(let values), .entry(_, _, let values), .url(_, let values): state = values
        }
        func at(_ key: String) -> SourcePosition { scenario.startPositions[key] ?? scenario.position }
        for (key, value) in state.sorted(by: { $0.key < $1.key }) {
            guard let type = types[key] else {
                findings.append(context.finding(self, at: at("state." + key),
                                                "the initial state sets '\(name: key)', which 'state' does not declare\(verbatim: Suggestions.didYouMean(key, in: declared))"))
                continue
            }
            if let (_, number) = FlowRun.firstNonFinite(in: [key: value]) {
                findings.append(context.finding(self, at: at("state." + key), "the initial state of '\(name: key)': expected a finite number, found \(number)"))
            } else if case .failure(let mismatch) = TypeCheck.coerce(value, to: type) {
                findings.append(context.finding(self, at: at("state." + key), "the initial state of '\(name: key)': \(verbatim: mismatch.message)"))
            }
        }
        guard case .entry(let name, let params, _) = scenario.start, let entry = flow.entries.first(where: { $0.name.text == name.text }) else { return findings }
        let names = EntryPath.parameters(entry.path)
        for key in params.keys.sorted() where !names.contains(key) {
            findings.append(context.finding(self, at: at("params." + key),
                                            "entry '\(name: name.text)' has no path parameter '\(name: key)'\(verbatim: Suggestions.didYouMean(key, in: names))"))
        }
        for key in names {
            guard let text = params[key] else {
                findings.append(context.finding(self, at: name.position, "entry '\(name: name.text)' needs the path parameter '\(name: key)'; give it in 'params'"))
                continue
            }
            // The parameters of an entry into a nested flow are the nested flow's (lint of the flow checks those).
            guard entry.nestedEntry == nil, let type = types[key] else { continue }
            if case .failure(let mismatch) = TypeCheck.parse(text: text, as: type) {
                findings.append(context.finding(self, at: at("params." + key), "path parameter '\(name: key)' of entry '\(name: name.text)': \(verbatim: mismatch.message)"))
            }
        }
        return findings
    }

    /// What the engine would refuse in a script step's result, before any run (docs/format.md, "Simulation
    /// scripts"): a key the step does not declare (with did-you-mean), a non-optional key left out, a value that
    /// does not fit its key's type (an enum value that does not exist, text for an int, a number that is not finite).
    static func resultFindings(_ result: [String: Value], fields: [Field], item: ScriptStep, context: LintContext) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let types = fields.typesByName
        let declared = fields.map(\.name.text)
        let step = item.step.text
        let resultPosition = item.resultPositions?.result ?? item.step.position
        for key in result.keys.sorted() where types[key] == nil {
            findings.append(context.finding(self, at: item.resultPositions?.keys[key]?.key ?? resultPosition,
                                            "the result of step '\(name: step)' has an unknown key '\(name: key)'\(verbatim: Suggestions.didYouMean(key, in: declared))"))
        }
        for field in fields {
            let key = field.name.text
            guard let value = result[key] else {
                // A key written with a value that is no flow value (a list) was reported where it was read.
                if !field.type.optional && item.resultPositions?.keys[key] == nil {
                    findings.append(context.finding(self, at: resultPosition, "the result of step '\(name: step)' is missing the key '\(name: key)'"))
                }
                continue
            }
            let at = item.resultPositions?.keys[key]?.value ?? resultPosition
            if let (inner, number) = FlowRun.firstNonFinite(in: [key: value]) {
                let place: Message = inner == key ? "" : " ('\(name: inner)')"
                findings.append(context.finding(self, at: at, "the result of step '\(name: step)', key '\(name: key)'\(place): expected a finite number, found \(number)"))
            } else if case .failure(let mismatch) = TypeCheck.coerce(value, to: field.type) {
                var message: Message = "the result of step '\(name: step)', key '\(path: key)': \(verbatim: mismatch.message)"
                if case .enumeration(let cases) = field.type.base, case .string(let text) = value, !cases.contains(text) {
                    message = message + "\(verbatim: Suggestions.didYouMean(text, in: cases))"
                }
                findings.append(context.finding(self, at: at, message))
            }
        }
        return findings
    }
}
