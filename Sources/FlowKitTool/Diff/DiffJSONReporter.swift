import FlowKit

/// `flowkit diff --format json`: `{"changes": [...], "summary": {"breaking": N, "warning": N, "info": N}}`, each change
/// with its `check`, `level`, `message`, `file` (the new file of the two), and `old` and `new` places (`{"file", "line", "column"}` or null).
package struct DiffJSONReporter: DiffReporter {
    package static let identifier = "json"

    /// Creates a JSON reporter.
    package init() {}

    package func render(_ report: DiffReport) -> String {
        func place(_ place: FlowChange.Place?) -> String {
            guard let place else { return "null" }
            return "{\"file\": \(JSONText.string(place.file)), \"line\": \(place.line), \"column\": \(place.column)}"
        }
        let changes = report.changes.map { change in
            "{\"check\": \"\(change.check.rawValue)\", \"level\": \"\(change.level.rawValue)\", \"message\": \(JSONText.string(change.message)), "
                + "\"file\": \(JSONText.string(change.file)), \"old\": \(place(change.old)), \"new\": \(place(change.new))}"
        }
        return "{\"changes\": [" + (changes.isEmpty ? "" : "\n  " + changes.joined(separator: ",\n  ") + "\n") + "],\n"
            + " \"summary\": {\"breaking\": \(report.count(.breaking)), \"warning\": \(report.count(.warning)), \"info\": \(report.count(.info))}}\n"
    }
}
