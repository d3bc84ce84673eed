/// `dead_end`: a reachable step that is not a finish step and has no transition at all.
enum DeadEndRule: Rule {
    package static let description = RuleDescription(
        identifier: .deadEnd,
        name: "Dead end",
        summary: "A reachable step is not a finish step and has no transition, of its own or from \"*\".",
        rationale: """
            A run that reaches such a step is stuck there for ever. Give it a 'next' or handlers, or make it a \
            finish step with 'kind: finish'.
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit: 1
            flow: stuck
            start: amount
            steps:
              amount: { next: receipt }
              ↓receipt: { title: Receipt }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: fine
            start: amount
            steps:
              amount: { next: receipt }
              receipt: { kind: finish }
            """,
            """
            flowkit: 1
            flow: star
            start: amount
            steps:
              "*": { next: receipt }
              amount: { title: Amount }
              receipt: { kind: finish }
            """,
        ])

    /// Needs the flow's graphs.
    static let needs: RuleNeeds = [.graph]

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let (flow, graph) = context.reachabilityInput else { return [] }
        return graph.deadEnds.map { id in
            let step = flow.steps[Int(id)]
            return context.finding(self, at: step.name.position, step: step.name.text, subject: step.name.text,
                                   "step '\(name: step.name.text)' has no transition and is not a finish step")
        }
    }
}
