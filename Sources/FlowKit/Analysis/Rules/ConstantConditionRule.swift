/// `constant_condition`: a condition inside an expression whose text decides its value, so part of the expression
/// never runs (docs/format.md, "Parts of an expression no run evaluates").
enum ConstantConditionRule: Rule {
    /// What the rule finds and why, with examples.
    package static let description = RuleDescription(
        identifier: .constantCondition,
        name: "Constant condition",
        summary: "A condition of '? :', '&&' or '||' is always true or always false, so part of the expression never runs.",
        rationale: """
            A condition made of literals ('1 >= 10', 'true'), of a path compared with itself \
            ('state.total == state.total'), and of '!', '&&', '||' and '? :' of these has the same value on every \
            run. When it is the condition of '? :', one branch never runs; when it is the left side of '&&' and \
            always false, or of '||' and always true, the right side never runs. That is usually a leftover or a \
            typo (a key compared with itself instead of another). The rules that foresee run errors do not check \
            the part that never runs, since no run evaluates it: this finding stands for it. Write the part that \
            runs alone, or fix the condition. A constant 'if' of an option is reported by unreachable_option, \
            whose options it decides.
            """,
        severity: .warning,
        triggeringExamples: [
            """
            flowkit: 1
            flow: fees
            start: pay
            state: { fee: int, note: string?, total: int }
            steps:
              pay:
                result: { amount: int }
                set:
                  fee: "↓(1 >= 10) ? result.amount : 0"
                  note: "↓state.total == state.total ? 'paid' : state.note"
                  total: "↓false && result.amount > 0 ? 1 : 2"
                next: done
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: flags
            start: a
            state: { vip: bool, tries: int }
            steps:
              a:
                result: { vip: bool }
                set: { vip: "↓!false || result.vip" }
                next:
                  - { forward: done, if: "result.vip && (↓true ? state.tries > 1 : false)" }
                  - done
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: nested
            start: a
            state: { n: int }
            steps:
              a:
                result: { n: int }
                set: { n: "↓false ? (true ? 1 : 2) : result.n" }
                next: done
              done: { kind: finish }
            """,
            // Parts that read nothing are worked out; sides written alike always compare equal; a `? :` whose
            // branches are the same is that value.
            """
            flowkit: 1
            flow: folds
            start: a
            state: { n: int, m: int, k: int }
            inputs: [n]
            steps:
              a:
                result: { v: int }
                set:
                  m: "↓(100 + 1) < 2 ? result.v : 0"
                  k: "↓(state.n / state.n) != (state.n / state.n) ? result.v : 1"
                  n: "↓(result.v > 1 ? 5 : 5) == 5 ? 3 : result.v"
                next: done
              done: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: fees
            start: pay
            state: { fee: int, note: string?, total: int, vip: bool }
            steps:
              pay:
                result: { amount: int, total: int }
                set:
                  fee: "result.amount >= 10 ? result.amount : 0"
                  note: "state.total == result.total ? 'paid' : state.note"
                  vip: "result.amount > 0 && true"
                next:
                  - { forward: done, if: "1 > 2" }
                  - done
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: pairs
            start: a
            state: { low: int, high: int, n: int }
            inputs: [low, high]
            steps:
              a:
                result: { n: int }
                set: { n: "state.low <= state.high ? result.n : -result.n" }
                next: done
              done: { kind: finish }
            """,
        ])

    /// Needs the document and its flow model only: it is about the text, at every step.
    static let needs: RuleNeeds = []

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow else { return [] }
        var findings: [Diagnostic] = []
        func check(_ source: ExpressionSource, step: String?) {
            guard case .success(let expression) = context.memo.parse(source) else { return }
            for (condition, value, ruledOut) in ConstantCondition.findings(in: expression.root) {
                let part: String
                switch ruledOut {
                case .thenBranch: part = "the 'then' branch of '? :'"
                case .elseBranch: part = "the 'else' branch of '? :'"
                case .rightOfAnd: part = "the right side of '&&'"
                case .rightOfOr: part = "the right side of '||'"
                }
                findings.append(context.finding(self, at: source.position(ofOffset: condition.span.start), step: step,
                                                "this condition is always \(verbatim: value ? "true" : "false"), so \(verbatim: part) never runs\(verbatim: source.unmappedNote(ofOffset: condition.span.start))"))
            }
        }
        ExpressionRule.forEachExpression(of: flow, check)
        return findings
    }
}
