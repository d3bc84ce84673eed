/// `unreachable_option`: a target in a guarded list after an option with no `if`, which is always taken first.
package enum UnreachableOptionRule: Rule {
    package static let description = RuleDescription(
        identifier: .unreachableOption,
        name: "Unreachable option",
        summary: "A target in a guarded list comes after an option with no 'if', so it is never taken.",
        rationale: """
            The options of a target list are tried in order and the first whose 'if' holds (or that has none) is \
            taken. Options after one without 'if' can never be taken: move the unconditional option last, or give \
            it a condition.
            """,
        severity: .warning,
        triggeringExamples: [
            """
            flowkit: 1
            flow: order
            start: a
            state: { vip: bool }
            steps:
              a: { next: [b, ↓{ forward: c, if: state.vip }] }
              b: { kind: finish }
              c: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: order
            start: a
            state: { vip: bool? }
            steps:
              a: { next: [{ forward: c, if: "exists(state.vip)" }, b] }
              b: { kind: finish }
              c: { kind: finish }
            """,
        ])

    /// Needs the document and its flow model only.
    package static let needs: RuleNeeds = []

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow else { return [] }
        var findings: [Diagnostic] = []
        for step in flow.anyStepThenSteps {
            // Each list read in place, its name ("on 'go'", "next") put into words only for a finding.
            func check(_ targets: [Target], _ list: @autoclosure () -> String) {
                guard let firstUnconditional = targets.firstIndex(where: { $0.condition == nil }), firstUnconditional + 1 < targets.count else { return }
                for target in targets[(firstUnconditional + 1)...] {
                    findings.append(context.finding(self, at: target.position, step: step.name.text,
                                                    "this option of \(verbatim: list()) in step '\(name: step.name.text)' is never taken: an earlier option has no 'if'"))
                }
            }
            for handler in step.on { check(handler.targets, "on '\(handler.event.text)'") }
            if let next = step.next { check(next, "next") }
        }
        return findings
    }
}
