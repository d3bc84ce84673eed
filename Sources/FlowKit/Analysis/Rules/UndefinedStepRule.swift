/// `undefined_step`: `start`, a target or an entry names a step that does not exist.
enum UndefinedStepRule: Rule {
    package static let description = RuleDescription(
        identifier: .undefinedStep,
        name: "Undefined step",
        summary: "The start, a target or an entry names a step that does not exist.",
        rationale: """
            A run that takes such a transition has nowhere to go. The finding points at the name and suggests the \
            closest step. A typo gives this finding alone: for reachability (and the rules built on it) a forward \
            target or an entry with a suggestion leads to the suggested step, and for dead ends and loops an edge \
            to an undefined step counts as a way out.
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit: 1
            flow: typo
            start: amount
            steps:
              amount: { next: ↓tarifs }
              tariffs: { next: confirm }
              confirm: { next: done }
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: nostart
            start: ↓begin
            steps:
              amount: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: fine
            start: amount
            events: { edit: }
            entries:
              direct: { step: tariffs, path: /tariffs }
            steps:
              amount: { next: tariffs }
              tariffs: { on: { edit: { back: amount } }, next: done }
              done: { kind: finish }
            """,
        ])

    /// Needs the flow's graphs.
    static let needs: RuleNeeds = [.graph]

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow, let graph = context.graph else { return [] }
        var findings: [Diagnostic] = []
        func missing(_ name: Name, step: String?, what: String = "step") {
            guard graph.ids[name.text] == nil else { return }
            let suggestion = graph.suggestions.suggestion(for: name.text)
            let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
            findings.append(context.finding(self, at: name.position, step: step, subject: name.text,
                                            fix: suggestion.flatMap { Fix(at: name.position, replacing: name.text, with: $0) },
                                            "\(verbatim: what) '\(name: name.text)' is not defined\(verbatim: hint)"))
        }
        missing(flow.start, step: nil, what: "start step")
        for entry in flow.entries { missing(entry.step, step: nil, what: "the step of entry '\(entry.name.text)',") }
        for step in flow.anyStepThenSteps {
            // The lists read in place: joining them would copy every target of every step.
            StepGraph.forEachTargetList(of: step) { _, list in
                for target in list { if let name = target.stepName { missing(name, step: step.name.text) } }
            }
        }
        return findings
    }
}
