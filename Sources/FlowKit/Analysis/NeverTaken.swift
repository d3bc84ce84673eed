/// The options of target lists that no run takes (docs/format.md, "Options never taken"): those after an option
/// without `if`, and those whose `if`, decided exactly as in "Deciding guards", never holds when every earlier
/// option's `if` is false (or, in the handler of a derived event, never while the event's condition holds).
/// `unreachable_option` reports them, and reachability does not follow their moves.
struct NeverTaken: Sendable, Equatable {
    /// A target list's option: the list's owner (`"*"` or a step, by index in `Flow.steps`), the list (a handler by
    /// its index in `on`, or `next` as `on.count`, as `StepGraph.forEachTargetList` numbers them), and the option's
    /// index in the list.
    struct Option: Hashable, Sendable {
        /// The owning step's index in `Flow.steps`, nil for `"*"`.
        let step: Int?
        let list: Int
        let option: Int
    }

    /// Why an option is never taken.
    enum Reason: Hashable, Sendable {
        /// An earlier option has no `if`.
        case afterUnconditional
        /// Its own `if` never holds (in a derived event's handler: never while the event's condition holds).
        case neverHolds
        /// The derived event whose handler it is in is never raised at the step: its condition never holds there.
        case eventNeverHolds(String)
        /// Whenever its `if` holds (or, without one, always), an earlier option's `if` holds, or fails, first.
        case earlierFirst
        /// An earlier option's `if` always fails (docs/format.md, "Behind a certain run error"): it is never tried.
        case earlierIfFails
        /// Its own `if` always fails.
        case ifFails
        /// Its own `set` always fails (its `if`, and its `set`, are evaluated).
        case setFails
        /// The step's own `set`, which runs first on its moves, always fails, or a `flow` step's nested flow never
        /// starts (its `input` always fails): it is never tried.
        case stepFails
        /// A derived event evaluated before it always holds (where it evaluates without a run error): it is never
        /// tried. Judged for the rules that foresee run errors only.
        case preempted
        /// It is a `flow` step's, for outcomes its nested flow never finishes with (docs/format.md, "Behind a certain
        /// run error"): it is never tried.
        case outcomeNeverReached
        /// Its own `if` holds only where its evaluation fails (a conjunct after the first always fails): it is tried,
        /// and never taken.
        case holdsOnlyByFailing
        /// The derived event whose handler (the step's own) it is in holds at the step only where its evaluation
        /// fails: it is never tried.
        case eventHoldsOnlyByFailing

        /// Whether a run ever evaluates the option's `if` (the options before it may all fail).
        var isTried: Bool {
            switch self {
            case .afterUnconditional, .eventNeverHolds, .earlierIfFails, .stepFails, .preempted, .outcomeNeverReached, .eventHoldsOnlyByFailing: false
            case .neverHolds, .earlierFirst, .ifFails, .setFails, .holdsOnlyByFailing: true
            }
        }

        /// Whether a run ever evaluates the option's `set`.
        var runsSet: Bool { self == .setFails }

        /// Whether it is never taken because of a run error that happens on every evaluation: not an
        /// `unreachable_option` finding, and followed by the graph rules (one mistake, one finding).
        var isRunError: Bool {
            switch self {
            case .earlierIfFails, .ifFails, .setFails, .stepFails, .preempted, .outcomeNeverReached, .holdsOnlyByFailing, .eventHoldsOnlyByFailing: true
            case .afterUnconditional, .neverHolds, .eventNeverHolds, .earlierFirst: false
            }
        }
    }

    /// The options never taken, with why.
    private(set) var options: [Option: Reason] = [:]
    /// The `flow` steps (by index) that never complete: their nested flow never starts or never finishes (docs/format.md,
    /// "Behind a certain run error").
    private(set) var neverCompleting: Set<Int> = []

    /// Whether `step` is a `flow` step that never completes.
    func neverCompletes(_ step: Int) -> Bool { !neverCompleting.isEmpty && neverCompleting.contains(step) }
    /// The `flow` steps (by index) whose nested flow can finish with some outcomes only, with those outcomes
    /// (docs/format.md, "Behind a certain run error").
    private(set) var finishing: [Int: Set<String>] = [:]

    /// The steps (by index) whose own `set` always fails where it runs (docs/format.md, "Behind a certain run
    /// error"): first on every completion of a `flow` step, and on every completion with a result of a step with
    /// `result`, the only ones that evaluate derived events there.
    private(set) var setFailing: Set<Int> = []

    /// Whether `step` fails in its own `set` wherever it runs: no run gets to a `flow` step's handlers, nor
    /// evaluates a derived event at a step with `result`.
    func setAlwaysFails(_ step: Int) -> Bool { !setFailing.isEmpty && setFailing.contains(step) }

    /// Whether `step`, a `flow` step, can finish with `outcome`: false when its nested flow never finishes with it.
    func canFinish(_ step: Int, with outcome: String) -> Bool { finishing[step]?.contains(outcome) ?? true }
    /// The guarded lists not decided because the flow's budget of evaluations ran out.
    private(set) var unjudged = 0

    /// No option is known never taken.
    static let none = NeverTaken()

    private init() {}

    /// Why `option` is never taken, nil when a run may take it.
    func reason(_ option: Option) -> Reason? { options[option] }

    /// The derived events of `flow` whose condition holds whenever it evaluates without a run error, and holds for
    /// some value: a constant condition that is true, or one in the decided forms ("Deciding guards") no combination
    /// of whose values makes false. Conditions that read `result` are not judged (their shape is the step's).
    static func alwaysHolding(_ flow: Flow, parse: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError>) -> Set<String> {
        var holding: Set<String> = []
        var budget = GuardSpace.fileBudget
        let stateTypes = flow.stateTypes
        for event in DerivedEventOrder(flow).events {
            guard let source = event.expression, case .success(let expression) = parse(source) else { continue }
            if let constant = ConstantCondition.value(of: expression.root) {
                if constant { holding.insert(event.name.text) }
                continue
            }
            guard let space = GuardSpace(conditions: [expression.root], stateTypes: stateTypes, resultTypes: nil, resultMayBeAbsent: false),
                  space.combinations <= budget else { continue }
            budget -= space.combinations
            var holds = false
            let falsified = space.first { scope in
                guard let value = try? expression.evaluateCondition(in: scope) else { return false }
                if value { holds = true }
                return !value
            }
            if falsified == nil && holds { holding.insert(event.name.text) }
        }
        return holding
    }

    /// How many options are never taken.
    var count: Int { options.count }

    /// These, and the options of `flow`'s steps that expressions always failing (`alwaysFailing`, docs/format.md,
    /// "Behind a certain run error") keep from being taken: only a step's own expressions count (its `set`, its own
    /// lists' `if`s and `set`s); an option never tried keeps its reason, one never taken for another keeps it unless no
    /// run now tries it.
    /// `neverStarting`: the `flow` steps (by name) whose nested flow never starts or never finishes (docs/format.md,
    /// "Behind a certain run error"): no move leaves them, and their `set` never runs.
    /// `failingEvents`: the derived events whose expression always fails; at a step that evaluates one (not a `flow`
    /// step), its handler, those of the derived events after it and `next` are never tried.
    /// `alwaysHolding`: the derived events whose condition holds whenever it evaluates without a run error: at a
    /// step that evaluates one, the handlers of the derived events after it and `next` are never tried.
    /// `finishing`: the `flow` steps (by name) whose nested flow can finish with some outcomes only, with those: the
    /// step's own handlers of the others are never tried, nor its own `next` when its own or `"*"`'s handlers take
    /// every outcome it can finish with.
    func addingRunErrors(of flow: Flow, alwaysFailing: Set<ExpressionSource>, neverStarting: Set<String> = [],
                         failingEvents: FailingEvents = FailingEvents(), alwaysHolding: Set<String> = [],
                         alwaysHoldingAt: [Int: Set<String>] = [:],
                         finishing: [String: Set<String>] = [:], neverHolding: Set<ExpressionSource> = []) -> NeverTaken {
        guard !alwaysFailing.isEmpty || !neverStarting.isEmpty || !failingEvents.isEmpty || !alwaysHolding.isEmpty || !finishing.isEmpty
            || !neverHolding.isEmpty || !alwaysHoldingAt.isEmpty else { return self }
        var extended = self
        let derived = Set(flow.events.lazy.filter { $0.expression != nil }.map(\.name.text))
        let order = DerivedEventOrder(flow)
        for (id, step) in flow.steps.enumerated() where step.kind != .finish {
            // The derived events from the first that always fails here on: never gone past (those before it may hold).
            // Or from the one after the first that always holds.
            var failedFrom: Set<String>?
            var preempted = false
            if !failingEvents.isEmpty || !alwaysHolding.isEmpty || !alwaysHoldingAt.isEmpty {
                let handled = order.evaluated(at: step).map(\.name.text)
                if let first = handled.firstIndex(where: { failingEvents.fails($0, at: id) || alwaysHolding.contains($0) || alwaysHoldingAt[id]?.contains($0) == true }) {
                    preempted = !failingEvents.fails(handled[first], at: id)
                    failedFrom = Set(handled[(preempted ? first + 1 : first)...])
                }
            }
            // The step's `set` runs first on a `flow` step's every move and on a step with `result`'s result moves.
            let setRuns = step.kind == .flow || step.result != nil
            let neverCompletes = step.kind == .flow && neverStarting.contains(step.name.text)
            if neverCompletes { extended.neverCompleting.insert(id) }
            let setFails = setRuns && step.set.contains { alwaysFailing.contains($0.expression) } || neverCompletes
            if setFails && !neverCompletes { extended.setFailing.insert(id) }
            // The lists of a `flow` step no outcome it can finish with takes.
            var outcomeNeverReached: (Int) -> Bool = { _ in false }
            if step.kind == .flow, !neverCompletes, let outcomes = finishing[step.name.text] {
                extended.finishing[id] = outcomes
                let handledByAny = Set(flow.anyStep?.on.map(\.event.text) ?? [])
                let nextTaken = outcomes.contains { step.handler(for: $0) == nil && !handledByAny.contains($0) }
                outcomeNeverReached = { list in list >= step.on.count ? !nextTaken : !outcomes.contains(step.on[list].event.text) }
            }
            StepGraph.forEachTargetList(of: step) { list, targets in
                let isResultMove = step.kind == .flow || list >= step.on.count || derived.contains(step.on[list].event.text)
                let eventFails = failedFrom.map { events in list >= step.on.count || events.contains(step.on[list].event.text) } ?? false
                let unreached = outcomeNeverReached(list)
                // A derived event never raised here: its own handler is never tried.
                let neverRaised = list < step.on.count && failingEvents.neverHoldingAt[id]?.contains(step.on[list].event.text) == true
                var failedBefore = false
                for (index, target) in targets.enumerated() {
                    let option = Option(step: id, list: list, option: index)
                    let prior = extended.options[option]
                    if let prior, !prior.isTried { continue }
                    if setFails && isResultMove {
                        extended.options[option] = .stepFails
                        continue
                    }
                    if unreached {
                        extended.options[option] = .outcomeNeverReached
                        continue
                    }
                    if neverRaised {
                        extended.options[option] = .eventHoldsOnlyByFailing
                        continue
                    }
                    if eventFails {
                        extended.options[option] = preempted ? .preempted : .stepFails
                        continue
                    }
                    if failedBefore {
                        extended.options[option] = .earlierIfFails
                        continue
                    }
                    if let condition = target.condition, alwaysFailing.contains(condition) {
                        extended.options[option] = .ifFails
                        failedBefore = true
                    } else if prior == nil, let condition = target.condition, neverHolding.contains(condition) {
                        extended.options[option] = .holdsOnlyByFailing
                    } else if prior == nil, target.set.contains(where: { alwaysFailing.contains($0.expression) }) {
                        extended.options[option] = .setFails
                    }
                }
            }
        }
        // `"*"`'s lists: a derived event `"*"` handles is evaluated at every step that evaluates derived events, so
        // when one always fails everywhere, no run gets past it anywhere: `"*"`'s handlers of it and of the derived
        // events after it, and `"*"`'s `next`, are never tried there (unless a `flow` step may use them, for an
        // outcome of that name or one it does not handle).
        if let any = flow.anyStep, let first = order.handledByStar.firstIndex(where: { failingEvents.everywhere.contains($0.name.text) }) {
            let stopped = Set(order.events[order.events.firstIndex(where: { $0.name.text == order.handledByStar[first].name.text })!...].map(\.name.text))
            let uses = FlowStepHandlers(flow)
            let flowStepUsesNext = flow.steps.contains { $0.kind == .flow && $0.next == nil }
            StepGraph.forEachTargetList(of: any) { list, targets in
                let event = list < any.on.count ? any.on[list].event.text : nil
                let never = event.map { stopped.contains($0) && !uses.someFlowStepUsesTheShared($0) } ?? !flowStepUsesNext
                guard never else { return }
                for index in targets.indices {
                    let option = Option(step: nil, list: list, option: index)
                    if let prior = extended.options[option], !prior.isTried { continue }
                    extended.options[option] = .stepFails
                }
            }
        }
        return extended
    }

    /// Whether any option is never taken.
    var isEmpty: Bool { options.isEmpty }

    /// The steps that own target lists, `"*"` first (nil) then each step by its index in `Flow.steps`: the owners
    /// `Option` names.
    static func owners(of flow: Flow) -> [(id: Int?, step: Step)] {
        (flow.anyStep.map { [(nil, $0)] } ?? []) + flow.steps.enumerated().map { ($0.offset, $0.element) }
    }

    /// The options of `flow`'s lists that no run takes. `parse` gives the lists' expressions (a lint run's memo);
    /// `judge` false decides only what the lists' order says (options after one without `if`), as for a flow that
    /// is not well formed.
    init(flow: Flow, parse: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError>, judge: Bool = true) {
        let stateTypes = flow.stateTypes
        let derived = Set(flow.events.filter { $0.expression != nil }.map(\.name.text))
        var eventConditions: [String: FlowExpression] = [:]
        for event in flow.events where eventConditions[event.name.text] == nil {
            if let source = event.expression, case .success(let expression) = parse(source) { eventConditions[event.name.text] = expression }
        }
        let uses = FlowStepHandlers(flow)
        // Lists written alike (the same guards, assumption and result shape) are decided once: the indexes of the
        // options never taken with their reasons, nil when not decided.
        var decided: [[UInt8]: [(Int, Reason)]?] = [:]
        var budget = GuardSpace.fileBudget
        let steps = Self.owners(of: flow)
        for (id, step) in steps {
            let isAny = id == nil
            let resultTypes = isAny || step.kind == .flow ? nil : step.result?.typesByName
            StepGraph.forEachTargetList(of: step) { list, targets in
                let handler = list < step.on.count ? step.on[list] : nil
                let event = handler?.event.text
                let assumed: FlowExpression? = event.flatMap { event in
                    step.kind == .flow || (isAny && uses.someFlowStepUsesTheShared(event)) ? nil : eventConditions[event]
                }
                let explicitEvent = event.flatMap { derived.contains($0) || step.kind == .flow ? nil : $0 }
                // A finish step's lists never run (`finish_has_transitions`): only their order is judged.
                for (index, reason) in Self.decide(targets, judge: judge && step.kind != .finish, assuming: assumed, eventName: event, explicitEvent: explicitEvent,
                                                   stateTypes: stateTypes, resultTypes: resultTypes, parse: parse,
                                                   decided: &decided, budget: &budget, unjudged: &unjudged) {
                    options[Option(step: id, list: list, option: index)] = reason
                }
            }
        }
    }

    /// The options of one list never taken, with why.
    private static func decide(_ targets: [Target], judge: Bool, assuming proposed: FlowExpression?, eventName: String?, explicitEvent: String?,
                               stateTypes: [String: TypeRef], resultTypes: [String: TypeRef]?,
                               parse: (ExpressionSource) -> Result<FlowExpression, ExpressionParseError>,
                               decided: inout [[UInt8]: [(Int, Reason)]?], budget: inout Int, unjudged: inout Int) -> [(Int, Reason)] {
        guard !targets.isEmpty else { return [] }
        let firstUnconditional = targets.firstIndex { $0.condition == nil }
        var found: [(Int, Reason)] = []
        if let firstUnconditional {
            for index in (firstUnconditional + 1)..<targets.count { found.append((index, .afterUnconditional)) }
        }
        // The options tried before any unconditional one, and it: their `if`s decide which is taken.
        var tried = firstUnconditional.map { $0 + 1 } ?? targets.count
        // A list whose only option has no `if`, and no assumption that could fail, takes it whenever it runs.
        guard judge, tried > 1 || proposed != nil || targets[0].condition != nil else { return found }
        var expressions: [FlowExpression] = []
        for target in targets[..<tried] {
            guard let source = target.condition else { continue }
            guard case .success(var expression) = parse(source) else { return found }
            // A constant condition (docs/format.md, "Parts of an expression no run evaluates") is decided as its value.
            if let constant = ConstantCondition.value(of: expression.root), GuardSpace.literal(expression.root) == nil {
                expression = FlowExpression(source: expression.source, root: .literal(.bool(constant), expression.root.span))
            }
            expressions.append(expression)
        }
        // The event's name too, when its condition is assumed: a reason names it.
        let signature = GuardSpace.signature(expressions.map(\.source.text) + ["\u{1}", String(tried), proposed?.source.text ?? "",
                                                                            proposed == nil ? "" : "of " + (eventName ?? ""),
                                                                            explicitEvent.map { "event " + $0 } ?? ""],
                                             resultTypes: resultTypes)
        if let known = decided[signature] {
            return found + (known ?? [])
        }
        // An event condition beyond the decided forms is no assumption (the list is decided without it).
        var built = GuardSpace.assuming(proposed, conditions: expressions.map(\.root), stateTypes: stateTypes,
                                        resultTypes: resultTypes, resultMayBeAbsent: explicitEvent != nil)
        if built == nil {
            // An option's fate depends only on the `if`s up to it: the options before the first `if` outside the
            // decided forms are decided over those before it.
            var condition = 0
            for index in 0..<tried where targets[index].condition != nil {
                if !GuardSpace.isDecided(expressions[condition].root, stateTypes: stateTypes, resultTypes: resultTypes) {
                    tried = index
                    expressions.removeSubrange(condition...)
                    if tried > 0 {
                        built = GuardSpace.assuming(proposed, conditions: expressions.map(\.root), stateTypes: stateTypes,
                                                    resultTypes: resultTypes, resultMayBeAbsent: explicitEvent != nil)
                    }
                    break
                }
                condition += 1
            }
        }
        guard tried > 0, let (space, assuming) = built, assuming != nil || !expressions.isEmpty else {
            decided[signature] = .some(nil)
            return found
        }
        let cost = space.combinations * (expressions.count + (assuming == nil ? 0 : 1))
        guard cost <= budget else {
            unjudged += 1
            return found
        }
        budget -= cost
        // For every combination, the option taken: the first whose `if` holds. A combination where an `if` tried
        // up to it (or the event's condition) fails to evaluate is no evidence either way: that run stops with a
        // run error another rule reports, and the options after it are judged as if it did not (one mistake, one
        // finding). So an option is never taken when some combination evaluates every `if` up to it, and none of
        // those takes it.
        var taken = [Bool](repeating: false, count: tried)
        var clean = [Bool](repeating: false, count: tried)
        var holds = [Bool](repeating: false, count: tried)
        var eventHolds = false
        var eventEvaluates = false
        _ = space.first { scope in
            if let assuming {
                guard let holding = try? assuming.evaluateCondition(in: scope) else { return false }
                eventEvaluates = true
                guard holding else { return false }
                eventHolds = true
            }
            var expression = 0
            var chosen: Int?
            for index in 0..<tried {
                let holdsHere: Bool?
                if targets[index].condition == nil {
                    holdsHere = true
                } else {
                    holdsHere = try? expressions[expression].evaluateCondition(in: scope)
                    expression += 1
                }
                guard let holdsHere else { break }
                clean[index] = true
                if holdsHere {
                    holds[index] = true
                    if chosen == nil { chosen = index }
                }
            }
            if let chosen { taken[chosen] = true }
            return false
        }
        var never: [(Int, Reason)] = []
        if assuming != nil, eventEvaluates, !eventHolds, let eventName {
            // The event's condition evaluates, and never holds: no option runs.
            never = (0..<tried).map { ($0, .eventNeverHolds(eventName)) }
        } else {
            for index in 0..<tried where clean[index] && !taken[index] {
                never.append((index, holds[index] ? .earlierFirst : .neverHolds))
            }
        }
        decided[signature] = .some(never)
        return found + never
    }
}

/// The derived events of a flow in `events` order (each name's first declaration, when it has an expression), and
/// those a step evaluates on a move without an explicit event: the ones it or `"*"` handles, until one holds
/// (docs/format.md, "Running a flow", step 2).
struct DerivedEventOrder {
    /// The derived events, in order.
    let events: [EventDeclaration]
    /// The events `"*"` handles.
    let starHandles: Set<String>

    init(_ flow: Flow) {
        var seen: Set<String> = []
        events = flow.events.filter { seen.insert($0.name.text).inserted && $0.expression != nil }
        starHandles = Set((flow.anyStep?.on ?? []).map(\.event.text))
    }

    /// The derived events `step` evaluates, in order: none at a `flow` step (its handlers run for its nested flow's
    /// outcomes) or a finish step.
    func evaluated(at step: Step) -> [EventDeclaration] {
        guard step.kind != .flow && step.kind != .finish else { return [] }
        return events.filter { step.handler(for: $0.name.text) != nil || starHandles.contains($0.name.text) }
    }

    /// Those `"*"` handles: every step that uses one of `"*"`'s lists evaluates them.
    var handledByStar: [EventDeclaration] { events.filter { starHandles.contains($0.name.text) } }
}
