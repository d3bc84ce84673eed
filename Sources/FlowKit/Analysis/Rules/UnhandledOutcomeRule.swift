/// `unhandled_outcome`: a nested flow can finish with an outcome the parent step neither handles nor covers with `next`.
enum UnhandledOutcomeRule: Rule {
    package static let description = RuleDescription(
        identifier: .unhandledOutcome,
        name: "Unhandled outcome",
        summary: "A nested flow can finish with an outcome that the parent step neither handles nor covers with 'next'.",
        rationale: """
            A flow step completes with its nested flow's outcome as the event: its own handler, else the "*" \
            handler, else its 'next', else "*".next. An outcome none of these covers leaves the run stuck. The \
            outcomes counted are those of the finish steps a run of the nested flow reaches from where the step \
            starts it: its 'start', and the nested entries of this flow's entries into the step (an outcome only \
            another of its entries reaches is not required). (In the examples, \
            'child.yaml' is a flow that finishes with 'done' or 'cancelled'.)
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit: 1
            flow: parent
            start: pay
            events: { done: }
            steps:
              ↓pay: { kind: flow, flow: child.yaml, on: { done: end } }
              end: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: parent
            start: pay
            events: { done: , cancelled: }
            steps:
              pay: { kind: flow, flow: child.yaml, on: { done: end, cancelled: { restart: true } } }
              end: { kind: finish }
            """,
        ])

    /// Needs the nested flows, and the flow's graph (its reachable steps).
    static let needs: RuleNeeds = [.workspace, .graph]

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow, let workspace = context.workspace else { return [] }
        var findings: [Diagnostic] = []
        // A `flow` step no run reaches never starts its nested flow (docs/format.md, "Only where runs go").
        let isReachable = context.reachability()
        // Nor one that never completes (its nested flow never starts or never finishes), or whose own `set`, which runs
        // before the handler is looked up, always fails (docs/format.md, "Behind a certain run error").
        let neverTaken = context.neverTaken
        for (id, step) in flow.steps.enumerated() where step.kind == .flow && isReachable(step.name.text) && !neverTaken.neverCompletes(id)
            && !neverTaken.setAlwaysFails(id) {
            guard let reference = step.flowPath,
                  case .loaded(let document, _) = workspace.nested(reference, from: context.document.file),
                  let child = document.flow, document.isWellFormed else { continue }
            if step.next != nil || flow.anyStep?.next != nil { continue }
            // The step starts the nested flow at its `start`, and at the nested entries of this flow's entries
            // into it; outcomes only the nested flow's other entries reach never come back here.
            let nestedEntries = flow.nestedEntries(into: step.name.text)
            let outcomes = reachableOutcomes(of: child, from: nestedEntries)
            // Only the outcomes it can finish with, as the step starts it (docs/format.md, "Behind a certain run error").
            for outcome in outcomes where step.handler(for: outcome) == nil && flow.anyStep?.handler(for: outcome) == nil
                && neverTaken.canFinish(id, with: outcome) {
                findings.append(context.finding(self, at: step.name.position, step: step.name.text, subject: outcome,
                                                "nested flow '\(name: reference)' can finish with outcome '\(name: outcome)', which step '\(name: step.name.text)' neither handles nor covers with 'next'"))
            }
        }
        return findings
    }

    /// The outcomes of the finish steps of `child` that a run reaches when it starts at `start` or at one of the
    /// `entries` named (by forward and restart moves), in file order. (A run begun at an entry that restarts goes
    /// to `start`, whose outcomes are counted anyway: the step starts the nested flow there whenever it is shown
    /// by a move or the back button.)
    static func reachableOutcomes(of child: Flow, from entries: [String]) -> [String] {
        // Options the nested flow never takes lead nowhere, as its own lint says (docs/format.md, "Options never
        // taken"); moving the start changes none of them.
        let neverTaken = NeverTaken(flow: child, parse: ExpressionParser.parse)
        var roots = [child.start]
        for name in Set(entries).sorted() {
            guard let entry = child.entries.first(where: { $0.name.text == name }) else { continue }
            roots.append(entry.step)
        }
        // (A root that names no step reaches nothing.)
        let reached = roots.reduce(into: Set<Int>()) { reached, root in
            reached.formUnion(NestedOutcomes.reach(child, from: [root], neverTaken: neverTaken) ?? [])
        }
        var outcomes: [String] = []
        for (id, finish) in child.steps.enumerated() where finish.kind == .finish && reached.contains(id) {
            let outcome = finish.outcomeName
            if !outcomes.contains(outcome) { outcomes.append(outcome) }
        }
        return outcomes
    }
}
