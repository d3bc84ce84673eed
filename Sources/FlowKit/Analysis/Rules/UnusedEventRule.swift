/// `unused_event`: a declared event that no step handles.
enum UnusedEventRule: Rule {
    package static let description = RuleDescription(
        identifier: .unusedEvent,
        name: "Unused event",
        summary: "An event is declared in 'events' but no step handles it.",
        rationale: """
            An event nobody handles is either left over from an old version of the flow or a handler that was \
            forgotten. A derived event no step handles is never even evaluated. A handler of an undeclared event \
            whose name suggests a declared one counts as handling it, so a misspelt handler gives the \
            'undeclared_event' finding alone.
            """,
        severity: .warning,
        triggeringExamples: [
            """
            flowkit: 1
            flow: leftover
            start: a
            events:
              ↓cancel:
            steps:
              a: { next: b }
              b: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: fine
            start: a
            events:
              cancel:
            steps:
              a: { on: { cancel: b }, next: b }
              b: { kind: finish }
            """,
        ])

    /// Needs the document and its flow model only.
    static let needs: RuleNeeds = []

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard context.isWellFormed, let flow = context.flow else { return [] }
        let events = UndeclaredEventRule.handledEvents(in: flow)
        var handled = Set(events)
        handled.formUnion(UndeclaredEventRule.suggestions(in: flow, handled: events).values)
        return flow.events.filter { !handled.contains($0.name.text) }.map {
            context.finding(self, at: $0.name.position, subject: $0.name.text, "event '\(name: $0.name.text)' is declared but no step handles it")
        }
    }
}
