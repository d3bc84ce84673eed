/// What generated Swift depends on in a flow (docs/format.md, "Generated Swift"): its steps with their kinds,
/// results and the explicit events each handles, its events, outcomes, state keys, inputs and entries. Titles,
/// conditions, `set`, targets and comments are not part of it, so a server may change them under an app's
/// generated code.
public struct FlowInterface: Equatable, Sendable, CustomStringConvertible {
    /// One line per item, in a fixed order: the flow, state keys, inputs, events, outcomes, steps, entries.
    public let lines: [String]

    /// The interface of `flow`.
    public init(_ flow: Flow) {
        var lines = ["flow \(flow.name.text)"]
        lines += flow.state.sorted { $0.name.text < $1.name.text }.map { "state \($0.name.text): \(FlowInterface.spelling($0.type))" }
        lines += flow.inputs.map(\.text).sorted().map { "input \($0)" }
        lines += flow.events.sorted { $0.name.text < $1.name.text }.map { "event \($0.name.text)" + ($0.expression == nil ? "" : " derived") }
        lines += FlowInterface.outcomes(of: flow).sorted().map { "outcome \($0)" }
        for step in flow.steps.sorted(by: { $0.name.text < $1.name.text }) {
            var line = "step \(step.name.text) \(step.kind.rawValue)"
            if let result = step.result, step.kind == .screen || step.kind == .action {
                line += " result " + FlowInterface.spelling(TypeRef(base: .object(result), optional: false, position: .start))
            }
            let events = FlowInterface.explicitEvents(of: step, in: flow)
            if !events.isEmpty { line += " events [" + events.sorted().joined(separator: ", ") + "]" }
            if FlowInterface.completesBare(step, in: flow) { line += " bare" }
            lines.append(line)
        }
        for entry in flow.entries.sorted(by: { $0.name.text < $1.name.text }) {
            var line = "entry \(entry.name.text) step \(entry.step.text)"
            if let nested = entry.nestedEntry { line += " entry \(nested.text)" }
            line += " params [" + EntryPath.parameters(entry.path).sorted().joined(separator: ", ") + "]"
            lines.append(line)
        }
        self.lines = lines
    }

    /// The interface as text, one item per line.
    public var description: String { lines.joined(separator: "\n") }

    /// Checks that `flow` has the interface `expected` (the text of a `FlowInterface`), else throws an error naming
    /// the first line that differs (`invalidStart`).
    public static func check(_ flow: Flow, expected: String) throws(RunError) {
        let found = FlowInterface(flow).lines
        let wanted = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard found != wanted else { return }
        let index = zip(found, wanted).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(found.count, wanted.count)
        let expectedLine: Message = index < wanted.count ? "'\(name: wanted[index])'" : "nothing more"
        let foundLine: Message = index < found.count ? "'\(name: found[index])'" : "nothing more"
        throw RunError("flow '\(name: flow.name.text)' does not match the Swift generated for it: expected \(expectedLine), found \(foundLine)",
                       kind: .invalidStart, file: flow.file)
    }

    /// The nested flow the `flow` step `step` of `flow` names, through `resolver`.
    public static func nested(_ flow: CompiledFlow, step: String, resolver: (any FlowResolver)?) throws(RunError) -> CompiledFlow {
        guard let path = flow.flow.step(named: step)?.flowPath else {
            throw RunError("flow '\(name: flow.flow.name.text)' has no flow step '\(name: step)'", kind: .invalidStart)
        }
        guard let resolver else {
            throw RunError("nested flow '\(name: path)' cannot be loaded: no resolver was given", kind: .nestedFlowUnavailable, step: step)
        }
        return try resolver.resolve(path, from: flow.flow.file)
    }

    /// The outcomes of `flow`'s finish steps (a step's `outcome`, else its name), each once, in file order.
    public static func outcomes(of flow: Flow) -> [String] {
        var seen: Set<String> = []
        return flow.steps.filter { $0.kind == .finish }.map { $0.outcome?.text ?? $0.name.text }.filter { seen.insert($0).inserted }
    }

    /// The events an app may complete `step` with: those its own `on` and `"*"`'s handle that are not derived, each
    /// once, in the order written (the step's own first). None for `flow` and `finish` steps.
    public static func explicitEvents(of step: Step, in flow: Flow) -> [String] {
        guard step.kind == .screen || step.kind == .action else { return [] }
        let derived = Set(flow.events.filter { $0.expression != nil }.map(\.name.text))
        var seen: Set<String> = []
        return (step.on + (flow.anyStep?.on ?? [])).map(\.event.text).filter { !derived.contains($0) && seen.insert($0).inserted }
    }

    /// Whether an app may complete `step` with neither result nor event: a screen or action without `result` that
    /// has `next` (its own or `"*"`'s) or handles a derived event.
    public static func completesBare(_ step: Step, in flow: Flow) -> Bool {
        guard step.kind == .screen || step.kind == .action, step.result == nil else { return false }
        if step.next != nil || flow.anyStep?.next != nil { return true }
        let derived = Set(flow.events.filter { $0.expression != nil }.map(\.name.text))
        return (step.on + (flow.anyStep?.on ?? [])).contains { derived.contains($0.event.text) }
    }

    /// A type as the interface spells it: object keys and enum values sorted, so that their order does not count.
    static func spelling(_ type: TypeRef) -> String {
        let text: String
        switch type.base {
        case .int: text = "int"
        case .number: text = "number"
        case .string: text = "string"
        case .bool: text = "bool"
        case .enumeration(let values): text = "[" + Set(values).sorted().map(Value.quoted).joined(separator: ", ") + "]"
        case .object(let fields):
            text = "{ " + fields.sorted { $0.name.text < $1.name.text }.map { "\($0.name.text): \(spelling($0.type))" }.joined(separator: ", ") + " }"
        }
        return type.optional ? text + "?" : text
    }
}
