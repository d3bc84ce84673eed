import FlowKit

/// `--format github`: GitHub Actions workflow commands, which the runner turns into annotations on the pull request
/// and the run's summary.
///
/// One line per finding, in the report's order:
///
///     ::error file=flows/a.yaml,line=3,col=5,title=dead_end::step 'receipt' has no transition…
///
/// An error is `::error`, a warning `::warning` and a note `::notice`. The message is escaped as GitHub's toolkit
/// escapes command data (`%`, carriage return and line feed as `%25`, `%0D` and `%0A`), and the property values
/// (file and title) as it escapes properties (the same, plus `:` as `%3A` and `,` as `%2C`), so no finding can end a
/// command early or start another.
///
/// The output is workflow commands only, with no summary line: it is meant for the runner, which shows each
/// annotation and its count on the run's page, and a report with no findings prints nothing at all. The job's
/// outcome comes from the exit status, as for every format.
package struct GitHubReporter: Reporter {
    /// "github", as `--format` takes it.
    package static let identifier = "github"

    /// Creates a GitHub Actions reporter.
    package init() {}

    /// One workflow command line per finding of `report`; nothing when it has none.
    package func render(_ report: LintReport) -> String {
        var output = ""
        for diagnostic in report.diagnostics {
            output += "::\(Self.command(diagnostic.severity)) file=\(Self.escapeProperty(diagnostic.file)),"
            output += "line=\(diagnostic.line),col=\(diagnostic.column),title=\(Self.escapeProperty(diagnostic.rule.rawValue))"
            output += "::\(Self.escapeData(diagnostic.message))\n"
        }
        return output
    }

    /// The workflow command for a severity: `error`, `warning` or `notice`.
    package static func command(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "notice"
        }
    }

    /// `text` escaped as a command's data (the message after `::`): `%`, `\r` and `\n` as `%25`, `%0D` and `%0A`.
    package static func escapeData(_ text: String) -> String {
        escape(text, colonAndComma: false)
    }

    /// `text` escaped as a command's property value: as data, plus `:` as `%3A` and `,` as `%2C`.
    package static func escapeProperty(_ text: String) -> String {
        escape(text, colonAndComma: true)
    }

    private static func escape(_ text: String, colonAndComma: Bool) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": output += "%25"
            case "\r": output += "%0D"
            case "\n": output += "%0A"
            case ":" where colonAndComma: output += "%3A"
            case "," where colonAndComma: output += "%2C"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
