import FlowKit

/// The output formats of `flowkit lint`, as `--format` names them.
package enum LintReportFormat: String, CaseIterable, Sendable {
    /// `file:line:column: severity: message [rule]` lines and a summary, optionally coloured.
    case text
    /// `{"diagnostics": [...], "summary": {...}}`.
    case json
    /// A SARIF 2.1.0 log, for GitHub code scanning.
    case sarif
    /// GitHub Actions workflow commands, which become annotations.
    case github
    /// JUnit XML with a test per file checked.
    case junit
    /// The text format's lines without colour or summary, for Xcode build phases.
    case xcode
    /// Checkstyle XML.
    case checkstyle

    /// The reporter of this format; `color` applies to `text` only (everything else a reporter needs is in the
    /// report it renders).
    package func reporter(color: Bool = false, verbose: Bool = false) -> any Reporter {
        switch self {
        case .text: return TextReporter(color: color, verbose: verbose)
        case .json: return JSONReporter()
        case .sarif: return SARIFReporter()
        case .github: return GitHubReporter()
        case .junit: return JUnitLintReporter()
        case .xcode: return XcodeReporter()
        case .checkstyle: return CheckstyleReporter()
        }
    }
}
