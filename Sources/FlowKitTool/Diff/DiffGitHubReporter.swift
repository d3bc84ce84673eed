import FlowKit

/// `flowkit diff --format github`: a GitHub Actions workflow command per change, which the runner shows as an
/// annotation on the new file's line: `::error` for a breaking change, `::warning` for a warning, `::notice` for
/// info. Something removed has no line in the new file: its annotation is on the new file as a whole, and its
/// message says where it was. Escaped as `--format github` of lint escapes (docs/format.md, "Output formats").
package struct DiffGitHubReporter: DiffReporter {
    package static let identifier = "github"

    /// Creates a GitHub Actions reporter.
    package init() {}

    package func render(_ report: DiffReport) -> String {
        var output = ""
        for change in report.changes {
            let command: String
            switch change.level {
            case .breaking: command = "error"
            case .warning: command = "warning"
            case .info: command = "notice"
            }
            var message = change.message
            output += "::\(command) file=\(GitHubReporter.escapeProperty(change.file)),"
            if let place = change.new {
                output += "line=\(place.line),col=\(place.column),"
            } else if let place = change.old {
                message += " (was at \(place.file):\(place.line):\(place.column))"
            }
            output += "title=\(GitHubReporter.escapeProperty("flowkit diff (\(change.check.rawValue))"))::\(GitHubReporter.escapeData(message))\n"
        }
        return output
    }
}
