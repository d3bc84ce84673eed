import FlowKit

/// The default output: `file:line:column: severity: message [rule]` per finding, the form Xcode, editors and most
/// CI log parsers recognise, then a one-line summary.
package struct TextReporter: Reporter {
    package static let identifier = "text"

    /// Whether to colour the output with ANSI escapes.
    package var color: Bool
    /// Whether to show each finding's witness (or why it has none) on a line under it, when the report has them.
    package var verbose: Bool

    /// Creates a text reporter, coloured or plain.
    package init(color: Bool, verbose: Bool = false) {
        self.color = color
        self.verbose = verbose
    }

    package func render(_ report: LintReport) -> String {
        var output = ""
        for diagnostic in report.diagnostics {
            // The file and the message are escaped, so that each finding is one line and only the colours are escapes.
            let file = Identifier.display(diagnostic.file, limit: .max, quoting: false)
            output += style("\(file):\(diagnostic.line):\(diagnostic.column):", "1")
            output += " " + style("\(diagnostic.severity.rawValue):", severityStyle(diagnostic.severity))
            output += " \(Identifier.display(diagnostic.message, limit: .max, quoting: false)) " + style("[\(diagnostic.rule)]", "2") + "\n"
            guard verbose, let outcome = report.witnesses?[diagnostic] else { continue }
            switch outcome {
            case .found(let witness):
                output += "  e.g. " + Identifier.display(Witnesses.text(witness), limit: .max, quoting: false) + "\n"
                if let note = Witnesses.fixtureNote(witness) { output += "  (\(Identifier.display(note, limit: .max, quoting: false)))\n" }
            case .none(let why): output += "  no witness: " + Identifier.display(why.description, limit: .max, quoting: false) + "\n"
            }
        }
        output += Self.summary(report) + "\n"
        return output
    }

    /// "2 files checked: 1 error, 1 warning", "2 files checked: no findings", with files skipped in directories
    /// "7 files checked, 2 skipped (not flow files): no findings", and when the command also printed errors (a path it
    /// could not read, a directory with no flow files) "0 files checked: no findings; 1 problem fails the run".
    package static func summary(_ report: LintReport) -> String {
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        let counts = [(Severity.error, "error"), (.warning, "warning"), (.note, "note")].compactMap { severity, word in
            report.count(severity) > 0 ? plural(report.count(severity), word) : nil
        }
        let skipped = report.skippedCount > 0 ? ", \(report.skippedCount) skipped (not flow files)" : ""
        let problems = report.problemCount == 1 ? "; 1 problem fails the run"
            : report.problemCount > 1 ? "; \(report.problemCount) problems fail the run" : ""
        return "\(plural(report.fileCount, "file")) checked\(skipped): " + (counts.isEmpty ? "no findings" : counts.joined(separator: ", "))
            + problems
    }

    private func severityStyle(_ severity: Severity) -> String {
        switch severity {
        case .error: return "1;31"
        case .warning: return "1;33"
        case .note: return "1;36"
        }
    }

    private func style(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
