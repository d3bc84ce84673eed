/// `undeclared_state`: an expression reads, a `set` writes, or `inputs` lists a state key that `state` does not
/// declare.
enum UndeclaredStateRule: Rule {
    /// What the rule finds and why, with examples.
    package static let description = RuleDescription(
        identifier: .undeclaredState,
        name: "Undeclared state",
        summary: "An expression reads, a 'set' writes, or 'inputs' lists a state key that 'state' does not declare.",
        rationale: """
            Every state key is declared once in 'state' with its type. Reading an undeclared key (state.key, \
            exists(state.key)) is a run error or, inside exists(…), always false; writing one through a step's or a \
            target's 'set' stops the run when the step completes. The finding points at the path inside the \
            expression, or at the key of the 'set', and suggests the closest declared key. It runs once the file \
            has no syntax or schema errors; expressions that do not parse are left to the 'expression' rule.
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit: 1
            flow: typo
            start: amount
            state: { amount: int, note: string? }
            events:
              small: ↓state.amout < 100
              edit:
            steps:
              amount:
                result: { amount: int }
                set: { ↓amout: result.amount }
                on: { small: done, edit: note }
              note:
                on: { small: done }
                next: { forward: done, if: "exists(↓state.nte)" }
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: targets
            start: a
            state: { tariff: [economy, business] }
            events: { reset: }
            steps:
              "*":
                on:
                  reset: { forward: done, set: { ↓tarif: "'economy'" } }
              a:
                next: { forward: done, set: { tariff: "↓state.plan" } }
              done: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: fine
            start: amount
            state: { amount: int, note: string? }
            events:
              small: state.amount < 100
            steps:
              amount:
                result: { amount: int }
                set: { amount: result.amount }
                on: { small: done }
                next: { forward: done, if: "exists(state.note)", set: { note: "null" } }
              done: { kind: finish }
            """,
        ])

    /// The undeclared state keys read or written in a well-formed flow, at the path inside the expression or the key of the 'set'.
    /// Needs the flow's graph: its reachable steps.
    static let needs: RuleNeeds = [.graph]

    package static func check(_ context: LintContext) -> [Diagnostic] {
        context.loaderFindings(self) + TypeMismatchRule.typeFindings(context)
            .filter { $0.kind == .undeclaredState }
            .map { context.finding(self, at: $0.position, step: $0.step, subject: $0.subject, fix: $0.fix, Message(verbatim: $0.message)) }
    }
}
