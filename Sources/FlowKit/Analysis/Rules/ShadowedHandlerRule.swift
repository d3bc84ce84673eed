/// `shadowed_handler`: a step's own handler hides a `"*"` handler for the same event.
enum ShadowedHandlerRule: Rule {
    package static let description = RuleDescription(
        identifier: .shadowedHandler,
        name: "Shadowed handler",
        summary: "A step's own handler hides the '*' handler for the same event.",
        rationale: """
            A step's own handler for an event wins over the handler of "*". That is often the intent (an alert \
            that handles errors itself), so this is a note: it makes the override visible in review.
            """,
        severity: .note,
        triggeringExamples: [
            """
            flowkit: 1
            flow: errors
            start: a
            events: { error: }
            steps:
              "*": { on: { error: alert } }
              a: { on: { ↓error: done }, next: done }
              alert: { next: { back: true } }
              done: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: errors
            start: a
            events: { error: }
            steps:
              "*": { on: { error: alert } }
              a: { next: done }
              alert: { next: { back: true } }
              done: { kind: finish }
            """,
        ])

    /// Needs the document and its flow model only.
    static let needs: RuleNeeds = []

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow, let anyStep = flow.anyStep else { return [] }
        let shared = Set(anyStep.on.map(\.event.text))
        var findings: [Diagnostic] = []
        for step in flow.steps where step.kind != .finish {
            for handler in step.on where shared.contains(handler.event.text) {
                findings.append(context.finding(self, at: handler.event.position, step: step.name.text, subject: handler.event.text,
                                                "step '\(name: step.name.text)' handles '\(name: handler.event.text)' itself, so the '*' handler for it does not apply here"))
            }
        }
        return findings
    }
}
