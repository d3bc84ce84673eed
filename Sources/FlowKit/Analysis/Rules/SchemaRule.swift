/// `schema`: the document does not have the shape of a flow (unknown keys, wrong types, missing keys, bad names).
enum SchemaRule: Rule {
    package static let description = RuleDescription(
        identifier: .schema,
        name: "Schema",
        summary: "A key is unknown, missing or of the wrong type, or a name is not an identifier.",
        rationale: """
            The format is checked before anything else: unknown keys (with the closest known key suggested), \
            values of the wrong type, missing required keys ('flowkit', 'flow', 'start', 'steps'), names that are \
            not identifiers (an ASCII letter or '_', then letters, digits or '_'), and keys that only apply to \
            another kind of step. Graph rules wait until these are fixed, so one mistake gives one finding.
            """,
        severity: .error,
        triggeringExamples: [
            """
            flowkit: 1
            flow: typo
            start: a
            steps:
              a:
                ↓nxt: b
              b: { kind: finish }
            """,
            """
            flowkit: 1
            flow: names
            start: a
            steps:
              a: { next: ↓"b c" }
              ↓b c: { kind: finish }
            """,
            """
            ↓flowkit: 1
            flow: nostart
            steps:
              a: { kind: finish }
            """,
            """
            flowkit: 1
            flow: back
            start: a
            steps:
              a: { next: { back: ↓false } }
            """,
        ],
        nonTriggeringExamples: [
            """
            flowkit: 1
            flow: ok
            start: a
            state: { note: string?, tariff: [economy, business] }
            steps:
              a: { next: [{ forward: b, if: "exists(state.note)" }, b] }
              b: { kind: finish, outcome: done }
            """,
        ])

    /// Needs the document and its flow model only.
    static let needs: RuleNeeds = []

    package static func check(_ context: LintContext) -> [Diagnostic] { context.loaderFindings(self) }
}
