/// `expression`: an expression of the flow cannot be parsed.
enum ExpressionRule: Rule {
    package static let description = RuleDescription(
        identifier: .expression,
        name: "Expression",
        summary: "An expression in 'events', 'set', 'input' or a target's 'if' or 'set' cannot be parsed.",
        rationale: """
            An expression that cannot be parsed stops the run the first time it is evaluated. The finding points \
            inside the expression, at the spot the parser stopped. Text is quoted ('economy'): a bare word that is \
            not state.…, result.…, true, false, null or exists(…) is an error, and the message says how to quote it. \
            An unquoted YAML value whose meaning depends on the reader is an error too: a number YAML spells \
            otherwise than an expression (0o17, 0x1F, .5, 017), and text that YAML 1.1 reads as a boolean \
            (yes, no, on, off), a date (2026-01-01) or a number (1_000).
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit: 1
            flow: tariffs
            start: pick
            state: { tariff: [economy, business] }
            steps:
              pick:
                result: { tariff: [economy, business] }
                set: { tariff: result.tariff }
                next:
                  - forward: done
                    if: state.tariff == ↓economy
                  - done
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: calls
            start: a
            state: { note: string? }
            events:
              longNote: "↓size(state.note) > 3"
            steps:
              a: { on: { longNote: b }, next: b }
              b: { kind: finish }
            """,
            """
            {"flowkit": 1, "flow": "json", "start": "a",
             "state": {"total": "int"},
             "steps": {
               "a": {"result": {"total": "int"}, "set": {"total": "(result.total + 1↓"}, "next": "b"},
               "b": {"kind": "finish"}}}
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: fine
            start: a
            state: { total: int, vip: bool, tariff: [economy, business], note: string? }
            events:
              big: "result.total > 1000 && state.tariff == 'business'"
            steps:
              "*": { next: { forward: b, if: "exists(state.note)" } }
              a:
                result: { total: int }
                set: { total: "state.vip ? result.total : result.total + 5", vip: false }
                on: { big: b }
                next: { forward: b, set: { tariff: "'economy'" } }
              b: { kind: finish }
            """,
        ])

    /// Needs the document and its flow model only.
    static let needs: RuleNeeds = []

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow else { return [] }
        var findings: [Diagnostic] = []
        forEachExpression(of: flow) { source, step in
            if case .failure(let error) = context.memo.parse(source) {
                findings.append(context.finding(self, at: source.position(ofOffset: error.offset), step: step,
                                                Message(verbatim: error.message + source.unmappedNote(ofOffset: error.offset))))
            }
        }
        return findings
    }

    /// Every expression of `flow` with the step it is written in (nil for a derived event's): events, then `"*"`
    /// and each step's `set`, `input`, and targets' `if` and `set`, in that order.
    static func forEachExpression(of flow: Flow, _ body: (ExpressionSource, String?) -> Void) {
        for event in flow.events {
            if let source = event.expression { body(source, nil) }
        }
        for step in flow.anyStepThenSteps {
            let name = step.name.text
            // The step's lists are walked where they are: joining them would make new arrays for every step.
            for assignment in step.set { body(assignment.expression, name) }
            for assignment in step.input { body(assignment.expression, name) }
            StepGraph.forEachTargetList(of: step) { _, list in
                for target in list {
                    if let condition = target.condition { body(condition, name) }
                    for assignment in target.set { body(assignment.expression, name) }
                }
            }
        }
    }
}
