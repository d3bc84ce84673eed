/// The default simulation output: a readable trace per scenario, pass or fail with the reason and where it points,
/// then the summary line `N passed, N failed`.
public struct TextSimulationReporter: SimulationReporter {
    public static let identifier = "text"

    /// Whether to colour the output with ANSI escapes.
    public var color: Bool
    /// Whether to print traces of passing scenarios too (failing ones always get theirs).
    public var verbose: Bool

    /// Creates a text reporter.
    public init(color: Bool, verbose: Bool = true) {
        self.color = color
        self.verbose = verbose
    }

    public func render(_ report: SimulationReport) -> String {
        var output = ""
        for result in report.results {
            output += style("scenario '\(result.name)'", "1") + "\n"
            if verbose || !result.passed { output += Self.trace(result.trace) }
            if result.passed {
                output += "  " + style("passed", "1;32") + ": outcome '\(result.outcome ?? "")' after \(result.path.count) steps\n"
            } else {
                output += "  " + style("failed", "1;31") + ": \(result.error ?? "")\n"
                if let location = result.errorLocation {
                    output += "    at \(location.file):\(location.position.line):\(location.position.column)\n"
                }
                if !result.path.isEmpty { output += "    path: \(result.path.joined(separator: ", "))\n" }
            }
            output += "\n"
        }
        output += report.summaryLine + "\n"
        return output
    }

    /// One line per completion: number, step, what came in, the move and where it went, the state changes.
    public static func trace(_ entries: [TraceEntry]) -> String {
        var output = ""
        for (index, entry) in entries.enumerated() {
            var input: [String] = []
            if let result = entry.result { input.append("result \(describe(result))") }
            if let event = entry.event {
                switch entry.eventKind {
                case .derived?: input.append("raises \(event)")
                case .outcome?: input.append("outcome \(event)")
                default: input.append("event \(event)")
                }
            }
            var line = "  \(String(index + 1).leftPadded(3))  \(entry.step)"
            if !input.isEmpty { line += "  " + input.joined(separator: ", ") }
            line += "  -> \(entry.move == "forward" ? "" : entry.move + " ")\(entry.to)"
            if !entry.changes.isEmpty {
                line += "  [" + entry.changes.map { "\($0.key) = \($0.new)" }.joined(separator: ", ") + "]"
            }
            output += line + "\n"
        }
        return output
    }

    private func style(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

extension String {
    /// The string padded with spaces on the left to `width`.
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
