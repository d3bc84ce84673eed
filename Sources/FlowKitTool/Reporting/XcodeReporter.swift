import FlowKit

/// `--format xcode`: `file:line:column: severity: message [rule]`, one finding per line, the form Xcode turns into
/// issues when a build phase prints it (and that most editors and CI log parsers recognise).
///
/// It is exactly the text format's lines, never coloured, without the text format's summary line; a report with no
/// findings prints nothing. Like the text format, it shows the file and the message escaped (`Identifier.display`),
/// so that each finding is one line and no control character reaches the log.
package struct XcodeReporter: Reporter {
    /// "xcode", as `--format` takes it.
    package static let identifier = "xcode"

    /// Creates an Xcode reporter.
    package init() {}

    /// One `file:line:column: severity: message [rule]` line per finding of `report`; nothing when it has none.
    package func render(_ report: LintReport) -> String {
        var output = ""
        for diagnostic in report.diagnostics {
            output += Self.line(diagnostic) + "\n"
        }
        return output
    }

    /// `file:line:column: severity: message [rule]` for one finding.
    package static func line(_ diagnostic: Diagnostic) -> String {
        let file = Identifier.display(diagnostic.file, limit: .max, quoting: false)
        let message = Identifier.display(diagnostic.message, limit: .max, quoting: false)
        return "\(file):\(diagnostic.line):\(diagnostic.column): \(diagnostic.severity.rawValue): \(message) [\(diagnostic.rule)]"
    }
}
