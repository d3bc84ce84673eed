import FlowKit

/// The changes between two flow files, for a reporter.
package struct DiffReport: Sendable {
    /// The old file, as named.
    package var old: String
    /// The new file, as named.
    package var new: String
    /// The changes, in the order `FlowDiff.compare` gives them.
    package var changes: [FlowChange]
    /// Each changed file's change drawn as a Mermaid flowchart, for the Markdown format to embed.
    package var pictures: [Picture]

    /// A changed file's picture.
    package struct Picture: Sendable {
        /// The new file, as named.
        package var file: String
        /// The Mermaid flowchart.
        package var mermaid: String

        /// Creates a picture.
        package init(file: String, mermaid: String) {
            self.file = file
            self.mermaid = mermaid
        }
    }

    /// Creates a report.
    package init(old: String, new: String, changes: [FlowChange], pictures: [Picture] = []) {
        self.old = old
        self.new = new
        self.changes = changes
        self.pictures = pictures
    }

    /// How many changes there are of `level`.
    package func count(_ level: ChangeLevel) -> Int { changes.filter { $0.level == level }.count }

    /// `N breaking, N warnings, N info`, or `no changes`.
    package var summaryLine: String {
        guard !changes.isEmpty else { return "no changes" }
        let warnings = count(.warning)
        return "\(changes.count) change\(changes.count == 1 ? "" : "s"): \(count(.breaking)) breaking, \(warnings) warning\(warnings == 1 ? "" : "s"), \(count(.info)) info"
    }
}

/// The output formats of `flowkit diff` (docs/format.md, "Flow changes").
package enum DiffFormat: String, Sendable, CaseIterable {
    /// One line per change, then a summary.
    case text
    /// The changes as JSON.
    case json
    /// A pull request comment: a summary table, the changes by level, the picture.
    case markdown
    /// GitHub Actions annotations on the new file's lines.
    case github
    /// One line per change a user of the flow sees.
    case changelog

    /// The reporter that writes this format.
    package var reporter: any DiffReporter {
        switch self {
        case .text: return DiffTextReporter()
        case .json: return DiffJSONReporter()
        case .markdown: return DiffMarkdownReporter()
        case .github: return DiffGitHubReporter()
        case .changelog: return DiffChangelogReporter()
        }
    }
}

/// Turns a diff report into the text of one output format (docs/format.md, "Flow changes").
package protocol DiffReporter: Sendable {
    /// The format's name, as `--format` takes it.
    static var identifier: String { get }
    /// The whole output for `report`.
    func render(_ report: DiffReport) -> String
}
