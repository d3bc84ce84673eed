/// `subflow_missing`: a nested flow file that does not exist, does not load, or lies outside the tree being checked.
enum SubflowMissingRule: Rule {
    package static let description = RuleDescription(
        identifier: .subflowMissing,
        name: "Missing nested flow",
        summary: "A nested flow file does not exist, does not load, or is outside the tree being checked.",
        rationale: """
            A 'flow' step names its nested flow by a path relative to its own file. The file must exist, be a \
            flow without syntax or schema errors, and lie inside the directory tree given on the command line \
            (unless --allow-outside): absolute paths, '~', backslashes and URL schemes are refused, and symbolic \
            links are resolved before the check.
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit: 1
            flow: parent
            start: pay
            steps:
              pay: { kind: flow, flow: ↓/etc/payment.yaml, next: done }
              done: { kind: finish }
            """,
            """
            flowkit: 1
            flow: parent
            start: pay
            steps:
              pay: { kind: flow, flow: ↓payments/missing.yaml, next: done }
              done: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: parent
            start: pay
            steps:
              pay: { kind: flow, flow: child.yaml, next: done }
              done: { kind: finish }
            """,
        ])

    /// Needs the nested flows.
    static let needs: RuleNeeds = [.workspace]

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow, let workspace = context.workspace else { return [] }
        var findings: [Diagnostic] = []
        for step in flow.steps where step.kind == .flow {
            guard let reference = step.flowPath, let position = step.flowPathPosition else { continue }
            switch workspace.nested(reference, from: context.document.file) {
            case .unavailable(let reason):
                findings.append(context.finding(self, at: position, step: step.name.text, subject: reference, reason))
            case .loaded(let document, _):
                if document.isScript || !document.isWellFormed || document.flow == nil {
                    let what = document.isScript ? "is a simulation script, not a flow" : "does not load; lint it for the details"
                    findings.append(context.finding(self, at: position, step: step.name.text, subject: reference,
                                                    "nested flow '\(name: reference)' of step '\(name: step.name.text)' \(verbatim: what)"))
                }
            }
        }
        return findings
    }
}
