import FlowKit

/// `flowkit diff --format markdown`: a pull request comment. A heading with the counts, a table of the counts by
/// level, the breaking changes and the warnings as tables (where, what, check), the info changes in a folded
/// section, and the picture of each changed file (Mermaid, which GitHub draws) when the report has them.
package struct DiffMarkdownReporter: DiffReporter {
    package static let identifier = "markdown"

    /// Creates a Markdown reporter.
    package init() {}

    package func render(_ report: DiffReport) -> String {
        var output = "### Flow changes\n\n"
        guard !report.changes.isEmpty else { return output + "No changes.\n" }
        output += MarkdownText.text(report.summaryLine) + "\n\n| level | changes |\n| --- | ---: |\n"
        for level in ChangeLevel.allCases.reversed() { output += "| \(level.rawValue) | \(report.count(level)) |\n" }
        for level in ChangeLevel.allCases.reversed() {
            let changes = report.changes.filter { $0.level == level }
            guard !changes.isEmpty else { continue }
            let table = "| where | change | check |\n| --- | --- | --- |\n" + changes.map { change in
                let place = change.new ?? change.old
                let at = place.map { "`\(MarkdownText.code("\($0.file):\($0.line):\($0.column)", inTable: true))`" } ?? "`\(MarkdownText.code(change.file, inTable: true))`"
                return "| \(at) | \(MarkdownText.text(change.message)) | `\(change.check.rawValue)` |\n"
            }.joined()
            switch level {
            case .breaking: output += "\n#### Breaking\n\n" + table
            case .warning: output += "\n#### Warnings\n\n" + table
            case .info: output += "\n<details><summary>Info (\(changes.count))</summary>\n\n" + table + "\n</details>\n"
            }
        }
        for picture in report.pictures where !picture.mermaid.contains("```") {
            output += "\n<details open><summary>\(MarkdownText.html(picture.file))</summary>\n\n```mermaid\n" + picture.mermaid
                + (picture.mermaid.hasSuffix("\n") ? "" : "\n") + "```\n\n</details>\n"
        }
        return output
    }
}
