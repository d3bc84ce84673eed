/// `cannot_finish`: a closed group of reachable steps from which no finish step can be reached.
enum CannotFinishRule: Rule {
    package static let description = RuleDescription(
        identifier: .cannotFinish,
        name: "Cannot finish",
        summary: "A group of reachable steps loops with no way out to a finish step.",
        rationale: """
            A closed group is a strongly connected set of reachable, non-finish steps with no edge leaving it: a \
            user who enters it can never finish the flow. Forward, restart and 'back: X' moves are edges. A detour \
            (a step whose every exit is 'back: true' or leads to detours, like an alert shown from "*") returns to \
            whoever showed it, so edges into it are no way out, and it is never reported itself. A step that mixes \
            'back: true' with other exits can go back to every step that forwards to it. One finding per group, at \
            its first step in file order, naming every step of the group.
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit: 1
            flow: tour
            start: home
            events: { error: , more: }
            steps:
              "*": { on: { error: alert } }
              home: { on: { more: pageA }, next: done }
              ↓pageA: { next: pageB }
              pageB: { next: pageA }
              alert: { next: { back: true } }
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: loop
            start: a
            steps:
              a: { next: b }
              ↓b: { next: c }
              c: { next: b }
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: backloop
            start: amount
            events: { edit: }
            steps:
              ↓amount: { next: confirm }
              confirm: { on: { edit: { back: amount } }, next: { back: amount } }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: transfer
            start: amount
            events:
              error:
              retry:
            steps:
              "*": { on: { error: alert } }
              amount: { on: { retry: amount }, next: confirm }
              confirm: { next: done }
              alert: { next: { back: true } }
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: editback
            start: amount
            events: { edit: }
            steps:
              amount: { next: confirm }
              confirm: { on: { edit: { back: amount } }, next: done }
              done: { kind: finish }
            """,
        ])

    /// Needs the flow's graphs.
    static let needs: RuleNeeds = [.graph]

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let (flow, graph) = context.reachabilityInput else { return [] }
        return graph.closedGroups.map { group in
            let first = flow.steps[Int(group[0])]
            let names = group.map { graph.names[Int($0)] }
            let message: String
            if names.count > 1 {
                message = "steps \(Quote.list(names)) can never reach a finish step: they form a loop with no way out"
            } else if graph.goesOnlyBack[Int(group[0])] {
                message = "step '\(names[0])' can only go back, but a run that starts at it has nothing to go back to"
            } else {
                message = "step '\(names[0])' can never reach a finish step: every way out of it leads back to it"
            }
            return context.finding(self, at: first.name.position, step: first.name.text, subject: names.joined(separator: " "), Message(verbatim: message))
        }
    }
}
