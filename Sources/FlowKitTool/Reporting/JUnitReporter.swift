import FlowKit

/// `--format junit`: JUnit XML with one test case per scenario, for CI dashboards.
package struct JUnitReporter: SimulationReporter {
    package static let identifier = "junit"

    /// Creates a JUnit reporter.
    package init() {}

    package func render(_ report: SimulationReport) -> String {
        var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        output += "<testsuites name=\"flowkit simulate\" tests=\"\(report.results.count)\" failures=\"\(report.failed)\" errors=\"0\">\n"
        for run in report.scripts {
            output += suite(run)
        }
        return output + "</testsuites>\n"
    }

    /// One script's scenarios as a `testsuite`.
    private func suite(_ run: SimulationReport.ScriptRun) -> String {
        let className = "flowkit." + Self.escape(run.flow)
        let failed = run.results.filter { !$0.passed }.count
        var output = "  <testsuite name=\"\(Self.escape(run.script))\" tests=\"\(run.results.count)\" failures=\"\(failed)\" errors=\"0\" skipped=\"0\">\n"
        for result in run.results {
            output += "    <testcase name=\"\(Self.escape(result.name))\" classname=\"\(className)\">\n"
            if !result.passed {
                let detail = result.failures.map { failure in
                    (failure.file.map { "\($0):\(failure.position.line):\(failure.position.column): " } ?? "") + failure.message
                }.joined(separator: "\n")
                output += "      <failure message=\"\(Self.escape(result.error ?? ""))\" type=\"ScenarioFailure\">\(Self.escape(detail))</failure>\n"
            }
            output += "      <system-out>\(Self.escape(TextSimulationReporter.trace(result.trace)))</system-out>\n"
            output += "    </testcase>\n"
        }
        return output + "  </testsuite>\n"
    }

    /// `text` escaped for XML attributes and content; characters XML 1.0 forbids are dropped.
    static func escape(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\n", "\t", "\r": output.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
