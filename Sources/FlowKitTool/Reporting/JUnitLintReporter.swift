import FlowKit

/// `--format junit` for `flowkit lint`: JUnit XML in which every file checked is a test, for CI dashboards (GitLab,
/// Jenkins, Azure Pipelines, CircleCI, test-report actions).
///
///     <?xml version="1.0" encoding="UTF-8"?>
///     <testsuites name="flowkit lint" tests="2" failures="1" errors="0">
///       <testsuite name="flows/a.yaml" tests="1" failures="1" errors="0" skipped="0">
///         <testcase name="flows/a.yaml" classname="flowkit.lint">
///           <failure message="1 error" type="dead_end">flows/a.yaml:8:3: error: … [dead_end]</failure>
///           <system-out>flows/a.yaml:4:5: warning: … [unused_event]</system-out>
///         </testcase>
///       </testsuite>
///       <testsuite name="flows/b.yaml" tests="1" failures="0" errors="0" skipped="0">
///         <testcase name="flows/b.yaml" classname="flowkit.lint"/>
///       </testsuite>
///     </testsuites>
///
/// One `<testsuite>` per file, holding one `<testcase>` named after the file (classname `flowkit.lint`), so a file
/// keeps its test's identity and history from run to run whatever its line numbers. The test fails exactly when the
/// file fails the run (`LintReport.fails(_:)`: an error, or with `--strict` a warning), so that `failures` is non-zero
/// exactly when the exit code is 1: its single `<failure>` has the counts as `message`, the rules in order of first
/// appearance as `type`, and every failing finding as its text, one `file:line:column: severity: message [rule]` a
/// line. A test case has at most one failure because JUnit's schema allows one and dashboards show only the first;
/// the `failures` counts are thus counts of failing files, never more than `tests`. Findings that do not fail the run
/// (warnings without `--strict`, notes) are listed in the test case's `<system-out>`. `errors` is always 0: JUnit
/// keeps it for tests that could not run.
///
/// The report's `files` (the files checked) give the test cases in order, those without findings too; a file with
/// findings that is not among them gets its test case after them, in the order of its first finding.
package struct JUnitLintReporter: Reporter {
    /// "junit", as `--format` takes it.
    package static let identifier = "junit"

    /// Creates a JUnit reporter.
    package init() {}

    /// The JUnit XML of `report`: a test per file checked, ending in a newline.
    package func render(_ report: LintReport) -> String {
        var order: [String] = []
        var findings: [String: [Diagnostic]] = [:]
        for file in report.files where findings[file] == nil {
            order.append(file)
            findings[file] = []
        }
        for diagnostic in report.diagnostics {
            if findings[diagnostic.file] == nil { order.append(diagnostic.file) }
            findings[diagnostic.file, default: []].append(diagnostic)
        }
        let failing = order.filter { file in findings[file]!.contains(where: report.fails) }.count

        var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        output += "<testsuites name=\"flowkit lint\" tests=\"\(order.count)\" failures=\"\(failing)\" errors=\"0\">\n"
        for file in order {
            let diagnostics = findings[file]!
            let failures = diagnostics.filter(report.fails)
            let notes = diagnostics.filter { !report.fails($0) }
            let name = JUnitReporter.escapeAttribute(file)
            output += "  <testsuite name=\"\(name)\" tests=\"1\" failures=\"\(failures.isEmpty ? 0 : 1)\" errors=\"0\" skipped=\"0\">\n"
            output += "    <testcase name=\"\(name)\" classname=\"flowkit.lint\""
            if failures.isEmpty && notes.isEmpty {
                output += "/>\n"
            } else {
                output += ">\n"
                if !failures.isEmpty {
                    var rules: [String] = []
                    for diagnostic in failures where !rules.contains(diagnostic.rule.rawValue) { rules.append(diagnostic.rule.rawValue) }
                    output += "      <failure message=\"\(JUnitReporter.escapeAttribute(Self.counts(failures)))\" "
                    output += "type=\"\(JUnitReporter.escapeAttribute(rules.joined(separator: ", ")))\">"
                    output += JUnitReporter.escape(failures.map(XcodeReporter.line).joined(separator: "\n")) + "</failure>\n"
                }
                if !notes.isEmpty {
                    output += "      <system-out>" + JUnitReporter.escape(notes.map(XcodeReporter.line).joined(separator: "\n")) + "</system-out>\n"
                }
                output += "    </testcase>\n"
            }
            output += "  </testsuite>\n"
        }
        output += "</testsuites>\n"
        return output
    }

    /// "1 error", "2 errors, 1 warning": how many findings of each severity `diagnostics` has.
    static func counts(_ diagnostics: [Diagnostic]) -> String {
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        return [(Severity.error, "error"), (.warning, "warning"), (.note, "note")].compactMap { severity, word in
            let count = diagnostics.lazy.filter { $0.severity == severity }.count
            return count > 0 ? plural(count, word) : nil
        }.joined(separator: ", ")
    }
}

extension JUnitReporter {
    /// `text` escaped for an XML attribute value: `JUnitReporter.escape`, and line feeds, carriage returns and tabs
    /// as character references, which XML parsers would otherwise turn into spaces.
    static func escapeAttribute(_ text: String) -> String {
        var output = ""
        for scalar in escape(text).unicodeScalars {
            switch scalar {
            case "\n": output += "&#10;"
            case "\r": output += "&#13;"
            case "\t": output += "&#9;"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
