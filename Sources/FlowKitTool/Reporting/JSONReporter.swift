import FlowKit

/// `--format json`: `{"diagnostics": [...], "summary": {...}}`, the shape the design document fixes; a finding has
/// `step` and `subject` when it has them, and with `lint --witness` a finding of a rule that foresees run errors has
/// `witness` (or `null` and `witnessNote`).
package struct JSONReporter: Reporter {
    package static let identifier = "json"

    /// Creates a JSON reporter.
    package init() {}

    package func render(_ report: LintReport) -> String {
        var output = "{\"diagnostics\": ["
        for (index, diagnostic) in report.diagnostics.enumerated() {
            output += index == 0 ? "\n  " : ",\n  "
            output += "{\"file\": \(JSONText.string(diagnostic.file)), \"line\": \(diagnostic.line), \"column\": \(diagnostic.column), "
            output += "\"severity\": \"\(diagnostic.severity.rawValue)\", \"rule\": \(JSONText.string(diagnostic.rule.rawValue)), "
            if let step = diagnostic.step { output += "\"step\": \(JSONText.string(step)), " }
            if let subject = diagnostic.subject { output += "\"subject\": \(JSONText.string(subject)), " }
            output += "\"message\": \(JSONText.string(diagnostic.message))"
            switch report.witnesses?[diagnostic] {
            case .found(let witness)?:
                output += ", \"witness\": \(Witnesses.json(witness))"
                if let note = Witnesses.fixtureNote(witness) { output += ", \"witnessNote\": \(JSONText.string(note))" }
            case .none(let why)?: output += ", \"witness\": null, \"witnessNote\": \(JSONText.string(why.description))"
            case nil: break
            }
            output += "}"
        }
        output += report.diagnostics.isEmpty ? "],\n" : "\n ],\n"
        output += " \"summary\": {\"files\": \(report.fileCount), \"errors\": \(report.count(.error)), "
        output += "\"warnings\": \(report.count(.warning)), \"notes\": \(report.count(.note))}}\n"
        return output
    }
}
