import FlowKit

/// `flowkit diff --format changelog`: one Markdown list line per change a user of the flow sees, for release notes:
/// `- FILE: MESSAGE (LEVEL)`. Changes only those who read the flow's inside see (transitions, conditions, sets; see
/// `ChangeCheck.isInternal`) are left out unless they are warnings or breaking. Nothing to list prints nothing.
package struct DiffChangelogReporter: DiffReporter {
    package static let identifier = "changelog"

    /// Creates a changelog reporter.
    package init() {}

    package func render(_ report: DiffReport) -> String {
        report.changes.filter { !$0.check.isInternal || $0.level >= .warning }.map { change in
            "- `\(MarkdownText.code(change.file))`: \(MarkdownText.text(change.message)) (\(change.level.rawValue))\n"
        }.joined()
    }
}
