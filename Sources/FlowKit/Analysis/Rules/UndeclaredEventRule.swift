/// `undeclared_event`: a step handles an event that `events` does not declare.
enum UndeclaredEventRule: Rule {
    package static let description = RuleDescription(
        identifier: .undeclaredEvent,
        name: "Undeclared event",
        summary: "A step handles an event that 'events' does not declare.",
        rationale: """
            Every event a step handles is declared once in 'events', so a misspelt handler cannot silently never \
            fire. The finding points at the handler and suggests the closest declared event.
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit: 1
            flow: typo
            start: a
            events: { error: }
            steps:
              a:
                on: { ↓eror: b }
                next: b
              b: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: fine
            start: a
            events: { error: }
            steps:
              "*": { on: { error: b } }
              a: { next: b }
              b: { kind: finish }
            """,
        ])

    /// The declared event suggested for each handled event that `events` does not declare (when one is close),
    /// asked in file order: the hint of this rule's findings, and what `unused_event` counts as handled.
    static func suggestions(in flow: Flow) -> [String: String] {
        suggestions(in: flow, handled: handledEvents(in: flow))
    }

    /// `suggestions(in:)` for the flow's distinct handled events `handled` (`handledEvents(in:)`).
    static func suggestions(in flow: Flow, handled: [String]) -> [String: String] {
        let declared = Set(flow.events.map(\.name.text))
        var index: SuggestionIndex?
        var suggestions: [String: String] = [:]
        for event in handled where !declared.contains(event) {
            if index == nil { index = SuggestionIndex(flow.events.map(\.name.text)) }
            if let suggestion = index!.closest(to: event) { suggestions[event] = suggestion }
        }
        return suggestions
    }

    /// The events the flow's handlers name (`"*"`'s, then each step's), each once, in the order first named. A
    /// flow has a few events and many handlers: a handler naming the event the one before it named is passed
    /// over without a look-up.
    static func handledEvents(in flow: Flow) -> [String] {
        var events: [String] = []
        var seen = Set<String>()
        var last: String?
        for step in flow.anyStepThenSteps {
            for handler in step.on {
                let event = handler.event.text
                guard event != last else { continue }
                last = event
                if seen.insert(event).inserted { events.append(event) }
            }
        }
        return events
    }

    /// Needs the document and its flow model only.
    static let needs: RuleNeeds = []

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow else { return [] }
        let declared = Set(flow.events.map(\.name.text))
        let handled = handledEvents(in: flow)
        // The usual flow handles only events it declares: then no handler needs a look.
        guard handled.contains(where: { !declared.contains($0) }) else { return [] }
        let suggestions = Self.suggestions(in: flow, handled: handled)
        var findings: [Diagnostic] = []
        for step in flow.anyStepThenSteps {
            for handler in step.on where !declared.contains(handler.event.text) {
                let event = handler.event.text
                var message = "step '\(step.name.text)' handles event '\(event)', which 'events' does not declare"
                // Only a plain did-you-mean is a fix: at a `flow` step the name may be the nested flow's outcome.
                var fix: Fix?
                if step.kind == .flow, let reference = step.flowPath {
                    // A nested flow's outcomes arrive as events: say so, and name the outcomes it has.
                    let outcomes = context.nestedFlow(of: step).map(Self.outcomes) ?? []
                    message = "step '\(step.name.text)' handles '\(event)', which 'events' does not declare; a nested flow's outcomes are handled as events, so "
                    if outcomes.contains(event) {
                        message += "declare '\(event)' in 'events'"
                    } else if let close = Suggestions.closest(to: event, in: outcomes) {
                        message += "declare it in 'events'; did you mean the outcome '\(close)'?"
                    } else {
                        message += "declare it in 'events'" + (suggestions[event].map { "; did you mean '\($0)'?" } ?? "")
                    }
                    if !outcomes.isEmpty {
                        message += (" (nested flow '\(name: reference)' finishes with \(Message.quoted(outcomes)))" as Message).text
                    }
                } else if let suggestion = suggestions[event] {
                    message += "; did you mean '\(suggestion)'?"
                    fix = Fix(at: handler.event.position, replacing: event, with: suggestion)
                }
                findings.append(context.finding(self, at: handler.event.position, step: step.name.text, subject: event, fix: fix, Message(verbatim: message)))
            }
        }
        return findings
    }

    /// The outcomes of `flow`'s finish steps, in file order, each once.
    static func outcomes(of flow: Flow) -> [String] {
        var outcomes: [String] = []
        for step in flow.steps where step.kind == .finish {
            let outcome = step.outcome?.text ?? step.name.text
            if !outcomes.contains(outcome) { outcomes.append(outcome) }
        }
        return outcomes
    }
}
