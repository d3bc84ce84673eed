import FlowKit

/// A Markdown summary for a pull request comment or `$GITHUB_STEP_SUMMARY`: a table of every flow file's
/// percentages, then each file's items not covered.
package struct CoverageMarkdownReporter: CoverageReporter {
    /// Creates a Markdown reporter.
    package init() {}

    package func render(_ coverage: Coverage) -> String {
        var output = "### Flow coverage\n\n| flow | steps | transitions | star-steps | events | outcomes | entries |\n| --- | --- | --- | --- | --- | --- | --- |\n"
        for file in coverage.files {
            func cell(_ covered: Int, _ total: Int) -> String {
                total == 0 ? "–" : "\(covered)/\(total) (\(CoverageTextReporter.percent(Double(covered) * 100 / Double(total))))"
            }
            var cells: [String] = []
            for kind in CoverageItem.Kind.allCases {
                let (covered, total) = file.count(kind)
                cells.append(cell(covered, total))
                if kind == .transition { cells.append(file.starSteps.map { cell($0.covered, $0.total) } ?? "–") }
            }
            output += "| `\(MarkdownText.code(file.file, inTable: true))` | " + cells.joined(separator: " | ") + " |\n"
        }
        let missed = coverage.files.filter { !$0.missed.isEmpty }
        if !missed.isEmpty {
            output += "\n<details><summary>Not covered</summary>\n\n"
            for file in missed {
                for item in file.missed {
                    output += "- `\(MarkdownText.code(file.file)):\(item.line):\(item.column)` \(MarkdownText.text(item.description)) \(item.kind.missedPhrase)\n"
                }
            }
            output += "\n</details>\n"
        }
        return output
    }
}
