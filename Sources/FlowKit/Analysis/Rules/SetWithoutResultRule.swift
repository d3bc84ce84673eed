/// `set_without_result`: a step's `set` that never runs, because the step declares no `result`.
enum SetWithoutResultRule: Rule {
    /// What the rule finds and why, with examples.
    package static let description = RuleDescription(
        identifier: .setWithoutResult,
        name: "Set without result",
        summary: "A step that is not a 'flow' step has a 'set' but no 'result', so its 'set' never runs.",
        rationale: """
            A step's 'set' runs when the step completes with a result, and only a step that declares a 'result' \
            completes with one (a 'flow' step's result is its nested flow's final state). A step completed by \
            'next' or by an event without a result leaves its 'set' unrun, which is rarely what was meant. Move \
            the assignments onto the target ('next: { forward: X, set: { ... } }'), where they run when that move \
            is taken, or declare the 'result' the step completes with.
            """,
        severity: .warning,
        triggeringExamples: [
            """
            flowkit: 1
            flow: greet
            start: ask
            state: { name: string }
            steps:
              ask:
                set: { ↓name: "'anon'" }
                next: hello
              hello: { next: done }
              done: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: greet
            start: ask
            state: { name: string }
            steps:
              ask:
                next: { forward: hello, set: { name: "'anon'" } }
              hello:
                result: { name: string }
                set: { name: result.name }
                next: pay
              pay:
                kind: flow
                flow: child.yaml
                set: { name: "'paid'" }
                next: done
              done: { kind: finish }
            """,
        ])

    /// One finding per step with a `set`, no `result`, and a kind other than `flow` or `finish`.
    /// Needs the document and its flow model only.
    static let needs: RuleNeeds = []

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow else { return [] }
        return flow.steps.compactMap { step in
            guard step.kind != .flow, step.result == nil, let first = step.set.first else { return nil }
            let name = step.name.text
            let target = step.next?.first?.stepName?.text ?? "X"
            return context.finding(self, at: first.key.position, step: name, subject: name,
                                   "step '\(name: name)' has a 'set' but no 'result', so its 'set' never runs; "
                                   + "move the assignments onto the target (next: { forward: \(verbatim: target), set: … }) or declare the 'result'")
        }
    }
}
