/// `syntax`: the file is not readable JSON or YAML (the loader reports where and why).
enum SyntaxRule: Rule {
    package static let description = RuleDescription(
        identifier: .syntax,
        name: "Syntax",
        summary: "The file is not valid JSON or YAML, is not UTF-8, exceeds a reader limit, or uses YAML that would change its meaning (a tag, a merge key).",
        rationale: """
            A flow that cannot be read cannot be checked. JSON is read strictly (RFC 8259: no comments, no trailing \
            commas); YAML is read as YAML 1.2. YAML that would change a flow's meaning is reported too, and the \
            rest of the file is still checked: a tag ('wrongPassword: !result.ok' is an empty value tagged \
            '!result.ok', not an expression; quote it), a merge key '<<' (write the keys out), a '%YAML' directive \
            for another version than 1.2, a '%TAG' directive. Nesting is limited to 256 levels, a file to 16 MiB and a document to \
            2,000,000 values with aliases expanded. The finding points at the character where reading stopped.
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit: 1
            flow: broken
            start: a
            steps:
              a: { next: b
              b↓: { kind: finish }
            """,
            """
            flowkit: 1
            flow: two
            start: a
            steps:
              a: { kind: finish }
            ↓---
            flowkit: 1
            """,
            """
            flowkit: 1
            flow: signIn
            start: password
            events:
              wrongPassword: ↓!result.ok
              signedIn:
            steps:
              password:
                result: { ok: bool }
                on: { wrongPassword: password, signedIn: home }
              home: { kind: finish }
            """,
            """
            flowkit: 1
            flow: merged
            start: a
            steps:
              base: &base { next: b }
              a:
                ↓<<: *base
              b: { kind: finish }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: ok
            start: a
            steps:
              a: { next: b }
              b: { kind: finish }
            """,
        ])

    /// Needs the document and its flow model only.
    static let needs: RuleNeeds = []

    package static func check(_ context: LintContext) -> [Diagnostic] { context.loaderFindings(self) }
}
