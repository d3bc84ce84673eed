/// What a saved run depends on in a flow, as a normal form and its hash (docs/format.md, "Saving and restoring a
/// run"): names, kinds, types, expressions (parsed), targets and nested flows, one line per item, sorted; never
/// titles, descriptions, comments, suppressions, positions, key order, quoting or the file's format.
enum FlowFingerprint {
    /// FNV-1a 64 of `flow`'s normal form, as 16 lowercase hex digits.
    static func of(_ flow: Flow) -> String {
        FlowLoader.fingerprint(Array(normalForm(flow).utf8))
    }

    /// The normal form: one line per item.
    static func normalForm(_ flow: Flow) -> String {
        func q(_ text: String) -> String { JSONText.string(text) }
        func expression(_ source: ExpressionSource?) -> String { source.map { q(NormalForm.expression($0) ?? $0.text) } ?? "-" }
        func assignments(_ list: [Assignment]) -> String {
            "{" + list.map { q($0.key.text) + ": " + expression($0.expression) }.sorted().joined(separator: ", ") + "}"
        }
        func fields(_ list: [Field]) -> String {
            "{" + list.map { q($0.name.text) + ": " + FlowInterface.spelling($0.type) }.sorted().joined(separator: ", ") + "}"
        }
        func options(_ targets: [Target]) -> String {
            targets.map { target -> String in
                let move: String
                switch target.move {
                case .forward(let name): move = "to " + q(name.text)
                case .back(let name): move = "back " + q(name.text)
                case .backOne: move = "back"
                case .restart: move = "restart"
                }
                return "[" + move + " if " + expression(target.condition) + " set " + assignments(target.set) + "]"
            }.joined(separator: " ")
        }
        var lines = ["flow " + q(flow.name.text) + " version \(flow.version) start " + q(flow.start.text)]
        lines += flow.state.map { "state " + q($0.name.text) + ": " + FlowInterface.spelling($0.type) }.sorted()
        lines += flow.inputs.map { "input " + q($0.text) }.sorted()
        // Events in the order declared: the engine raises the first derived event that holds.
        lines += flow.events.map { "event " + q($0.name.text) + " = " + expression($0.expression) }
        lines += flow.entries.map { entry in
            "entry " + q(entry.name.text) + " path " + q(entry.path) + " step " + q(entry.step.text) + " nested " + (entry.nestedEntry.map { q($0.text) } ?? "-")
        }.sorted()
        var steps: [String] = []
        for step in flow.steps + (flow.anyStep.map { [$0] } ?? []) {
            var text = "step " + q(step.name.text) + " kind " + step.kind.rawValue
            text += " result " + (step.result.map(fields) ?? "-") + " set " + assignments(step.set)
            text += " flow " + (step.flowPath.map(q) ?? "-") + " input " + assignments(step.input) + " outcome " + (step.outcome.map { q($0.text) } ?? "-")
            text += "".appending(step.on.map { " on " + q($0.event.text) + " " + options($0.targets) }.sorted().joined())
            text += " next " + (step.next.map(options) ?? "-")
            steps.append(text)
        }
        lines += steps.sorted()
        return lines.joined(separator: "\n") + "\n"
    }
}
