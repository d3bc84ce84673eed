/// `unreachable_step`: no path of forward moves leads to the step from `start` or an entry.
enum UnreachableStepRule: Rule {
    package static let description = RuleDescription(
        identifier: .unreachableStep,
        name: "Unreachable step",
        summary: "No path of forward or restart moves leads to the step from 'start' or any entry.",
        rationale: """
            A step that cannot be reached is dead code, or a transition to it is missing. Reachability is true graph \
            reachability: two orphan steps that point at each other are both unreachable. Back moves never make a \
            step reachable, since they only return to steps already shown; handlers of "*" count for every step \
            that does not override them.
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit: 1
            flow: orphans
            start: amount
            steps:
              amount: { next: done }
              ↓orphan: { next: other }
              ↓other: { next: orphan }
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: backonly
            start: a
            events: { edit: }
            steps:
              a: { on: { edit: { back: hidden } }, next: done }
              ↓hidden: { next: a }
              done: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: reached
            start: amount
            events: { error: }
            entries:
              deep: { step: tariffs, path: /tariffs }
            steps:
              "*": { on: { error: alert } }
              amount: { next: done }
              tariffs: { next: done }
              alert: { next: { back: true } }
              done: { kind: finish }
            """,
        ])

    /// Needs the flow's graphs.
    static let needs: RuleNeeds = [.graph]

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let (flow, graph) = context.reachabilityInput else { return [] }
        let origin = flow.entries.isEmpty ? "'\(flow.start.text)'" : "'\(flow.start.text)' or any entry"
        return flow.steps.indices.filter { !graph.reachable[$0] }.map { id in
            let step = flow.steps[id]
            // Reachable were the options never taken followed: say so, since the graph alone shows a way.
            let why = graph.reachableByAnyOption[id] ? ": every way to it takes an option that is never taken (see unreachable_option)" : ""
            return context.finding(self, at: step.name.position, step: step.name.text, subject: step.name.text,
                                   "step '\(name: step.name.text)' is not reachable from \(verbatim: origin)\(verbatim: why)")
        }
    }
}
