/// `finish_has_transitions`: a finish step with `on` or `next`, which never run.
enum FinishHasTransitionsRule: Rule {
    package static let description = RuleDescription(
        identifier: .finishHasTransitions,
        name: "Finish step with transitions",
        summary: "A finish step has 'on' or 'next', which never run because a flow ends at its finish step.",
        rationale: """
            A run ends when it reaches a finish step, so its handlers are dead code and probably a sign that the \
            step was meant to be a screen. Remove them, or remove 'kind: finish'.
            """,
        severity: .warning,
        triggeringExamples: [
            """
            flowkit: 1
            flow: ends
            start: a
            steps:
              a: { next: done }
              ↓done: { kind: finish, next: a }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: ends
            start: a
            steps:
              a: { next: done }
              done: { kind: finish }
            """,
        ])

    /// Needs the document and its flow model only.
    static let needs: RuleNeeds = []

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow else { return [] }
        return flow.steps.filter { $0.kind == .finish && $0.hasTransitions }.map { step in
            let keys = [step.on.isEmpty ? nil : "'on'", step.next == nil ? nil : "'next'"].compactMap { $0 }
            let verb = keys.count == 1 ? "runs" : "run"
            return context.finding(self, at: step.name.position, step: step.name.text, subject: step.name.text,
                                   "finish step '\(name: step.name.text)' has \(verbatim: keys.joined(separator: " and ")), which never \(verbatim: verb): a flow ends at its finish step")
        }
    }
}
