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
            The finding points inside the expression at the part at fault. A run stops at the first of these it meets, \
            so what lies behind one that always fails (the later parts of the expression, the later assignments of \
            the 'set', the options it keeps a run from) is not reported until it is fixed (docs/format.md, "Behind a \
            certain run error").
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
              go:
            steps:
              cart:
                result: { total: number, coupon: string? }
                set: { total: ↓result.total }
                on: { go: review }
              review:
                result: { total: number }
                on: { big: done, go: plan }
              plan:
                result: { total: number }
                set: { tariff: "↓'first'" }
                on: { go: member }
              member:
                result: { total: number }
                set: { vip: ↓null }
                on:
                  go:
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
            events: { plus: , not: , equal: , in: , and: , bool: }
            steps:
              a:
                on:
                  plus: [{ forward: b, if: "↓state.vip + 1 > 0" }, b]
                  not: [{ forward: b, if: "↓!state.total" }, b]
                  equal: [{ forward: b, if: "↓state.total == state.name" }, b]
                  in: [{ forward: b, if: "state.total in [1, ↓'two']" }, b]
                  and: [{ forward: b, if: "↓state.name && state.vip" }, b]
                  bool: [{ forward: b, if: "↓state.total" }, b]
                next: b
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
        guard context.isWellFormed, context.flow != nil else { return [] }
        return context.runView.typeFindings
    }
}
