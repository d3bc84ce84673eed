import FlowKit

/// `--format json` for simulations: `{"scenarios": [...], "summary": {...}}` with each scenario's name (and, when
/// several scripts ran, its `script` and `flow`), `passed`, `path`, `outcome`, final `state`, `error` when it failed,
/// and its full trace.
package struct JSONSimulationReporter: SimulationReporter {
    package static let identifier = "json"

    /// Creates a JSON reporter.
    package init() {}

    package func render(_ report: SimulationReport) -> String {
        var scenarios: [String] = []
        for (run, result) in report.scripts.flatMap({ run in run.results.map { (run, $0) } }) {
            var fields = [
                "\"name\": \(JSONText.string(result.name))",
                "\"passed\": \(result.passed)",
                "\"path\": [" + result.path.map(JSONText.string).joined(separator: ", ") + "]",
                "\"outcome\": " + (result.outcome.map(JSONText.string) ?? "null"),
                "\"state\": " + Value.object(result.state).jsonText,
            ]
            // With several scripts, each scenario says which it came from.
            if report.scripts.count > 1 {
                fields.insert("\"script\": \(JSONText.string(run.script))", at: 1)
                fields.insert("\"flow\": \(JSONText.string(run.flow))", at: 2)
            }
            if let entry = result.entry { fields.append("\"start\": {\"entry\": \(JSONText.string(entry))}") }
            if let error = result.error {
                fields.append("\"error\": \(JSONText.string(error))")
                if let location = result.errorLocation {
                    fields.append("\"errorLocation\": {\"file\": \(JSONText.string(location.file)), \"line\": \(location.position.line), \"column\": \(location.position.column)}")
                }
                if !result.failures.isEmpty {
                    let failures = result.failures.map { failure -> String in
                        var parts = ["\"message\": \(JSONText.string(failure.message))"]
                        if let file = failure.file {
                            parts += ["\"file\": \(JSONText.string(file))", "\"line\": \(failure.position.line)", "\"column\": \(failure.position.column)"]
                        }
                        return "{" + parts.joined(separator: ", ") + "}"
                    }
                    fields.append("\"failures\": [" + failures.joined(separator: ", ") + "]")
                }
            }
            let trace = result.trace.map { entry -> String in
                var parts = ["\"step\": \(JSONText.string(entry.step))"]
                if let event = entry.event {
                    parts.append("\"event\": \(JSONText.string(event))")
                    parts.append("\"eventKind\": \"\(entry.eventKind?.rawValue ?? "explicit")\"")
                }
                if let result = entry.result { parts.append("\"result\": \(Value.object(result).jsonText)") }
                parts.append("\"move\": \(JSONText.string(entry.move.rawValue))")
                parts.append("\"to\": \(JSONText.string(entry.to))")
                let changes = entry.changes.map { change in
                    "{\"key\": \(JSONText.string(change.key)), \"old\": \(change.old?.jsonText ?? "null"), \"new\": \(change.new.jsonText)}"
                }
                parts.append("\"changes\": [" + changes.joined(separator: ", ") + "]")
                return "{" + parts.joined(separator: ", ") + "}"
            }
            fields.append("\"trace\": [\n      " + trace.joined(separator: ",\n      ") + "]")
            scenarios.append("{" + fields.joined(separator: ", ") + "}")
        }
        return "{\"scenarios\": [\n  " + scenarios.joined(separator: ",\n  ") + "],\n \"summary\": {\"passed\": \(report.passed), \"failed\": \(report.failed)}}\n"
    }
}
