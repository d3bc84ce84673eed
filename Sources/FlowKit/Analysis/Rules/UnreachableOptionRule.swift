/// `unreachable_option`: an option of a target list that no run takes: after an option without `if`, or decided
/// never to be taken (docs/format.md, "Options never taken").
package enum UnreachableOptionRule: Rule {
    package static let description = RuleDescription(
        identifier: .unreachableOption,
        name: "Unreachable option",
        summary: "An option of a target list is never taken: an earlier option has no 'if', or holds (or fails) whenever it would.",
        rationale: """
            The options of a target list are tried in order and the first whose 'if' holds (or that has none) is \
            taken; an 'if' that fails to evaluate stops the run. Options after one without 'if' are never taken. \
            Where the guards compare state and result keys with literals (as non_exhaustive_guards decides them), \
            flowkit also decides exactly whether some values make every earlier 'if' false and the option's own \
            true; when none do, the option is dead: its 'if' never holds, or an earlier option covers it, or the \
            derived event whose handler it is in never holds at the step. Its move makes no step reachable. \
            Reorder the options, or fix the guard.
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
            """
            flowkit: 1
            flow: limits
            start: amount
            events: { quick: }
            steps:
              amount:
                result: { value: int }
                on: { quick: small }
                next:
                  - { forward: large, if: "result.value > 10" }
                  - ↓{ forward: small, if: "result.value > 100" }
                  - small
              small: { kind: finish }
              large: { kind: finish }
            """,
            """
            flowkit: 1
            flow: alerts
            start: a
            state: { level: int }
            inputs: [level]
            events: { high: "state.level > 5 && state.level < 3", skip: }
            steps:
              a: { on: { high: ↓b, skip: b }, next: done }
              b: { next: done }
              done: { kind: finish }
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
            """
            flowkit: 1
            flow: limits
            start: amount
            steps:
              amount:
                result: { value: int }
                next:
                  - { forward: large, if: "result.value > 100" }
                  - { forward: small, if: "result.value > 10" }
                  - small
              small: { kind: finish }
              large: { kind: finish }
            """,
        ])

    /// Needs the options never taken, decided when the graphs are built.
    package static let needs: RuleNeeds = [.graph]

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow else { return [] }
        let neverTaken = context.writtenNeverTaken
        var findings: [Diagnostic] = []
        let steps = NeverTaken.owners(of: flow)
        for (id, step) in steps where !neverTaken.isEmpty {
            let name = step.name.text
            StepGraph.forEachTargetList(of: step) { list, targets in
                // The list's name ("on 'go'", "next") is put into words only for a finding.
                func listName() -> String { list < step.on.count ? "on '\(step.on[list].event.text)'" : "next" }
                for (index, target) in targets.enumerated() {
                    // (The written options never taken hold no run-error reason: those are one mistake's, reported once.)
                    guard let reason = neverTaken.reason(NeverTaken.Option(step: id, list: list, option: index)), !reason.isRunError else { continue }
                    let why: Message
                    switch reason {
                    case .afterUnconditional: why = "an earlier option has no 'if'"
                    case .neverHolds: why = "its 'if' never holds"
                    case .eventNeverHolds(let event): why = "event '\(name: event)' is never raised here: its condition never holds"
                    case .earlierFirst:
                        why = target.condition == nil
                            ? "an earlier option's 'if' always holds, or fails, before it is tried"
                            : "whenever its 'if' holds, an earlier option's 'if' holds too, or fails"
                    case .earlierIfFails, .ifFails, .setFails, .stepFails, .preempted, .outcomeNeverReached, .holdsOnlyByFailing, .eventHoldsOnlyByFailing: continue
                    }
                    findings.append(context.finding(self, at: target.position, step: name,
                                                    "this option of \(verbatim: listName()) in step '\(name: name)' is never taken: \(why)"))
                }
            }
        }
        if neverTaken.unjudged > 0 {
            let unjudged = neverTaken.unjudged
            findings.append(context.finding(self, at: flow.start.position,
                                            "\(unjudged) guarded target list\(verbatim: unjudged == 1 ? " was" : "s were") not judged for options never taken: "
                                            + "deciding them would take more than \(GuardSpace.fileBudget) evaluations of their guards in one flow"))
        }
        return findings
    }
}
