import Foundation
import FlowKit

/// The witnesses of a lint's findings (docs/format.md, "Witnesses"): each linted flow file with findings of the
/// rules that foresee run errors is loaded, compiled and searched as the flow a run starts at (nested flows read
/// as `simulate` reads them, from the flow's directory), files side by side.
package enum Witnesses {
    /// The witness or the reason for none of every finding in `findings` whose rule foresees run errors.
    package static func search(_ findings: [Diagnostic], budget: Int = 20_000, seconds: Double = 10) -> [Diagnostic: WitnessOutcome] {
        var byFile: [String: [Diagnostic]] = [:]
        var files: [String] = []
        for finding in findings where WitnessSearch.witnesses(finding.rule) {
            if byFile[finding.file] == nil { files.append(finding.file) }
            byFile[finding.file, default: []].append(finding)
        }
        let search = WitnessSearch(budget: budget, seconds: seconds)
        let groups = files.map { byFile[$0]! }
        let results = Parallel.map(groups.count) { index -> [(Diagnostic, WitnessOutcome)] in
            let group = groups[index]
            let file = group[0].file
            func none(_ why: String) -> [(Diagnostic, WitnessOutcome)] { group.map { ($0, .none(NoWitness(bound: .cannotRun(why)))) } }
            guard let document = try? FlowLoader.load(path: file), let flow = document.flow, !document.isScript else {
                return none("the file cannot be run")
            }
            let compiled: CompiledFlow
            do {
                compiled = try CompiledFlow(flow: flow)
            } catch {
                return none("the flow cannot run: \((error as? RunError)?.message ?? "\(error)")")
            }
            let directory = FilePath.directory(of: file)
            let found = search.search(group, flow: compiled, resolver: FileFlowResolver(root: directory.isEmpty ? "." : directory))
            return group.map { ($0, found[$0] ?? .none(NoWitness(bound: .cannotRun("the file cannot be run")))) }
        }
        var outcomes: [Diagnostic: WitnessOutcome] = [:]
        for pairs in results { for (finding, outcome) in pairs { outcomes[finding] = outcome } }
        return outcomes
    }

    /// A witness as a script's scenario named `name`: its start and its moves as steps, with no `expect` (the run
    /// stops with the run error).
    package static func scenario(_ witness: Witness, name: String) -> Scenario {
        let start: Scenario.Start
        switch witness.start {
        case .state(let state): start = .state(state)
        case .entry(let entry, let params, let state): start = .entry(Name(entry, at: .start), params: params, state: state)
        }
        let steps = witness.moves.map { ScriptStep(step: Name($0.step, at: .start), event: $0.event.map { Name($0, at: .start) }, result: $0.result) }
        return Scenario(name: name, position: .start, start: start, steps: steps, expect: nil)
    }

    /// What a witness that starts with a fixture says of it: which keys it gives that the flow's own runs read unset
    /// before the finding's place; nil for a witness without one.
    package static func fixtureNote(_ witness: Witness) -> String? {
        guard !witness.fixture.isEmpty else { return nil }
        let note: Message = "it starts with \(Message.quoted(witness.fixture)) given, which the flow's own runs read unset before this place: another finding's run error stops them first"
        return note.text
    }

    /// `maybe_unset at 12:7`: a witness scenario's name.
    package static func name(of finding: Diagnostic) -> String {
        "\(finding.rule.rawValue) at \(finding.line):\(finding.column)"
    }

    // MARK: Showing a witness

    /// The witness as JSON (`{"start": {...}, "steps": [...]}`, `start` left out for the flow's start with no
    /// state), compact, in the script format's shapes.
    package static func json(_ witness: Witness) -> String {
        var fields: [String] = []
        switch witness.start {
        case .state(let state):
            if !state.isEmpty { fields.append("\"start\": {\"state\": \(json(state))}") }
        case .entry(let name, let params, let state):
            let parameters = params.keys.sorted().map { "\(JSONText.string($0)): \(JSONText.string(params[$0]!))" }.joined(separator: ", ")
            fields.append("\"start\": {\"entry\": \(JSONText.string(name)), \"params\": {\(parameters)}" + (state.isEmpty ? "" : ", \"state\": \(json(state))") + "}")
        }
        let steps = witness.moves.map { move -> String in
            var parts: [String] = []
            if let event = move.event { parts.append("\"event\": \(JSONText.string(event))") }
            if let result = move.result { parts.append("\"result\": \(json(result))") }
            return "{\(JSONText.string(move.step)): {\(parts.joined(separator: ", "))}}"
        }
        fields.append("\"steps\": [\(steps.joined(separator: ", "))]")
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// An object of values as JSON, keys in order.
    static func json(_ fields: [String: Value]) -> String {
        Value.object(fields).jsonText
    }

    /// The witness in a line of text: `start at entry 'deep' with {amount: 150}; 'review': result {v: 9};
    /// 'consent': event 'later'`.
    package static func text(_ witness: Witness) -> String {
        var parts: [String] = []
        switch witness.start {
        case .state(let state):
            if !state.isEmpty { parts.append("start with " + compact(state)) }
        case .entry(let name, let params, let state):
            var given: [String] = params.keys.sorted().map { ScriptWriter.pair($0, ScriptWriter.string(params[$0]!)) }
            given += state.keys.sorted().map { ScriptWriter.pair($0, ScriptWriter.value(state[$0]!)) }
            parts.append(Message("start at entry '\(name: name, limit: .max)'").text + (given.isEmpty ? "" : " with {\(given.joined(separator: ", "))}"))
        }
        for move in witness.moves {
            var what: [String] = []
            if let event = move.event { what.append(Message("event '\(name: event, limit: .max)'").text) }
            if let result = move.result { what.append("result " + compact(result)) }
            parts.append(Message("'\(path: move.step)': ").text + (what.isEmpty ? "{}" : what.joined(separator: ", ")))
        }
        return parts.isEmpty ? "start the flow" : parts.joined(separator: "; ")
    }

    /// `{amount: 150, name: "a"}`: an object as the text line shows it.
    static func compact(_ fields: [String: Value]) -> String {
        "{" + fields.keys.sorted().map { ScriptWriter.pair($0, ScriptWriter.value(fields[$0]!)) }.joined(separator: ", ") + "}"
    }
}
