/// `non_exhaustive_guards`: a target list whose every option has an `if`, where some values make every `if` false,
/// so the run stops with "no option's condition holds".
enum NonExhaustiveGuardsRule: Rule {
    package static let description = RuleDescription(
        identifier: .nonExhaustiveGuards,
        name: "Non-exhaustive guards",
        summary: "Every option of a target list has an 'if', and some values make them all false, so the run stops there.",
        rationale: """
            The options of a target list are tried in order; when none has its 'if' hold, the run stops with "no \
            option's condition holds". Where the guards compare state and result keys of bool, enum, int, number \
            or text type with literals (==, !=, <, <=, >, >=, in, exists, and !, &&, || of these), flowkit decides \
            exactly whether some values of the keys' declared types fail every guard, and names the first such \
            values. Add an option without 'if' as the fallback, or a guard for those values. Guards beyond these \
            forms are not judged.
            """,
        severity: .warning,
        triggeringExamples: [
            """
            flowkit: 1
            flow: review
            start: check
            steps:
              check:
                result: { verdict: [approved, rejected, pending] }
                next:
                  - { forward: done, if: ↓"result.verdict == 'approved'" }
                  - { forward: retry, if: "result.verdict == 'rejected'" }
              retry: { next: check }
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: limits
            start: amount
            steps:
              amount:
                result: { value: int }
                next:
                  - { forward: small, if: ↓"result.value < 100" }
                  - { forward: large, if: "result.value > 100" }
              small: { kind: finish }
              large: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: review
            start: check
            steps:
              check:
                result: { verdict: [approved, rejected, pending] }
                next:
                  - { forward: done, if: "result.verdict == 'approved'" }
                  - { forward: retry, if: "result.verdict in ['rejected', 'pending']" }
              retry: { next: check }
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: limits
            start: amount
            steps:
              amount:
                result: { value: int }
                next:
                  - { forward: small, if: "result.value <= 100" }
                  - { forward: large, if: "result.value > 100" }
              small: { kind: finish }
              large: { kind: finish }
            """,
        ])

    /// Needs the flow's graph: its reachable steps.
    static let needs: RuleNeeds = [.graph]

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow else { return [] }
        let stateTypes = flow.stateTypes
        let derived = Set(flow.events.filter { $0.expression != nil }.map(\.name.text))
        // A handler of a derived event runs only when the event's condition held: an assumption of its list.
        var eventConditions: [String: FlowExpression] = [:]
        for event in flow.events where eventConditions[event.name.text] == nil {
            if let source = event.expression, case .success(let expression) = context.memo.parse(source) { eventConditions[event.name.text] = expression }
        }
        // (A `"*"` handler a `flow` step uses also runs there for an outcome of that name, with no such assumption.)
        let uses = FlowStepHandlers(flow, outcomes: context.nestedOutcomes)
        func flowStepsUse(_ event: String) -> Bool { uses.someFlowStepUsesTheShared(event) }
        var findings: [Diagnostic] = []
        // Lists written alike (the same guards over the same result shape) are decided once: the first failing
        // combination in words, or nil when the guards cover every value.
        var decided: [[UInt8]: String?] = [:]
        var budget = GuardSpace.fileBudget
        var unjudged = 0
        // Only lists a run can evaluate (docs/format.md, "Only where runs go"): a step's when a run reaches it,
        // a `"*"` list when a reachable step uses it.
        let reachable = context.reachableSteps
        let neverTaken = context.neverTaken
        var anyUsed: (handled: Set<String>, next: Bool)?
        if let reachable, flow.anyStep != nil {
            var events: Set<String> = Set(flow.anyStep?.on.map(\.event.text) ?? [])
            var handled: Set<String> = []
            var next = false
            for (id, step) in flow.steps.enumerated() where reachable[id] && step.kind != .finish {
                for event in events where step.handler(for: event) == nil { handled.insert(event) }
                events.subtract(handled)
                if step.next == nil { next = true }
            }
            anyUsed = (handled, next)
        }
        for (index, step) in flow.anyStepThenSteps.enumerated() where step.kind != .finish {
            let isAny = step.name.text == "*"
            if let reachable, !isAny, !reachable[index - (flow.anyStep == nil ? 0 : 1)] { continue }
            // The result the lists read: the step's declared one (not `"*"`'s, shared by every step, nor a `flow`
            // step's, which is its nested flow's final state).
            let resultTypes = isAny || step.kind == .flow ? nil : step.result?.typesByName
            // A list of a step's own with an option never taken for a run error (docs/format.md, "Behind a certain run
            // error"): a run that tries it stops there, or never gets to the options, so none is left holding nothing.
            func stopsFirst(_ listIndex: Int, count: Int) -> Bool {
                guard !isAny, !neverTaken.isEmpty else { return false }
                let id = index - (flow.anyStep == nil ? 0 : 1)
                return (0..<count).contains { option in
                    switch neverTaken.reason(NeverTaken.Option(step: id, list: listIndex, option: option)) {
                    // (An option whose `set` always fails can still fail its `if`: then the next is tried.)
                    case .ifFails?, .stepFails?, .preempted?, .outcomeNeverReached?, .eventHoldsOnlyByFailing?: true
                    default: false
                    }
                }
            }
            func check(_ targets: [Target], list: @autoclosure () -> String, listIndex: Int, explicitEvent: String?, assuming proposed: FlowExpression? = nil) {
                guard !targets.isEmpty, targets.allSatisfy({ $0.condition != nil }), !stopsFirst(listIndex, count: targets.count) else { return }
                var conditions: [ExpressionNode] = []
                var expressions: [FlowExpression] = []
                for target in targets {
                    guard let source = target.condition, case .success(let expression) = context.memo.parse(source) else { return }
                    conditions.append(expression.root)
                    expressions.append(expression)
                }
                // An explicit event may come without a result at a step that declares one.
                let owner = isAny ? "'\"*\"'" : "step '\(step.name.text)'"
                let signature = GuardSpace.signature(expressions.map(\.source.text) + ["\u{1}", proposed?.source.text ?? "",
                                                                                    explicitEvent.map { "event " + $0 } ?? ""],
                                                     resultTypes: resultTypes)
                let when: String
                if let known = decided[signature] {
                    guard let known else { return }
                    when = known
                } else {
                    guard let found = search() else { return }
                    when = found
                }
                let values = when.isEmpty ? "no option's 'if' ever holds" : "no option's 'if' holds when \(when)"
                findings.append(context.finding(self, at: expressions[0].source.position, step: step.name.text, subject: list(),
                                                "\(verbatim: list()) of \(verbatim: owner): \(verbatim: values); add a fallback (an option without 'if') or a guard for it"))

                /// The first failing combination in words, recorded for the lists written alike; nil when there is
                /// none, or the list is not decided.
                func search() -> String? {
                // An event condition beyond the decided forms is no assumption (the list is still judged without it).
                guard let (space, assuming) = GuardSpace.assuming(proposed, conditions: conditions, stateTypes: stateTypes,
                                                                 resultTypes: resultTypes, resultMayBeAbsent: explicitEvent != nil) else { return nil }
                let cost = space.combinations * (conditions.count + (assuming == nil ? 0 : 1))
                guard cost <= budget else {
                    unjudged += 1
                    return nil
                }
                budget -= cost
                let failing = space.first { scope in
                    if let assuming, (try? assuming.evaluateCondition(in: scope)) != true { return false }
                    return expressions.allSatisfy { expression in
                        guard let holds = try? expression.evaluateCondition(in: scope) else { return false }
                        return !holds
                    }
                }
                guard let valuation = failing else {
                    decided[signature] = .some(nil)
                    return nil
                }
                var when = space.describe(valuation)
                if !valuation.hasResult, let event = explicitEvent {
                    let withoutResult = "the step completes with event '\(event)' and no result"
                    when = when.isEmpty ? withoutResult : withoutResult + ", and " + when
                }
                decided[signature] = .some(when)
                return when
                }
            }
            for (listIndex, handler) in step.on.enumerated() {
                let event = handler.event.text
                if isAny, let anyUsed, !anyUsed.handled.contains(event) { continue }
                let assumed = step.kind == .flow || (isAny && flowStepsUse(event)) ? nil : eventConditions[event]
                check(handler.targets, list: "on '\(event)'", listIndex: listIndex, explicitEvent: derived.contains(event) || step.kind == .flow ? nil : event,
                      assuming: assumed)
            }
            if let next = step.next, !(isAny && anyUsed?.next == false) { check(next, list: "next", listIndex: step.on.count, explicitEvent: nil) }
        }
        if unjudged > 0 {
            findings.append(context.finding(self, at: flow.start.position,
                                            "\(unjudged) guarded target list\(unjudged == 1 ? " was" : "s were") not judged: deciding them would take more than "
                                            + "\(GuardSpace.fileBudget) evaluations of their guards in one flow"))
        }
        return findings
    }
}


/// Which events every `flow` step handles itself: a `"*"` handler of any other event runs at some `flow` step for an
/// outcome of that name. Counted once, so that asking for each of many handlers costs no pass over the steps.
struct FlowStepHandlers {
    /// Per `flow` step (by index): the events it handles itself, and the outcomes its nested flow can finish with
    /// (nil when its nested flow is not known).
    private var steps: [(handled: Set<String>, outcomes: Set<String>?)] = []

    /// `outcomes` gives the outcomes a `flow` step's nested flow has (those of its finish steps), nil when not known:
    /// a `flow` step uses the `"*"` handler of an event only for an outcome of that name.
    init(_ flow: Flow, outcomes: (Step) -> Set<String>? = { _ in nil }) {
        for step in flow.steps where step.kind == .flow {
            steps.append((Set(step.on.map(\.event.text)), outcomes(step)))
        }
    }

    /// Whether some `flow` step uses the `"*"` handler of `event`: it does not handle `event` itself, and its nested
    /// flow may finish with an outcome of that name.
    func someFlowStepUsesTheShared(_ event: String) -> Bool {
        steps.contains { !$0.handled.contains(event) && ($0.outcomes?.contains(event) ?? true) }
    }
}
