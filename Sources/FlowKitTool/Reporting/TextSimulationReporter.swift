import FlowKit

/// The default simulation output: a readable trace per scenario, pass or fail with the reason and where it points,
/// then the summary line `N passed, N failed`.
package struct TextSimulationReporter: SimulationReporter {
    package static let identifier = "text"

    /// Whether to colour the output with ANSI escapes.
    package var color: Bool
    /// Whether to print traces of passing scenarios too (failing ones always get theirs).
    package var verbose: Bool

    /// Creates a text reporter.
    package init(color: Bool, verbose: Bool = true) {
        self.color = color
        self.verbose = verbose
    }

    package func render(_ report: SimulationReport) -> String {
        var output = ""
        for run in report.scripts {
            // With several scripts, a heading before each one's scenarios.
            if report.scripts.count > 1 {
                output += style("script '\(Identifier.display(run.script, limit: .max))' on '\(Identifier.display(run.flow, limit: .max))'", "1;4") + "\n\n"
            }
            output += scenarios(run.results)
        }
        output += report.summaryLine + "\n"
        return output
    }

    /// Each scenario's name, trace and verdict.
    private func scenarios(_ results: [ScenarioResult]) -> String {
        var output = ""
        for result in results {
            output += style("scenario '\(Identifier.display(result.name, limit: .max))'", "1") + "\n"
            if verbose || !result.passed { output += Self.trace(result.trace) }
            if result.passed {
                output += "  " + style("passed", "1;32") + ": outcome '\(Identifier.display(result.outcome ?? "", limit: .max))' after \(result.path.count) steps\n"
            } else {
                if result.failures.count > 1 {
                    output += "  " + style("failed", "1;31") + ": \(result.failures.count) expectations do not hold\n"
                }
                for failure in result.failures {
                    let lead = result.failures.count > 1 ? "  - " : "  " + style("failed", "1;31") + ": "
                    output += lead + Self.shown(failure.message) + "\n"
                    if let file = failure.file {
                        output += "    at \(Self.shown(file)):\(failure.position.line):\(failure.position.column)\n"
                    }
                }
                if !result.path.isEmpty { output += "    path: \(Self.shown(result.path.joined(separator: ", ")))\n" }
            }
            output += "\n"
        }
        return output
    }

    /// One line per completion, in aligned columns: number, step, what came in, where the run went, state changes.
    package static func trace(_ entries: [TraceEntry]) -> String {
        let rows = entries.enumerated().map { index, entry -> (String, String, String, String, String) in
            var input: [String] = []
            if let result = entry.result { input.append("result \(describe(result))") }
            if let event = entry.event {
                switch entry.eventKind {
                case .derived?: input.append("raises \(event)")
                case .outcome?: input.append("outcome \(event)")
                default: input.append("event \(event)")
                }
            }
            if entry.move == .backButton { input.append("back button") }
            let move: String
            switch entry.move {
            case .forward: move = "-> \(entry.to)"
            case .restart: move = "-> restart at \(entry.to)"
            case .back, .backOne, .backButton: move = "<- back to \(entry.to)"
            }
            let changes = entry.changes.isEmpty ? "" : entry.changes.map { "\($0.key) = \($0.new)" }.joined(separator: ", ")
            return (String(index + 1), entry.step, input.joined(separator: ", "), move, changes)
        }
        let numberWidth = rows.map(\.0.count).max() ?? 1
        let stepWidth = rows.map(\.1.count).max() ?? 0
        let inputWidth = rows.map(\.2.count).max() ?? 0
        let moveWidth = rows.map(\.3.count).max() ?? 0
        return rows.map { number, step, input, move, changes in
            var line = "  " + number.leftPadded(numberWidth) + "  " + step.padded(stepWidth)
            if inputWidth > 0 { line += "  " + input.padded(inputWidth) }
            line += "  " + (changes.isEmpty ? move : move.padded(moveWidth) + "  " + changes)
            return shown(String(line.reversed().drop(while: { $0 == " " }).reversed())) + "\n"
        }.joined()
    }

    /// Text from a script, a flow or a result, with control and format characters escaped for the terminal.
    private static func shown(_ text: String) -> String {
        Identifier.display(text, limit: .max, quoting: false)
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

    /// The string padded with spaces on the right to `width`.
    func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
