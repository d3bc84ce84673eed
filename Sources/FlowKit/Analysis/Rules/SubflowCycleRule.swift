import Foundation

/// `subflow_cycle`: flows that nest each other in a cycle, so a run would nest without end.
enum SubflowCycleRule: Rule {
    package static let description = RuleDescription(
        identifier: .subflowCycle,
        name: "Nested flow cycle",
        summary: "Flows nest each other in a cycle, or deeper than a run allows.",
        rationale: """
            A flow step runs its nested flow to its end; when the nested flow (directly or through others) nests \
            the first flow again, a run nests without end. Each flow in the cycle gets a finding at the step that \
            continues it, naming the chain. Nesting deeper than a run allows (32 levels) is reported the same way.
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

    /// Needs the nested flows.
    static let needs: RuleNeeds = [.workspace]

    package static func check(_ context: LintContext) -> [Diagnostic] {
        guard let flow = context.flow, let workspace = context.workspace else { return [] }
        var findings: [Diagnostic] = []
        // The folder's canonical path (system calls) only when a cycle is to be shown.
        var folder: String {
            FileFlowResolver.canonical(FilePath.directory(of: context.document.file).isEmpty
                ? "." : FilePath.directory(of: context.document.file))
        }
        for step in flow.steps where step.kind == .flow {
            guard let reference = step.flowPath, let position = step.flowPathPosition else { continue }
            if let chain = workspace.cycle(through: reference, from: context.document.file) {
                let base = folder
                var names = chain.map { DisplayPath.relative($0, to: base) }
                if names.count > 12 { names = Array(names.prefix(10)) + ["… \(names.count - 11) more", names.last!] }
                findings.append(context.finding(self, at: position, step: step.name.text, subject: reference, "flows nest each other in a cycle: \(verbatim: names.joined(separator: " -> "))"))
            } else if case .loaded(_, let child) = workspace.nested(reference, from: context.document.file) {
                let depth = 1 + workspace.nestingDepth(below: child)
                if depth > FlowRun.maxNesting {
                    findings.append(context.finding(self, at: position, step: step.name.text, subject: reference,
                                                    "flows nest \(depth) levels deep below step '\(name: step.name.text)'; a run allows at most \(FlowRun.maxNesting)"))
                }
            }
        }
        return findings
    }
}
