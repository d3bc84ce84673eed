/// `duplicate_key`: a mapping has the same key twice.
enum DuplicateKeyRule: Rule {
    package static let description = RuleDescription(
        identifier: .duplicateKey,
        name: "Duplicate key",
        summary: "A mapping has the same key twice; the first one is kept.",
        rationale: """
            JSON and YAML readers disagree on which of two equal keys wins, so a flow with duplicates means \
            different things to different tools. Keys are compared after Unicode normalisation (NFC). The finding \
            points at the second key and names where the first is.
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit: 1
            flow: twice
            start: a
            steps:
              a: { next: b }
              b: { kind: finish }
              ↓a: { next: b }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: once
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
