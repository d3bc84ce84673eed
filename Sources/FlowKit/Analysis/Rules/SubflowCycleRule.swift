import Foundation

/// `subflow_cycle`: flows that nest each other in a cycle, so a run would nest without end.
public enum SubflowCycleRule: Rule {
    public static let description = RuleDescription(
        identifier: "subflow_cycle",
        name: "Nested flow cycle",
        summary: "Flows nest each other in a cycle.",
        rationale: """
            A flow step runs its nested flow to its end; when the nested flow (directly or through others) nests \
            the first flow again, a run nests without end. Each flow in the cycle gets a finding at the step that \
            continues it, naming the whole chain.
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit: 1
            flow: itself
            start: again
            steps:
              again: { kind: flow, flow: ↓example.yaml, next: done }
              done: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: plain
            start: pay
            steps:
              pay: { kind: flow, flow: child.yaml, next: done }
              done: { kind: finish }
            """,
        ])

    public static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow, let workspace = context.workspace else { return [] }
        var findings: [Diagnostic] = []
        for step in flow.steps where step.kind == .flow {
            guard let reference = step.flowPath, let position = step.flowPathPosition,
                  let chain = workspace.cycle(through: reference, from: context.document.file) else { continue }
            let names = chain.map { ($0 as NSString).lastPathComponent }.joined(separator: " -> ")
            findings.append(context.finding(self, at: position, step: step.name.text, "flows nest each other in a cycle: \(names)"))
        }
        return findings
    }
}
