/// `shadowed_event`: a derived event that is never raised at a step that handles it, because whenever its
/// condition holds there, an event declared before it holds too and is raised instead.
enum ShadowedEventRule: Rule {
    package static let description = RuleDescription(
        identifier: .shadowedEvent,
        name: "Shadowed event",
        summary: "A derived event is never raised at a step that handles it: an event declared before it holds whenever it does.",
        rationale: """
            A step raises the first derived event, in the order of 'events', among those it or "*" handles whose \
            condition holds. So a derived event whose condition implies an earlier one's (tooManyAttempts: \
            result.status == 'rejected' && state.attempts >= 3 after rejectedRetry: result.status == 'rejected') \
            is never raised at a step that handles both, and its handler never runs there. Where the conditions \
            compare state and result keys of bool, enum, int, number or text type with literals, flowkit decides \
            this exactly; beyond those forms it says nothing. The finding is at the handler (its own, or the "*" \
            handler the steps use), and at the event itself when it is raised at no step that handles it. Declare \
            the narrower event first.
            """,
        severity: .warning,
        triggeringExamples: [
            """
            flowkit: 1
            flow: signIn
            start: password
            state: { attempts: int }
            inputs: [attempts]
            events:
              rejectedRetry: "result.status == 'rejected'"
              ↓tooManyAttempts: "result.status == 'rejected' && state.attempts >= 3"
            steps:
              password:
                result: { status: [ok, rejected] }
                on: { rejectedRetry: password, ↓tooManyAttempts: locked }
                next: done
              locked: { kind: finish }
              done: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: signIn
            start: password
            state: { attempts: int }
            inputs: [attempts]
            events:
              tooManyAttempts: "result.status == 'rejected' && state.attempts >= 3"
              rejectedRetry: "result.status == 'rejected'"
            steps:
              password:
                result: { status: [ok, rejected] }
                on: { rejectedRetry: password, tooManyAttempts: locked }
                next: done
              locked: { kind: finish }
              done: { kind: finish }
            """,
        ])

    /// Needs the document and its flow model only.
    static let needs: RuleNeeds = []

    /// A derived event never raised at a step, and the earlier events that are raised instead.
    struct Shadow {
        let event: Int
        let earlier: [Int]
    }

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow else { return [] }
        let derived: [(index: Int, expression: FlowExpression)] = flow.events.indices.compactMap { index in
            guard let source = flow.events[index].expression, case .success(let expression) = context.memo.parse(source) else { return nil }
            return (index, expression)
        }
        guard derived.count > 1 else { return [] }
        let stateTypes = flow.stateTypes
        let anyHandled = Set((flow.anyStep?.on ?? []).map(\.event.text))
        // Steps evaluate the same events against the same result shape often ("*" handlers): decided once.
        var memo: [[UInt8]: [Shadow]] = [:]
        // For each event: the steps that evaluate it, and those where it is shadowed (with the earlier events).
        var evaluatedAt: [Int: [String]] = [:]
        var shadowedAt: [Int: [(step: Step, earlier: [Int])]] = [:]
        var budget = GuardSpace.fileBudget
        var unjudged = 0
        for step in flow.steps where step.kind != .flow && step.kind != .finish {
            let own = Set(step.on.map(\.event.text))
            let evaluated = derived.filter { own.contains(flow.events[$0.index].name.text) || anyHandled.contains(flow.events[$0.index].name.text) }
            guard evaluated.count > 1 else {
                for event in evaluated { evaluatedAt[event.index, default: []].append(step.name.text) }
                continue
            }
            let resultTypes = step.result?.typesByName
            let key = GuardSpace.signature(evaluated.map { String($0.index) }, resultTypes: resultTypes)
            let shadows = memo[key] ?? shadows(evaluated, stateTypes: stateTypes, resultTypes: resultTypes, budget: &budget, unjudged: &unjudged)
            memo[key] = shadows
            for event in evaluated { evaluatedAt[event.index, default: []].append(step.name.text) }
            for shadow in shadows { shadowedAt[shadow.event, default: []].append((step, shadow.earlier)) }
        }
        var findings: [Diagnostic] = []
        func names(_ indexes: [Int]) -> String {
            GuardSpace.list(indexes.map { "'\(flow.events[$0].name.text)'" })
        }
        func instead(_ earlier: [Int]) -> String {
            earlier.count == 1 ? "\(names(earlier)), declared before it, holds too and is raised instead"
                : "one of \(names(earlier)), declared before it, holds too and is raised instead"
        }
        var anyReported: Set<Int> = []
        for (event, places) in shadowedAt.sorted(by: { $0.key < $1.key }) {
            let name = flow.events[event].name.text
            for (step, earlier) in places {
                if let handler = step.on.first(where: { $0.event.text == name }) {
                    findings.append(context.finding(self, at: handler.event.position, step: step.name.text, subject: name,
                                                    "derived event '\(name: name)' is never raised at step '\(name: step.name.text)': whenever it holds there, \(verbatim: instead(earlier)); declare '\(name: name)' first, or narrow the earlier one"))
                } else if let any = flow.anyStep, let handler = any.on.first(where: { $0.event.text == name }), anyReported.insert(event).inserted {
                    let others = places.count - 1
                    let more = others > 0 ? " (and \(others) more step\(others == 1 ? "" : "s")), which use" : ", which uses"
                    findings.append(context.finding(self, at: handler.event.position, step: "*", subject: name,
                                                    "derived event '\(name: name)' is never raised at step '\(name: step.name.text)'\(verbatim: more) this handler: whenever it holds there, \(verbatim: instead(earlier)); declare '\(name: name)' first, or narrow the earlier one"))
                }
            }
            if places.count == evaluatedAt[event]?.count {
                let earlier = Array(Set(places.flatMap(\.earlier))).sorted()
                findings.append(context.finding(self, at: flow.events[event].name.position, subject: name,
                                                "derived event '\(name: name)' is never raised: at every step that handles it, \(verbatim: instead(earlier))"))
            }
        }
        if unjudged > 0 {
            findings.append(context.finding(self, at: flow.start.position,
                                            "\(unjudged) derived event\(unjudged == 1 ? " was" : "s were") not judged at some step: deciding them would take more than "
                                            + "\(GuardSpace.fileBudget) evaluations of their conditions in one flow"))
        }
        return findings
    }

    /// The events of `evaluated` (in declaration order) that are never raised when evaluated in that order, where
    /// the conditions are decided.
    static func shadows(_ evaluated: [(index: Int, expression: FlowExpression)], stateTypes: [String: TypeRef],
                        resultTypes: [String: TypeRef]?, budget: inout Int, unjudged: inout Int) -> [Shadow] {
        var found: [Shadow] = []
        for position in 1..<evaluated.count {
            // Building the question reads its conditions: charged before, so that a flow of many events stops
            // building questions once its budget is spent.
            guard budget >= position + 1 else {
                unjudged += 1
                continue
            }
            budget -= position + 1
            let candidate = evaluated[position].expression
            let earlier = evaluated[..<position]
            guard let space = GuardSpace(conditions: evaluated[...position].map(\.expression.root), stateTypes: stateTypes,
                                         resultTypes: resultTypes, resultMayBeAbsent: false) else { continue }
            // Up to three searches (raised, holds at all, the events that hold with it), each evaluating every condition.
            let cost = space.combinations * (position + 1) * 3
            guard cost <= budget else {
                unjudged += 1
                continue
            }
            budget -= cost
            func holds(_ expression: FlowExpression, _ scope: EvaluationScope) -> Bool {
                (try? expression.evaluateCondition(in: scope)) == true
            }
            func fails(_ expression: FlowExpression, _ scope: EvaluationScope) -> Bool {
                (try? expression.evaluateCondition(in: scope)) == false
            }
            // Raised: every earlier event evaluated to false, and this one holds.
            let raised = space.first { scope in earlier.allSatisfy { fails($0.expression, scope) } && holds(candidate, scope) }
            guard raised == nil, space.first(where: { holds(candidate, $0) }) != nil else { continue }
            // The earlier events that hold together with it (one of them is raised each time).
            let instead = earlier.filter { event in space.first { holds(candidate, $0) && holds(event.expression, $0) } != nil }
            // (Where it holds only when an earlier event cannot be evaluated, the run stops there: not this rule's.)
            guard !instead.isEmpty else { continue }
            // One earlier event that holds whenever it does is the whole story; else each that may.
            if let implied = instead.first(where: { event in space.first { holds(candidate, $0) && !holds(event.expression, $0) } == nil }) {
                found.append(Shadow(event: evaluated[position].index, earlier: [implied.index]))
            } else {
                found.append(Shadow(event: evaluated[position].index, earlier: instead.map(\.index)))
            }
        }
        return found
    }
}
