/// `maybe_null`: a value that may be null reaches an operator, a condition or a non-optional key.
enum MaybeNullRule: Rule {
    /// What the rule finds and why, with examples.
    package static let description = RuleDescription(
        identifier: .maybeNull,
        name: "Maybe null",
        summary: "A value that may be null reaches an operator, a condition or a non-optional key.",
        rationale: """
            An optional state key, an optional result key (left out of a result, it reads null) or an optional key \
            of a nested flow's final state may be null, and null is a run error everywhere but '==', '!=', 'in' and \
            exists(): in arithmetic, '+', comparisons, '!', '&&', '||', an 'if', a derived event, the condition of \
            '? :', and stored in a key that is not optional. Guard the read with exists(): 'exists(p) && …', \
            '!exists(p) || …', 'exists(p) ? … : …', 'p != null && …', an 'if' on the same target, or an earlier \
            option whose '!exists(p)' failed.
            """,
        severity: .warning,
        triggeringExamples: [
            """
            flowkit: 1
            flow: greet
            start: ask
            state: { first: string, last: string?, count: int?, label: string, total: int }
            steps:
              ask:
                result: { first: string, last: string?, note: string?, total: int }
                set:
                  first: result.first
                  last: result.last
                  label: ↓result.note
                  total: result.total
                next:
                  - forward: done
                    if: "↓state.count > 1"
                  - forward: done
                    set: { label: "↓state.last + '!'" }
              done: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            // A derived event's condition guards its handler's targets.
            """
            flowkit: 1
            flow: coupon
            start: cart
            state: { code: string }
            events:
              hasCoupon: "exists(result.coupon)"
            steps:
              cart:
                result: { coupon: string? }
                on: { hasCoupon: { forward: done, set: { code: result.coupon } } }
                next: done
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: greet
            start: ask
            state: { first: string, last: string?, count: int?, label: string, note: string? }
            steps:
              ask:
                result: { first: string, last: string?, note: string? }
                set:
                  first: result.first
                  last: result.last
                  note: result.note
                next:
                  - forward: done
                    if: "exists(state.count) && state.count > 1"
                  - forward: done
                    if: "state.last != null"
                    set: { label: "state.first + ' ' + state.last" }
                  - forward: done
                    set: { label: "exists(state.last) ? state.last : state.first" }
              done: { kind: finish }
            """,
            // A step without `result` never runs its `set` (`set_without_result` says so): no run meets the null.
            """
            flowkit: 1
            flow: label
            start: show
            state: { last: string?, label: string }
            steps:
              show: { set: { label: "state.last + '!'" }, next: done }
              done: { kind: finish }
            """,
        ])

    /// The `maybe_null` findings of the flow-wide type check.
    /// Needs the flow's graph: its reachable steps.
    static let needs: RuleNeeds = [.graph]

    package static func check(_ context: LintContext) -> [Diagnostic] {
        TypeMismatchRule.typeFindings(context)
            .filter { $0.kind == .maybeNull }
            .map { context.finding(self, at: $0.position, step: $0.step, subject: $0.subject, Message(verbatim: $0.message)) }
    }
}
