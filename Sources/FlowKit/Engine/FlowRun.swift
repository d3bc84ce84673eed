/// Where a run begins.
public enum RunStart: Sendable {
    /// At `start`, with this initial state.
    case start(state: [String: Value])
    /// At an entry (deep link): its path parameters, given as text, are converted to their state types.
    case entry(String, params: [String: String], state: [String: Value])
    /// At the entry whose path matches a link's path (`EntryPath.match`), with the parameters it gives.
    case url(String, state: [String: Value])
}

/// One state key changed by a completion.
public struct StateChange: Equatable, Sendable, Codable {
    /// The key (prefixed with the nested flow steps it lives in, e.g. `payment/card`).
    public let key: String
    /// The value before, nil when unset.
    public let old: Value?
    /// The value after.
    public let new: Value

    /// Creates a change.
    public init(key: String, old: Value?, new: Value) {
        self.key = key
        self.old = old
        self.new = new
    }

    private enum CodingKeys: String, CodingKey {
        case key, old, new, wasSet
    }

    /// Decodes what `encode(to:)` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(String.self, forKey: .key)
        new = try container.decode(Value.self, forKey: .new)
        old = try container.decodeIfPresent(Bool.self, forKey: .wasSet) == true ? try container.decode(Value.self, forKey: .old) : nil
    }

    /// Encodes `old` with `wasSet: true` when the key had a value, so that a key set to null stays apart from an
    /// unset one.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(new, forKey: .new)
        if let old {
            try container.encode(true, forKey: .wasSet)
            try container.encode(old, forKey: .old)
        }
    }
}

/// One completion of a step in a run: what came in, which move was taken, what changed.
public struct TraceEntry: Equatable, Sendable, Codable {
    /// How the event of a completion came about.
    public enum EventKind: String, Sendable, Codable {
        /// Given with the completion.
        case explicit
        /// Raised by a derived event's expression.
        case derived
        /// The outcome of a nested flow.
        case outcome
    }

    /// The step completed (qualified: `parent/child` inside nested flows).
    public let step: String
    /// The event handled, when there was one.
    public let event: String?
    /// How the event came about.
    public let eventKind: EventKind?
    /// The result the step completed with.
    public let result: [String: Value]?
    /// The move a completion (or the back button) made; its raw value is how traces and reports spell it.
    public enum Move: String, Sendable, Codable, CaseIterable {
        /// A forward target: the step was pushed on the history.
        case forward
        /// `back: X`: the history was popped back to the latest X.
        case back
        /// `back: true`: one step was popped.
        case backOne = "back: true"
        /// `restart`: history and state were cleared and `start` shown.
        case restart
        /// The back button (`FlowRun.goBack()`): the step was left without completing it.
        case backButton = "back button"
    }

    /// The move taken.
    public let move: Move
    /// The step shown next (qualified); filled in by the run once it knows where a completion lands.
    public internal(set) var to: String
    /// State keys the completion changed, in key order.
    public let changes: [StateChange]
    /// The option the completion took (nil for the back button): what coverage counts as the edge taken.
    public let taken: Taken?

    /// Which option of which target list a completion took.
    public struct Taken: Equatable, Sendable, Codable {
        /// The file of the flow whose step completed, as the run names it.
        public let file: String
        /// The event whose handler held the list (an explicit or derived event, or a nested flow's outcome); nil
        /// for `next`.
        public let handler: String?
        /// Whether the list is the `"*"` step's.
        public let shared: Bool
        /// The option taken, counted from 0 in the list as written.
        public let option: Int
    }
}

/// A run of a flow: the current step, the state, the history, the path and the trace. A value type with no
/// global state, safe to copy and to send between tasks; nested flows run inside it with their own history.
public struct FlowRun: Sendable {
    package struct Frame: Sendable {
        package let flow: CompiledFlow
        package var state: [String: Value]
        let initialState: [String: Value]
        package var history: [Int]
        let prefix: String
    }

    /// The deepest nesting of flows a run allows.
    public static let maxNesting = 32

    package var frames: [Frame]
    let resolver: FlowResolver?
    /// The most steps a run may show before it is stopped as a loop.
    public let maxSteps: Int
    /// Every step shown, in order, repeats included (qualified names).
    public private(set) var path: [String] = []
    /// Every completion, in order.
    public private(set) var trace: [TraceEntry] = []
    /// The flow's outcome once it has finished.
    public private(set) var outcome: String?
    var shown = 0
    private var pendingChanges: [StateChange] = []
    /// The storage `complete(event:result:)` reuses for its landings (`takeLandings()`).
    private var landingBuffer: [Landing] = []
    /// The entry (and its parameters) the first nested flow entered starts at, for a run begun at an entry that
    /// reaches into a nested flow; used once.
    private var pendingNestedEntry: (name: String, params: [String: String])?

    /// Drops the path and trace kept so far, leaving the run where it is: a search that keeps many runs needs only
    /// what each next move adds, and would otherwise hold every run's whole past.
    package mutating func forgetPast() {
        path.removeAll()
        trace.removeAll()
    }

    /// A run put back together from its parts (`init(restoring:flow:resolver:)`).
    init(frames: [Frame], resolver: FlowResolver?, maxSteps: Int, path: [String], trace: [TraceEntry], outcome: String?, shown: Int) {
        self.frames = frames
        self.resolver = resolver
        self.maxSteps = maxSteps
        self.path = path
        self.trace = trace
        self.outcome = outcome
        self.shown = shown
    }

    /// Starts `flow` at `start`; nested flows are found with `resolver`.
    public init(flow: CompiledFlow, start: RunStart = .start(state: [:]), resolver: FlowResolver? = nil, maxSteps: Int = 10_000) throws(RunError) {
        self.resolver = resolver
        self.maxSteps = maxSteps
        var state: [String: Value] = [:]
        var first = flow.startID
        var start = start
        if case .url(let link, let values) = start {
            guard let (name, params) = EntryPath.entry(matching: link, in: flow.flow) else {
                let hint = Suggestions.didYouMean(EntryPath.pathOnly(link), in: flow.flow.entries.map(\.path))
                throw RunError("no entry of flow '\(name: flow.flow.name.text)' matches '\(name: link)'\(verbatim: hint)", kind: .invalidStart)
            }
            start = .entry(name, params: params, state: values)
        }
        let given: [String: Value]
        switch start {
        case .start(let values): given = values
        case .entry(_, _, let values), .url(_, let values): given = values
        }
        if let (key, number) = Self.firstNonFinite(in: given) {
            throw RunError("the initial state of '\(name: key)': expected a finite number, found \(number)", kind: .invalidStart)
        }
        for (key, value) in given.sorted(by: { $0.key < $1.key }) {
            guard let type = flow.stateTypes[key] else {
                throw RunError("the initial state sets '\(key)', which 'state' does not declare\(Suggestions.didYouMean(key, in: flow.stateTypes.keys.sorted()))", kind: .invalidStart)
            }
            switch TypeCheck.coerce(value, to: type) {
            case .success(let coerced): state[key] = coerced
            case .failure(let mismatch): throw RunError("the initial state of '\(key)': \(mismatch.message)", kind: .invalidStart)
            }
        }
        if case .entry(let name, let params, _) = start {
            guard let entry = flow.flow.entries.first(where: { $0.name.text == name }) else {
                throw RunError("entry '\(name)' is not defined\(Suggestions.didYouMean(name, in: flow.flow.entries.map(\.name.text)))", kind: .invalidStart)
            }
            guard let id = flow.ids[entry.step.text] else { throw RunError("entry '\(name)' goes to step '\(entry.step.text)', which is not defined", kind: .invalidStart) }
            first = id
            let names = EntryPath.parameters(entry.path)
            for key in params.keys.sorted() where !names.contains(key) {
                throw RunError("entry '\(name)' has no path parameter '\(key)'\(Suggestions.didYouMean(key, in: names))", kind: .invalidStart)
            }
            if let nested = entry.nestedEntry {
                // The parameters are the nested entry's: its flow starts there when the `flow` step is shown.
                guard flow.steps[id].kind == .flow else {
                    throw RunError("entry '\(name)' reaches into step '\(entry.step.text)', which is not a 'flow' step", kind: .invalidStart)
                }
                pendingNestedEntry = (nested.text, params)
            } else {
                for (key, value) in try Self.entryState(entry, params: params, flow: flow) { state[key] = value }
            }
        }
        if case .start = start {
            for input in flow.flow.requiredInputs where (state[input] ?? .null) == .null {
                throw RunError("the run starts without the input '\(input)', which the flow requires", kind: .missingInput)
            }
        }
        frames = [Frame(flow: flow, state: state, initialState: state, history: [first], prefix: "")]
        var landings: [Landing] = []
        try proceed(from: .show(first), landings: &landings)
        settle(landings)
    }

    /// The state an entry's path parameters (text) give `flow`, each converted to its declared type.
    static func entryState(_ entry: Entry, params: [String: String], flow: CompiledFlow) throws(RunError) -> [String: Value] {
        let name = entry.name.text
        var state: [String: Value] = [:]
        for key in EntryPath.parameters(entry.path) {
            guard let text = params[key] else { throw RunError("entry '\(name)' needs the path parameter '\(key)'", kind: .invalidStart) }
            guard let type = flow.stateTypes[key] else { throw RunError("path parameter '\(key)' of entry '\(name)' is not a declared state key", kind: .invalidStart) }
            switch TypeCheck.parse(text: text, as: type) {
            case .success(let value): state[key] = value
            case .failure(let mismatch): throw RunError("path parameter '\(key)' of entry '\(name)': \(mismatch.message)", kind: .invalidStart)
            }
        }
        return state
    }

    /// The step the run is at (qualified), nil once the flow has finished.
    public var currentStep: String? {
        guard outcome == nil, let frame = frames.last, let id = frame.history.last else { return nil }
        return frame.prefix + frame.flow.name(id)
    }

    /// The step the run is at, as written in its flow (the innermost nested flow's step inside nested flows), with
    /// that flow; nil once the flow has finished.
    public var currentStepDefinition: (step: Step, flow: Flow)? {
        guard outcome == nil, let frame = frames.last, let id = frame.history.last else { return nil }
        return (frame.flow.flow.steps[id], frame.flow.flow)
    }

    /// The step the run is at as one name per level, outermost first: the `flow` steps it is inside, then the step
    /// itself (`["signIn", "email"]`); empty once the flow has finished.
    public var currentSteps: [String] {
        guard outcome == nil else { return [] }
        return frames.compactMap { frame in frame.history.last.map { frame.flow.name($0) } }
    }

    /// Completes the current step as `complete(event:result:)` does, after checking that the run is at `steps`
    /// (`currentSteps`): a completion meant for another step is an error (`invalidCompletion`) and changes nothing.
    /// Generated Swift completes steps through it.
    public mutating func complete(at steps: [String], event: String? = nil, result: [String: Value]? = nil) throws(RunError) {
        let current = currentSteps
        guard current == steps else {
            let wanted = steps.joined(separator: "/")
            if current.isEmpty {
                throw RunError("the completion is for step '\(wanted)' but the flow has already finished with outcome '\(outcome ?? "")'",
                               kind: .invalidCompletion)
            }
            let name = current.joined(separator: "/")
            throw RunError("the completion is for step '\(wanted)' but the run is at step '\(name)'", kind: .invalidCompletion, step: name)
        }
        try complete(event: event, result: result)
    }

    /// Whether the back button has somewhere to go (`goBack()` would not fail at the first step of the run).
    public var canGoBack: Bool { outcome == nil && frames.contains { $0.history.count > 1 } }

    /// Whether the flow has finished.
    public var isFinished: Bool { outcome != nil }

    /// The top-level flow's state.
    public var state: [String: Value] { frames[0].state }

    /// Completes the current step with an optional event and an optional result, and moves on.
    public mutating func complete(event: String? = nil, result: [String: Value]? = nil) throws(RunError) {
        guard outcome == nil else { throw RunError("the flow has already finished with outcome '\(outcome!)'", kind: .invalidCompletion) }
        try checkCompletion(event: event, result: result)
        var landings = takeLandings()
        let next = try completeStep(event: event, kind: event == nil ? nil : .explicit, result: result, landings: &landings)
        try proceed(from: .show(next), landings: &landings)
        settle(landings)
        landingBuffer = landings
    }

    /// The back button (docs/format.md, "The back button"): leaves the current step without completing it and shows
    /// the step under it on the history again. At the first step of a nested flow the nested flow is left and its
    /// `flow` step popped too; at the first step of the run it is an error (`backAtFirstStep`) and nothing changes.
    public mutating func goBack() throws(RunError) {
        guard outcome == nil, let name = currentStep else {
            throw RunError("the flow has already finished with outcome '\(outcome ?? "")'", kind: .invalidCompletion)
        }
        guard let index = frames.lastIndex(where: { $0.history.count > 1 }) else {
            throw RunError("step '\(name)' is the first step of the run: there is nothing to go back to", kind: .backAtFirstStep, step: name)
        }
        frames.removeSubrange((index + 1)...)
        frames[index].history.removeLast()
        var landings = [Landing(traceIndex: trace.count, shownBefore: path.count)]
        trace.append(TraceEntry(step: name, event: nil, eventKind: nil, result: nil, move: .backButton, to: "", changes: [], taken: nil))
        try proceed(from: .show(frames[index].history.last!), landings: &landings)
        settle(landings)
    }

    /// The completions a step allows (docs/format.md, "Running a flow"): a result only at a step that declares
    /// one, a result or an event at such a step, and never a derived event given by hand.
    private func checkCompletion(event: String?, result: [String: Value]?) throws(RunError) {
        let index = frames.count - 1
        let flow = frames[index].flow
        let id = frames[index].history.last!
        let step = flow.steps[id]
        // The name only when a message needs it.
        var name: String { frames[index].prefix + flow.name(id) }
        if let event, flow.isDerived(event) {
            throw RunError("event '\(name: event)' is derived from its expression; a step cannot raise it", kind: .invalidCompletion, step: name)
        }
        if !step.declaresResult && result != nil {
            throw RunError("step '\(name)' declares no 'result', so it cannot complete with one", kind: .invalidCompletion, step: name)
        }
        if step.declaresResult && result == nil && event == nil {
            throw RunError("step '\(name)' needs a result or an event to complete: it declares a 'result'", kind: .invalidCompletion, step: name)
        }
    }

    // MARK: - The work loop

    /// What the run does next after a move: show a step of the innermost flow, or complete the innermost flow's
    /// `flow` step with a nested flow's outcome and final state.
    private enum Work {
        case show(Int)
        case outcome(String, result: [String: Value])
    }

    /// A trace entry whose `to` is not known yet, and how many steps had been shown when it was made.
    private struct Landing {
        let traceIndex: Int
        let shownBefore: Int
    }

    /// Does `work` and everything it leads to until the run waits at a step or finishes. A loop, not recursion:
    /// a nested flow that finishes at once, and the parent step that it completes, take no stack of their own, so
    /// the stack stays the same however many steps one completion shows.
    private mutating func proceed(from work: Work, landings: inout [Landing]) throws(RunError) {
        var pending: Work? = work
        while let current = pending {
            switch current {
            case .show(let id):
                pending = try arrive(at: id)
            case .outcome(let event, let result):
                pending = .show(try completeStep(event: event, kind: .outcome, result: result, landings: &landings))
            }
        }
    }

    /// Fills in the `to` of the trace entries a completion made: the first step shown after each move (inside a
    /// nested flow it enters, if any). Entries stay without it when the completion stopped on an error.
    /// The landings buffer of the last completion, emptied, for the next to fill: a completion allocates no list of
    /// its own.
    private mutating func takeLandings() -> [Landing] {
        var buffer = landingBuffer
        landingBuffer = []
        buffer.removeAll(keepingCapacity: true)
        return buffer
    }

    private mutating func settle(_ landings: [Landing]) {
        for landing in landings {
            trace[landing.traceIndex].to = path.count > landing.shownBefore ? path[landing.shownBefore] : (currentStep ?? "")
        }
    }

    // MARK: - Completing a step

    /// The scope of frame `index`'s expressions (read from the frame in place: a copy of the frame would retain
    /// and release each of its parts).
    private func scope(_ index: Int, result: [String: Value]?, resultTypes: [String: TypeRef]?) -> EvaluationScope {
        EvaluationScope(state: frames[index].state, stateTypes: frames[index].flow.stateTypes, result: result, resultTypes: resultTypes)
    }

    /// Where the option a completion took is written: the `option`-th of the step's (or, `shared`, the `"*"`
    /// step's) handler of `handler`, or of its `next`; a back move's run error points there.
    private static func optionPosition(in flow: CompiledFlow, step id: Int, shared: Bool, handler: String?, option: Int) -> SourcePosition? {
        guard let step = shared ? flow.flow.anyStep : flow.flow.step(named: flow.name(id)) else { return nil }
        let targets = handler.map { step.handler(for: $0)?.targets ?? [] } ?? step.next ?? []
        return option < targets.count ? targets[option].position : nil
    }

    /// `name` qualified with a frame's prefix (`payment/card`); the top frame's names are their own.
    private static func qualified(_ prefix: String, _ name: String) -> String {
        prefix.isEmpty ? name : prefix + name
    }

    private func evaluate(_ expression: RunExpression, _ scope: EvaluationScope, step: String, file: String) throws(RunError) -> Value {
        do {
            return try expression.evaluate(in: scope)
        } catch {
            throw RunError("\(error.message) in '\(expression.source.text)'", kind: error.kind, step: step, file: file,
                           position: expression.source.position(ofOffset: error.offset))
        }
    }

    /// The value of `expression` in the innermost frame: its fast form's, read from the frame's state in place,
    /// when it gives one; else the evaluator's over a full scope (made only then: a scope holds four dictionaries,
    /// each counted in and out).
    private func value(of expression: RunExpression, result: [String: Value]?, resultTypes: [String: TypeRef]?,
                       step: String) throws(RunError) -> Value {
        let index = frames.count - 1
        if let fast = expression.fast, let value = fast.value(state: frames[index].state, result: result) { return value }
        return try evaluate(expression, scope(index, result: result, resultTypes: resultTypes), step: step, file: frames[index].flow.flow.file)
    }

    /// A condition's value in the innermost frame; `what` names it in the error when it is not a bool (worked out
    /// only then: a derived event's name is otherwise put into words on every move).
    private func condition(_ expression: RunExpression, result: [String: Value]?, resultTypes: [String: TypeRef]?, step: String,
                           what: @autoclosure () -> String) throws(RunError) -> Bool {
        let value = try value(of: expression, result: result, resultTypes: resultTypes, step: step)
        guard case .bool(let holds) = value else {
            throw RunError("\(what()) '\(expression.source.text)' gives \(value), not true or false", kind: (value == .null ? .nullValue : .typeError), step: step,
                           file: frames[frames.count - 1].flow.flow.file, position: expression.source.position)
        }
        return holds
    }

    /// The value `assignment` stores in the innermost frame, converted to its key's declared type.
    private func workedOut(_ assignment: StateWrite, result: [String: Value]?, resultTypes: [String: TypeRef]?, step: String) throws(RunError) -> Value {
        let (key, expression) = (assignment.key, assignment.expression)
        let value = try value(of: expression, result: result, resultTypes: resultTypes, step: step)
        guard let type = assignment.type else {
            throw RunError("step '\(step)' sets '\(key)', which 'state' does not declare", kind: .undeclaredState, step: step,
                           file: frames[frames.count - 1].flow.flow.file, position: assignment.keyPosition)
        }
        switch TypeCheck.coerce(value, to: type) {
        case .success(let coerced): return coerced
        case .failure(let mismatch):
            throw RunError("step '\(step)' sets '\(key)': \(mismatch.message)", kind: (value == .null ? .nullValue : .typeError), step: step,
                           file: frames[frames.count - 1].flow.flow.file, position: expression.source.position)
        }
    }

    /// Stores `value` under `key` in the innermost frame's state, noting the change.
    private mutating func store(_ key: String, _ value: Value) {
        let index = frames.count - 1
        // The old value read and the new one stored in one search for the key.
        let old = frames[index].state.updateValue(value, comparingKeys: key)
        if old != value { pendingChanges.append(StateChange(key: Self.qualified(frames[index].prefix, key), old: old, new: value)) }
    }

    /// Runs assignments simultaneously: every expression sees the same state, then the values are stored. The
    /// values are all worked out before the first is stored, and no scope outlives the working out: a scope still
    /// holding the state would make the first store copy the whole state.
    private mutating func assign(_ assignments: ArraySlice<StateWrite>, result: [String: Value]?, resultTypes: [String: TypeRef]?,
                                 step: String) throws(RunError) {
        if assignments.count == 1 {
            // One assignment needs no list of values to store after the others.
            let only = assignments[assignments.startIndex]
            store(only.key, try workedOut(only, result: result, resultTypes: resultTypes, step: step))
            return
        }
        var values: [(String, Value)] = []
        values.reserveCapacity(assignments.count)
        for assignment in assignments {
            values.append((assignment.key, try workedOut(assignment, result: result, resultTypes: resultTypes, step: step)))
        }
        for (key, value) in values { store(key, value) }
    }

    /// Completes the innermost flow's current step and makes its move; returns the step to show next.
    private mutating func completeStep(event: String?, kind: TraceEntry.EventKind?, result: [String: Value]?,
                                       landings: inout [Landing]) throws(RunError) -> Int {
        // No copy of the frame is kept: it would share the history's storage and make every append copy it.
        let index = frames.count - 1
        let flow = frames[index].flow
        let id = frames[index].history.last!
        let compiled = flow.steps[id]
        let name = Self.qualified(frames[index].prefix, flow.name(id))
        let isFlowStep = compiled.kind == .flow
        pendingChanges = []

        // 1. A result runs the step's `set` against the state before the step.
        var result = result
        if let given = result, let (key, number) = Self.firstNonFinite(in: given) {
            throw RunError("the result of step '\(path: name)', key '\(name: key)': expected a finite number, found \(number)", kind: .invalidCompletion, step: name)
        }
        let resultTypes = kind == .outcome ? nil : flow.resultTypes[id]
        if let given = result, let types = resultTypes {
            result = try Self.checkResult(given, types: types, step: name, flow: flow)
        }
        if let result {
            if compiled.writes.count > 0 { try assign(flow.writes[compiled.writes.range], result: result, resultTypes: resultTypes, step: name) }
        }

        // 2. The event: the explicit one, else the first derived event this step or "*" handles that holds.
        var event = event
        var eventKind = kind
        if event == nil && !isFlowStep && compiled.derived.count > 0 {
            for index in flow.derived(of: compiled) {
                let derived = flow.derivedEvents[Int(index)]
                if try condition(derived.expression, result: result, resultTypes: resultTypes, step: name, what: "event '\(derived.name)'") {
                    event = derived.name
                    eventKind = .derived
                    break
                }
            }
        }

        // 3-4. The handler for the event, else `next`.
        var targets: CompiledFlow.OptionList?
        var handler: String?
        var shared = false
        if let event {
            if let own = flow.handler(compiled, for: event) {
                targets = own
            } else if let any = flow.anyStep, let common = flow.handler(any, for: event) {
                (targets, shared) = (common, true)
            }
            if targets == nil && kind != .outcome {
                throw RunError("step '\(name)' has no transition for event '\(event)'", kind: .invalidCompletion, step: name)
            }
            if targets != nil { handler = event }
        }
        if targets == nil {
            if let own = compiled.next {
                targets = own
            } else if let common = flow.anyStep?.next {
                (targets, shared) = (common, true)
            }
        }
        guard let list = targets else {
            if let event, kind == .outcome {
                throw RunError("step '\(name)' has no transition for outcome '\(event)' of its nested flow", kind: .unhandledOutcome, step: name, subject: event)
            }
            throw RunError("step '\(name)' has no transition", kind: .noTransition, step: name)
        }

        // 5. The first option whose `if` holds is taken, and its `set` runs.
        var chosen: CompiledFlow.Option?
        var chosenIndex = 0
        for position in list.range {
            let option = flow.options[position]
            if option.condition >= 0 {
                guard try condition(flow.conditions[Int(option.condition)], result: result, resultTypes: resultTypes, step: name, what: "condition") else { continue }
            }
            (chosen, chosenIndex) = (option, position - Int(list.start))
            break
        }
        guard let target = chosen else {
            // Every option has an `if` (else it would have been taken): the error points at the first, where lint's
            // `non_exhaustive_guards` finding about the list is.
            let first = flow.options[Int(list.start)].condition
            throw RunError("step '\(name)' has no transition: no option's condition holds", kind: .noOptionHolds, step: name,
                           file: frames[frames.count - 1].flow.flow.file, position: first >= 0 ? flow.conditions[Int(first)].source.position : nil)
        }
        if target.writes.count > 0 { try assign(flow.writes[target.writes.range], result: result, resultTypes: resultTypes, step: name) }

        // The move.
        let move: TraceEntry.Move
        switch flow.move(target) {
        case .forward(let next):
            frames[index].history.append(next)
            move = .forward
        case .back(let back):
            guard let position = frames[index].history.lastIndex(of: back) else {
                throw RunError("step '\(name)' goes back to '\(flow.name(back))', which is not on the history", kind: .backNotOnHistory, step: name,
                               file: flow.flow.file, position: Self.optionPosition(in: flow, step: id, shared: shared, handler: handler, option: chosenIndex))
            }
            frames[index].history.removeSubrange((position + 1)...)
            move = .back
        case .backOne:
            guard frames[index].history.count > 1 else {
                throw RunError("step '\(name)' is the first step of its run: 'back: true' has nowhere to go", kind: .backAtFirstStep, step: name,
                               file: flow.flow.file, position: Self.optionPosition(in: flow, step: id, shared: shared, handler: handler, option: chosenIndex))
            }
            frames[index].history.removeLast()
            move = .backOne
        case .restart:
            frames[index].history = [flow.startID]
            let before = frames[index].state
            frames[index].state = frames[index].initialState
            for key in Set(before.keys).union(frames[index].initialState.keys).sorted() where before[key] != frames[index].state[key] {
                pendingChanges.append(StateChange(key: frames[index].prefix + key, old: before[key], new: frames[index].state[key] ?? .null))
            }
            move = .restart
        case .undefined(let missing):
            throw RunError("step '\(name)' moves to '\(missing)', which is not defined", kind: .undefinedStep, step: name)
        }
        let changes = pendingChanges.count > 1 ? pendingChanges.sorted { $0.key < $1.key } : pendingChanges
        landings.append(Landing(traceIndex: trace.count, shownBefore: path.count))
        let taken = TraceEntry.Taken(file: flow.flow.file, handler: handler, shared: shared, option: chosenIndex)
        trace.append(TraceEntry(step: name, event: event, eventKind: eventKind, result: result, move: move, to: "", changes: changes, taken: taken))
        return frames[index].history.last!
    }

    /// Shows step `id` of the innermost flow; returns what follows at once: a `flow` step's nested flow shows its
    /// start step, and a finish step of a nested flow completes its parent's `flow` step.
    private mutating func arrive(at id: Int) throws(RunError) -> Work? {
        let index = frames.count - 1
        let flow = frames[index].flow
        let compiled = flow.steps[id]
        let name = Self.qualified(frames[index].prefix, flow.name(id))
        if compiled.kind == .flow {
            return .show(try enterNestedFlow(of: id, named: name))
        }
        shown += 1
        guard shown <= maxSteps else {
            throw RunError("the run showed more than \(maxSteps) steps without finishing; does the flow loop?", kind: .stepLimit, step: name)
        }
        path.append(name)
        guard compiled.kind == .finish else { return nil }
        let finishedOutcome = flow.flow.steps[id].outcome?.text ?? flow.name(id)
        if index == 0 {
            outcome = finishedOutcome
            return nil
        }
        // A nested flow finished: its parent's flow step completes with the outcome as event and the state as result.
        let child = frames.removeLast()
        var result = child.state
        for (key, type) in child.flow.stateTypes where type.optional && result[key] == nil { result[key] = .null }
        return .outcome(finishedOutcome, result: result)
    }

    /// Pushes the nested flow of the innermost flow's `flow` step `id`, with the state its `input` gives; returns
    /// its start step.
    private mutating func enterNestedFlow(of id: Int, named name: String) throws(RunError) -> Int {
        guard frames.count < Self.maxNesting else {
            throw RunError("nested flows are deeper than \(Self.maxNesting) levels at '\(name)'; do flows nest each other?", kind: .nestingLimit, step: name)
        }
        let parent = frames[frames.count - 1]
        let source = parent.flow.flow.steps[id]
        guard let resolver, let reference = source.flowPath else {
            throw RunError("step '\(name)' runs a nested flow, but nested flows cannot be loaded here", kind: .nestedFlowUnavailable, step: name)
        }
        var child: CompiledFlow
        do {
            child = try resolver.resolve(reference, from: parent.flow.flow.file)
        } catch {
            throw RunError(error.message, kind: error.kind, step: name, file: parent.flow.flow.file, position: source.flowPathPosition)
        }
        var state: [String: Value] = [:]
        let parentScope = scope(frames.count - 1, result: nil, resultTypes: nil)
        for (key, expression) in parent.flow.inputs[id] {
            let value = try evaluate(expression, parentScope, step: name, file: parent.flow.flow.file)
            guard let type = child.stateTypes[key] else {
                throw RunError("step '\(name)' passes '\(key)', which the nested flow's 'state' does not declare", kind: .undeclaredState, step: name,
                               file: parent.flow.flow.file, position: expression.source.position)
            }
            switch TypeCheck.coerce(value, to: type) {
            case .success(let coerced): state[key] = coerced
            case .failure(let mismatch):
                throw RunError("step '\(name)' passes '\(key)': \(mismatch.message)", kind: (value == .null ? .nullValue : .typeError), step: name, file: parent.flow.flow.file, position: expression.source.position)
            }
        }
        var first = child.startID
        if let (entryName, params) = pendingNestedEntry {
            // A run begun at an entry into this nested flow starts it at that entry; its inputs are not demanded.
            pendingNestedEntry = nil
            guard let entry = child.flow.entries.first(where: { $0.name.text == entryName }), let id = child.ids[entry.step.text] else {
                throw RunError("nested flow '\(name: reference)' has no entry '\(name: entryName)'", kind: .invalidStart, step: name)
            }
            let names = EntryPath.parameters(entry.path)
            for key in params.keys.sorted() where !names.contains(key) {
                throw RunError("the nested entry '\(entryName)' has no path parameter '\(key)'", kind: .invalidStart, step: name)
            }
            for (key, value) in try Self.entryState(entry, params: params, flow: child) { state[key] = value }
            first = id
        } else {
            for input in child.flow.requiredInputs where (state[input] ?? .null) == .null {
                throw RunError("step '\(name)' does not pass '\(input)', an input its nested flow requires", kind: .missingInput, step: name,
                               file: parent.flow.flow.file, position: source.flowPathPosition)
            }
        }
        frames.append(Frame(flow: child, state: state, initialState: state, history: [first], prefix: name + "/"))
        return first
    }

    /// The first number in `values` that is not finite (NaN, an infinity), with its key (`user.age` inside an
    /// object), looking at keys in order and inside objects at any depth; nil when every number is finite.
    static func firstNonFinite(in values: [String: Value]) -> (key: String, number: Double)? {
        // The usual case, flat values all finite, is told without sorting the keys.
        let plain = values.values.allSatisfy { value in
            switch value {
            case .number(let number): number.isFinite
            case .object: false
            default: true
            }
        }
        if plain { return nil }
        // A stack of objects being walked, rather than recursion: a host may hand in objects of any depth.
        var stack: [(prefix: String, fields: [(key: String, value: Value)], next: Int)] = [("", values.sorted { $0.key < $1.key }, 0)]
        while let top = stack.last {
            guard top.next < top.fields.count else {
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            let (key, value) = top.fields[top.next]
            switch value {
            case .number(let number) where !number.isFinite:
                return (top.prefix + key, number)
            case .object(let fields):
                stack.append((top.prefix + key + ".", fields.sorted { $0.key < $1.key }, 0))
            default:
                continue
            }
        }
        return nil
    }

    /// Checks a result against the step's declared shape: every non-optional key present, no unknown key, values
    /// of the declared types (ints become numbers where `number` is declared).
    static func checkResult(_ result: [String: Value], types: [String: TypeRef], step: String, flow: CompiledFlow) throws(RunError) -> [String: Value] {
        // The usual case, a result that fits, checked in any order; a result that does not is checked again in key
        // order below, so that the error names the first key that does not fit, the same each time.
        // The result itself is returned when no value changes type (an int where a number is declared), so that
        // the usual case makes no dictionary.
        var checked = result
        var fits = result.count <= types.count
        if fits {
            var declared = 0
            for (key, type) in types {
                guard let value = result.value(comparingKeys: key) else {
                    if type.optional { continue }
                    fits = false
                    break
                }
                declared += 1
                guard case .success(let coerced) = TypeCheck.coerce(value, to: type) else {
                    fits = false
                    break
                }
                if coerced != value { checked[key] = coerced }
            }
            // The result's keys are distinct: when as many of them are declared as it has, none is unknown.
            if declared != result.count { fits = false }
        }
        if fits { return checked }
        checked = [:]
        for key in result.keys.sorted() where types[key] == nil {
            throw RunError("the result of step '\(step)' has an unknown key '\(key)'\(Suggestions.didYouMean(key, in: types.keys.sorted()))", kind: .invalidCompletion, step: step)
        }
        for (key, type) in types.sorted(by: { $0.key < $1.key }) {
            guard let value = result[key] else {
                if type.optional { continue }
                throw RunError("the result of step '\(step)' is missing the key '\(key)'", kind: .invalidCompletion, step: step)
            }
            switch TypeCheck.coerce(value, to: type) {
            case .success(let coerced): checked[key] = coerced
            case .failure(let mismatch): throw RunError("the result of step '\(step)', key '\(key)': \(mismatch.message)", kind: .invalidCompletion, step: step)
            }
        }
        return checked
    }
}
