import Foundation

/// `type_mismatch`: an expression or a `set` does not type-check against `state`, the step's `result` or a nested
/// flow's state.
enum TypeMismatchRule: Rule {
    /// What the rule finds and why, with examples.
    package static let description = RuleDescription(
        identifier: .typeMismatch,
        name: "Type mismatch",
        summary: "An expression or a 'set' does not type-check against 'state', the step's 'result' or a nested flow's state.",
        rationale: """
            Expressions are checked with the declared types before any run, with the rules the run applies: \
            arithmetic on numbers (and '+' on two strings), '<' and friends on two numbers or two strings, '==' on \
            equal types (or null), bools for '&&', '||', '!', '? :', 'if' and derived events, text compared with an \
            enum among its values, and what a 'set' or an 'input' stores fitting the declared key (an int fits \
            'number', a number never fits 'int', null fits only optional keys). 'result.key' must be a key of the \
            step's declared 'result' (or, on a 'flow' step, of the nested flow's state); 'input' cannot read 'result'. \
            A value that may be null (an optional key) is checked as the type it holds, since 'exists' guards are the \
            usual pattern; anything whose type cannot be known (a step without a declared 'result') is not reported. \
            The finding points inside the expression at the part at fault.
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit: 1
            flow: checkout
            start: cart
            state: { total: int, tariff: [economy, business], vip: bool, note: string? }
            events:
              big: ↓result.total + 1
            steps:
              cart:
                result: { total: number, coupon: string? }
                set:
                  total: ↓result.total
                  tariff: "↓'first'"
                  vip: ↓null
                on: { big: done }
                next:
                  - forward: done
                    if: "state.tariff == ↓'buisness'"
                  - forward: done
                    if: "↓result.totl > 0"
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: operators
            start: a
            state: { total: int, name: string, vip: bool, tariff: [economy, business] }
            steps:
              a:
                next:
                  - forward: b
                    if: "↓state.vip + 1 > 0"
                  - forward: b
                    if: "↓!state.total"
                  - forward: b
                    if: "↓state.total == state.name"
                  - forward: b
                    if: "state.total in [1, ↓'two']"
                  - forward: b
                    if: "↓state.name && state.vip"
                  - forward: b
                    if: "↓state.total"
                  - b
              b: { kind: finish }
            """,
            """
            flowkit: 1
            flow: parent
            start: pay
            state: { total: int }
            events: { paid: }
            steps:
              pay:
                kind: flow
                flow: type-mismatch-example-payment.yaml
                input: { amount: ↓result.total }
                on: { paid: done }
              done: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: fine
            start: a
            state: { total: number, count: int, tariff: [economy, business], note: string?, label: string }
            events:
              big: "result.count * 2 > 10 && state.tariff != 'economy'"
            steps:
              a:
                result: { count: int, tariff: [economy, business], user: { name: string } }
                set:
                  total: "result.count / 2"
                  count: result.count
                  tariff: "result.count > 3 ? 'business' : result.tariff"
                  note: "exists(state.note) ? state.note + '!' : null"
                  label: "'hello ' + result.user.name"
                on: { big: b }
                next: { forward: b, if: "state.total >= 1.5 || exists(result.user)" }
              b: { kind: finish }
            """,
        ])

    /// The type errors of a well-formed flow.
    /// Needs the flow's graph: its reachable steps.
    static let needs: RuleNeeds = [.graph]

    package static func check(_ context: LintContext) -> [Diagnostic] {
        typeFindings(context)
            .filter { $0.kind == .typeMismatch }
            .map { context.finding(self, at: $0.position, step: $0.step, fix: $0.fix, Message(verbatim: $0.message)) }
    }

    /// Every finding of the flow-wide type check of a well-formed flow, computed once per context (this rule and
    /// `undeclared_state` share it). Nested flows come from `LintContext.nestedFlow(of:)`; one that does not load is
    /// skipped.
    static func typeFindings(_ context: LintContext) -> [TypeFinding] {
        guard context.isWellFormed, let flow = context.flow else { return [] }
        return context.memo.typeFindings {
            FlowTypeChecker.check(flow, nestedState: { context.nestedFlow(of: $0)?.state },
                                  nestedInputs: { context.nestedFlow(of: $0)?.requiredInputs ?? [] }, parse: context.memo.parse,
                                  reachable: context.reachableSteps, neverTaken: context.neverTaken)
        }
    }
}
