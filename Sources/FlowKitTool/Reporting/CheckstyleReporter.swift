import FlowKit

/// `--format checkstyle`: Checkstyle's XML report, which Jenkins' Warnings plugin, reviewdog, SonarQube, GitLab
/// converters and many other tools read.
///
///     <?xml version="1.0" encoding="UTF-8"?>
///     <checkstyle version="4.3">
///       <file name="flows/a.yaml">
///         <error line="3" column="5" severity="error" message="…" source="flowkit.dead_end"/>
///       </file>
///     </checkstyle>
///
/// One `<file>` per file with findings, in the order of each file's first finding; inside it one `<error>` per
/// finding in the report's order. Severities are `error`, `warning` and, for notes, `info`. Files without findings are
/// not listed (Checkstyle's own reports do the same when asked for errors only); a report with no findings is an
/// empty `<checkstyle>` element.
package struct CheckstyleReporter: Reporter {
    /// "checkstyle", as `--format` takes it.
    package static let identifier = "checkstyle"

    /// Creates a Checkstyle reporter.
    package init() {}

    /// The Checkstyle XML of `report`, ending in a newline.
    package func render(_ report: LintReport) -> String {
        var files: [String] = []
        var findings: [String: [Diagnostic]] = [:]
        for diagnostic in report.diagnostics {
            if findings[diagnostic.file] == nil { files.append(diagnostic.file) }
            findings[diagnostic.file, default: []].append(diagnostic)
        }
        var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n"
        for file in files {
            output += "  <file name=\"\(JUnitReporter.escapeAttribute(file))\">\n"
            for diagnostic in findings[file]! {
                output += "    <error line=\"\(diagnostic.line)\" column=\"\(diagnostic.column)\" "
                output += "severity=\"\(Self.severity(diagnostic.severity))\" message=\"\(JUnitReporter.escapeAttribute(diagnostic.message))\" "
                output += "source=\"flowkit.\(JUnitReporter.escapeAttribute(diagnostic.rule.rawValue))\"/>\n"
            }
            output += "  </file>\n"
        }
        output += "</checkstyle>\n"
        return output
    }

    /// Checkstyle's severity for a finding's: `error`, `warning` or `info`.
    package static func severity(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "info"
        }
    }
}
