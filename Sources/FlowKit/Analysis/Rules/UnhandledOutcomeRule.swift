/// `unhandled_outcome`: a nested flow can finish with an outcome the parent step neither handles nor covers with `next`.
enum UnhandledOutcomeRule: Rule {
    public static let description = RuleDescription(
        identifier: .unhandledOutcome,
        name: "Unhandled outcome",
        summary: "A nested flow can finish with an outcome that the parent step neither handles nor covers with 'next'.",
        rationale: """
            A flow step completes with its nested flow's outcome as the event: its own handler, else the "*" \
            handler, else its 'next', else "*".next. An outcome none of these covers leaves the run stuck. The \
            outcomes counted are those of the nested flow's reachable finish steps. (In the examples, \
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

    /// Needs the nested flows.
    static let needs: RuleNeeds = [.workspace]

    public static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow, let workspace = context.workspace else { return [] }
        var findings: [Diagnostic] = []
        for step in flow.steps where step.kind == .flow {
            guard let reference = step.flowPath,
                  case .loaded(let document, _) = workspace.nested(reference, from: context.document.file),
                  let child = document.flow, document.isWellFormed else { continue }
            if step.next != nil || flow.anyStep?.next != nil { continue }
            let graph = FlowGraph(flow: child)
            var outcomes: [String] = []
            for (id, finish) in child.steps.enumerated() where finish.kind == .finish && graph.reachable[id] {
                let outcome = finish.outcome?.text ?? finish.name.text
                if !outcomes.contains(outcome) { outcomes.append(outcome) }
            }
            for outcome in outcomes where step.handler(for: outcome) == nil && flow.anyStep?.handler(for: outcome) == nil {
                findings.append(context.finding(self, at: step.name.position, step: step.name.text, subject: outcome,
                                                "nested flow '\(Identifier.display(reference))' can finish with outcome '\(outcome)', which step '\(step.name.text)' neither handles nor covers with 'next'"))
            }
        }
        return findings
    }
}
