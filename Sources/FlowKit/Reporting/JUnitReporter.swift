/// `--format junit`: JUnit XML with one test case per scenario, for CI dashboards.
public struct JUnitReporter: SimulationReporter {
    public static let identifier = "junit"

    /// Creates a JUnit reporter.
    public init() {}

    public func render(_ report: SimulationReport) -> String {
        let suite = Self.escape(report.script)
        let className = "flowkit." + Self.escape(report.flow)
        var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        output += "<testsuites name=\"flowkit simulate\" tests=\"\(report.results.count)\" failures=\"\(report.failed)\" errors=\"0\">\n"
        output += "  <testsuite name=\"\(suite)\" tests=\"\(report.results.count)\" failures=\"\(report.failed)\" errors=\"0\" skipped=\"0\">\n"
        for result in report.results {
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
        output += "  </testsuite>\n</testsuites>\n"
        return output
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
