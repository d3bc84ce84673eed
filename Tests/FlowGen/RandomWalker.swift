import FlowKit

/// Serves nested flows from memory: a reference (the `flow` value as written) maps to a compiled flow.
public struct InMemoryResolver: FlowResolver {
    private let flows: [String: CompiledFlow]

    /// A resolver over `flows`, keyed by the reference a `flow` step writes.
    public init(_ flows: [String: CompiledFlow]) {
        self.flows = flows
    }

    /// The flow registered as `path` (wherever the parent is), else a run error saying it does not exist.
    public func resolve(_ path: String, from parentFile: String) throws(RunError) -> CompiledFlow {
        guard let flow = flows[path] else { throw RunError("nested flow '\(path)' does not exist", kind: .nestedFlowUnavailable) }
        return flow
    }
}

/// One completion a walk made: the step it was at (qualified), and the event and result it gave.
public struct WalkCompletion: Hashable, Sendable, CustomStringConvertible {
    /// The step the run was at (`parent/child` inside nested flows).
    public var step: String
    /// The explicit event given, if any.
    public var event: String?
    /// The result given, if any.
    public var result: [String: Value]?
    /// Whether it is no completion but the back button (docs/format.md, "The back button"): no event, no result.
    public var backButton = false

    /// Creates a completion.
    public init(step: String, event: String?, result: [String: Value]?) {
        self.step = step
        self.event = event
        self.result = result
    }

    /// The back button pressed at `step`.
    public static func backButton(at step: String) -> WalkCompletion {
        var move = WalkCompletion(step: step, event: nil, result: nil)
        move.backButton = true
        return move
    }

    /// `step: result {…}, event E`, `step: (neither)`, or `step: back button`.
    public var description: String {
        if backButton { return step + ": back button" }
        var parts: [String] = []
        if let result { parts.append("result " + Value.object(result).description) }
        if let event { parts.append("event " + event) }
        return step + ": " + (parts.isEmpty ? "(neither)" : parts.joined(separator: ", "))
    }
}

/// How a walk began: at `start` with some state, or at an entry with path parameters.
public enum WalkStart: Hashable, Sendable, CustomStringConvertible {
    /// At `start`, given this state (the required inputs, perhaps some optional ones).
    case start(state: [String: Value])
    /// At an entry, with its path parameters as text.
    case entry(String, params: [String: String])

    /// The engine's start.
    public var runStart: RunStart {
        switch self {
        case .start(let state): return .start(state: state)
        case .entry(let name, let params): return .entry(name, params: params, state: [:])
        }
    }

    /// How the walk began, for people.
    public var description: String {
        switch self {
        case .start(let state): return "start at 'start' with state " + Value.object(state).description
        case .entry(let name, let params):
            return "start at entry '\(name)' with " + (params.isEmpty ? "no parameters" : params.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", "))
        }
    }
}

/// A finished walk: how it began, what it did, and how it ended.
public struct Walk: Sendable, CustomStringConvertible {
    /// How a walk ends.
    public enum End: Sendable {
        /// The flow finished with this outcome.
        case finished(String)
        /// The run stopped on this error.
        case failed(RunError)
        /// The step allows no completion the walker may make (it has no transition for any of them).
        case stuck
        /// The walk made its most completions.
        case bounded
        /// A replay could not make a recorded completion (the run was elsewhere).
        case diverged
    }

    /// How it began.
    public var start: WalkStart
    /// The completions made, in order (the last one failed when the walk ends with an error after a completion).
    public var completions: [WalkCompletion]
    /// How it ended.
    public var end: End

    /// The run error, when the walk ended with one.
    public var error: RunError? {
        if case .failed(let error) = end { return error }
        return nil
    }

    /// The start, one completion a line, and the end.
    public var description: String {
        var lines = [start.description]
        lines += completions.map { "  " + $0.description }
        switch end {
        case .finished(let outcome): lines.append("finished with '\(outcome)'")
        case .failed(let error):
            var line = "run error at '\(error.step ?? "-")': \(error.message)"
            if let file = error.file, let position = error.position {
                line += " (\(file.split(separator: "/").last ?? ""):\(position))"
            }
            lines.append(line)
        case .stuck: lines.append("stuck: no completion the spec allows has a transition")
        case .bounded: lines.append("stopped after \(completions.count) completions")
        case .diverged: lines.append("diverged from the recorded walk")
        }
        return lines.joined(separator: "\n")
    }
}

/// Drives `FlowRun` with random completions that the spec's completion table allows at each step ("Running a
/// flow" in docs/format.md):
/// - a step with `result`: a result that fits (alone, when `next` or a derived event can take it; or with an
///   explicit event the step or `"*"` handles), or such an explicit event alone;
/// - a step without `result`: such an explicit event, or neither when the step or `"*"` has a `next` or handles
///   a derived event.
///
/// Explicit events are never derived events. So every run error a walk meets is a failure of the flow, never a
/// refusal of the completion itself.
public struct RandomWalker: Sendable {
    /// The flow walked.
    public let flow: CompiledFlow
    /// Where its nested flows come from.
    public let resolver: FlowResolver?
    /// The inputs a run at `start` must be given.
    public let requiredInputs: [String]
    /// The inputs a run at `start` may be given.
    public let optionalInputs: [String]
    /// The most completions a walk makes.
    public let maxCompletions: Int
    /// How often a walk presses the back button where the run can go back (0: never).
    public let backButtonChance: Double

    /// A walker over `flow`; `requiredInputs` are always given at `start`, `optionalInputs` sometimes; the back
    /// button is pressed with `backButtonChance` where the run can go back (its moves count as completions).
    public init(flow: CompiledFlow, resolver: FlowResolver?, requiredInputs: [String] = [], optionalInputs: [String] = [], maxCompletions: Int = 60,
                backButtonChance: Double = 0) {
        self.flow = flow
        self.resolver = resolver
        self.requiredInputs = requiredInputs
        self.optionalInputs = optionalInputs
        self.maxCompletions = maxCompletions
        self.backButtonChance = backButtonChance
    }

    /// The compiled step and its flow for a qualified step name (`P/x` is step `x` of the flow step `P` names).
    public func locate(_ qualified: String) -> (flow: CompiledFlow, step: Step)? {
        var current = flow
        let parts = qualified.split(separator: "/").map(String.init)
        for (index, part) in parts.enumerated() {
            guard let step = current.flow.step(named: part) else { return nil }
            if index == parts.count - 1 { return (current, step) }
            guard let reference = step.flowPath, let resolver, let child = try? resolver.resolve(reference, from: current.flow.file) else { return nil }
            current = child
        }
        return nil
    }

    /// The completions the spec allows at a step, as (explicit event, whether a result is given); results are
    /// drawn later. Empty when none would have a transition to take.
    public static func allowed(_ step: Step, in flow: CompiledFlow) -> [(event: String?, withResult: Bool)] {
        let derived = Set(flow.flow.events.filter { $0.expression != nil }.map(\.name.text))
        let any = flow.flow.anyStep
        let handled = Set(step.on.map(\.event.text)).union(any.map { $0.on.map(\.event.text) } ?? [])
        let explicit = handled.subtracting(derived).sorted()
        let hasNext = step.next != nil || any?.next != nil
        let handlesDerived = !handled.isDisjoint(with: derived)
        var options: [(event: String?, withResult: Bool)] = []
        if step.result != nil {
            if hasNext || handlesDerived { options.append((nil, true)) }
            for event in explicit {
                options.append((event, true))
                options.append((event, false))
            }
        } else {
            if hasNext || handlesDerived { options.append((nil, false)) }
            for event in explicit { options.append((event, false)) }
        }
        return options
    }

    /// The declared state types of the walked flow.
    private var stateTypes: [String: TypeRef] {
        Dictionary(flow.flow.state.map { ($0.name.text, $0.type) }, uniquingKeysWith: { first, _ in first })
    }

    /// The declared result types of `step`, nil when it declares no result.
    static func resultTypes(_ step: Step) -> [String: TypeRef]? {
        step.result.map { Dictionary($0.map { ($0.name.text, $0.type) }, uniquingKeysWith: { first, _ in first }) }
    }

    /// A random start: an entry (sometimes, when the flow has entries) with generated path parameters, else
    /// `start` with the required inputs and some optional ones.
    public func start(_ rng: inout SplitMix64) -> WalkStart {
        let entries = flow.flow.entries
        if !entries.isEmpty && rng.chance(0.3) {
            let entry = rng.pick(entries)
            var params: [String: String] = [:]
            for key in EntryPath.parameters(entry.path) {
                guard let type = stateTypes[key] else { continue }
                params[key] = ValueGenerator.text(type, &rng)
            }
            return .entry(entry.name.text, params: params)
        }
        var state: [String: Value] = [:]
        for key in requiredInputs {
            if let type = stateTypes[key] { state[key] = ValueGenerator.value(type, &rng) }
        }
        for key in optionalInputs where rng.chance(0.5) {
            if let type = stateTypes[key] { state[key] = ValueGenerator.valueOrNull(type, &rng) }
        }
        return .start(state: state)
    }

    /// A random walk from `seed`.
    public func walk(seed: UInt64) -> Walk {
        var rng = SplitMix64(seed: seed)
        let begin = start(&rng)
        var completions: [WalkCompletion] = []
        var run: FlowRun
        do {
            run = try FlowRun(flow: flow, start: begin.runStart, resolver: resolver)
        } catch {
            return Walk(start: begin, completions: [], end: .failed(error))
        }
        while completions.count < maxCompletions {
            if let outcome = run.outcome { return Walk(start: begin, completions: completions, end: .finished(outcome)) }
            guard let name = run.currentStep, let (stepFlow, step) = locate(name) else {
                return Walk(start: begin, completions: completions, end: .stuck)
            }
            if backButtonChance > 0, run.canGoBack, rng.chance(backButtonChance) {
                completions.append(.backButton(at: name))
                do {
                    try run.goBack()
                } catch {
                    return Walk(start: begin, completions: completions, end: .failed(error))
                }
                continue
            }
            let options = Self.allowed(step, in: stepFlow)
            guard !options.isEmpty else { return Walk(start: begin, completions: completions, end: .stuck) }
            let choice = rng.pick(options)
            let result = choice.withResult ? Self.resultTypes(step).map { ValueGenerator.result($0, &rng) } : nil
            let completion = WalkCompletion(step: name, event: choice.event, result: result)
            completions.append(completion)
            do {
                try run.complete(event: completion.event, result: completion.result)
            } catch {
                return Walk(start: begin, completions: completions, end: .failed(error))
            }
        }
        if let outcome = run.outcome { return Walk(start: begin, completions: completions, end: .finished(outcome)) }
        return Walk(start: begin, completions: completions, end: .bounded)
    }

    /// Replays recorded completions from `start`: a completion made at another step than recorded, or one the
    /// step no longer allows, ends the replay as diverged. Result keys the step no longer declares are dropped.
    public func replay(start begin: WalkStart, _ recorded: [WalkCompletion]) -> Walk {
        var completions: [WalkCompletion] = []
        var run: FlowRun
        do {
            run = try FlowRun(flow: flow, start: begin.runStart, resolver: resolver)
        } catch {
            return Walk(start: begin, completions: [], end: .failed(error))
        }
        for var completion in recorded {
            if let outcome = run.outcome { return Walk(start: begin, completions: completions, end: .finished(outcome)) }
            guard run.currentStep == completion.step, let (stepFlow, step) = locate(completion.step) else {
                return Walk(start: begin, completions: completions, end: .diverged)
            }
            if completion.backButton {
                completions.append(completion)
                do {
                    try run.goBack()
                } catch {
                    return Walk(start: begin, completions: completions, end: .failed(error))
                }
                continue
            }
            let options = Self.allowed(step, in: stepFlow)
            guard options.contains(where: { $0.event == completion.event && $0.withResult == (completion.result != nil) }) else {
                return Walk(start: begin, completions: completions, end: .diverged)
            }
            if let result = completion.result, let types = Self.resultTypes(step) {
                completion.result = result.filter { types[$0.key] != nil }
                if types.contains(where: { !$0.value.optional && completion.result?[$0.key] == nil }) {
                    return Walk(start: begin, completions: completions, end: .diverged)
                }
            }
            completions.append(completion)
            do {
                try run.complete(event: completion.event, result: completion.result)
            } catch {
                return Walk(start: begin, completions: completions, end: .failed(error))
            }
        }
        if let outcome = run.outcome { return Walk(start: begin, completions: completions, end: .finished(outcome)) }
        return Walk(start: begin, completions: completions, end: .bounded)
    }
}
