import FlowKit

/// Writes a diagram as a Mermaid `stateDiagram-v2`, which GitHub renders inside Markdown with no tool.
///
/// Every label is written with Mermaid's entity codes for the characters its grammar gives meaning to, so a
/// title cannot end a statement, open a note or inject a directive.
package enum MermaidWriter {
    /// The diagram as Mermaid text, laid out in the diagram's direction (`LR` or `TB`) unless `direction` says.
    package static func write(_ diagram: FlowDiagram, direction: String? = nil) -> String {
        let direction = direction ?? diagram.direction
        // The title sits in YAML front matter, where entity codes mean nothing: a JSON string is valid YAML.
        let title = String(String.UnicodeScalarView((diagram.title + (diagram.subtitle.map { " — " + $0 } ?? "")).unicodeScalars.map { $0.value < 0x20 || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : $0 }))
        var lines = ["---", "title: \(JSONText.string(title))", "---", "stateDiagram-v2", "    direction \(direction == "TB" ? "TB" : "LR")"]
        lines.append("    classDef action fill:#eef4ff,stroke:#4a6fb5")
        lines.append("    classDef flow fill:#f3eefc,stroke:#7a57b8")
        lines.append("    classDef finish fill:#e9f6ec,stroke:#3f8f52,stroke-width:2px")
        lines.append("    classDef undefined fill:#fdecea,stroke:#c0392b,stroke-dasharray:4 3")
        lines.append("    classDef marker fill:#ffffff,stroke:#999999,font-size:10px")
        lines.append("    classDef highlighted stroke:#d35400,stroke-width:3px")
        lines.append("    classDef entry fill:#fff8e1,stroke:#b7950b,font-size:10px")
        lines.append("    classDef boundary fill:#f4f4f4,stroke:#bbbbbb,color:#888888,font-size:10px")
        lines.append("    classDef failed fill:#fdecea,stroke:#c0392b,stroke-width:3px")
        if diagram.nodes.contains(where: \.neverShown) {
            lines.append("    classDef nevershown stroke:#c0392b,stroke-width:3px,stroke-dasharray:5 3")
        }
        if diagram.nodes.contains(where: { $0.change != nil }) {
            lines.append("    classDef added fill:#e9f7ef,stroke:#2e7d32,stroke-width:2px")
            lines.append("    classDef removed fill:#fdecea,stroke:#c0392b,stroke-dasharray:5 3,color:#c0392b")
            lines.append("    classDef changed fill:#fff3e0,stroke:#e67e22,stroke-width:2px")
            lines.append("    classDef unchanged fill:#f7f7f7,stroke:#c8c8c8,color:#999999")
        }
        var classes: [String: [String]] = [:]
        var legend: [String] = []
        for node in diagram.nodes {
            switch node.role {
            case .initial, .failureNote:
                continue
            case .screen, .anyStep:
                break
            case .entry: classes["entry", default: []].append(node.id)
            case .boundary: classes["boundary", default: []].append(node.id)
            case .action: classes["action", default: []].append(node.id)
            case .flow: classes["flow", default: []].append(node.id)
            case .finish: classes["finish", default: []].append(node.id)
            case .undefined: classes["undefined", default: []].append(node.id)
            case .backMarker, .connector: classes["marker", default: []].append(node.id)
            }
            if node.highlighted { classes["highlighted", default: []].append(node.id) }
            if node.failure != nil { classes["failed", default: []].append(node.id) }
            if node.neverShown { classes["nevershown", default: []].append(node.id) }
            if let change = node.change { classes[change.rawValue, default: []].append(node.id) }
            if node.inLegend {
                legend.append("        state \"\(escape(node.label))\" as \(node.id)")
            } else {
                lines.append("    state \"\(escape(node.label))\" as \(node.id)")
            }
        }
        for edge in diagram.edges {
            if diagram.nodes[edge.from].role == .failureNote {
                // Mermaid has notes: the failure is one, beside the step where the run stopped.
                lines.append("    note right of \(diagram.nodes[edge.to].id) : \(escape(diagram.nodes[edge.from].label))")
                continue
            }
            let from = diagram.nodes[edge.from].role == .initial ? "[*]" : diagram.nodes[edge.from].id
            let to = diagram.nodes[edge.to].id
            var label = edge.label ?? ""
            if edge.style == .back && !label.contains("back") { label += label.isEmpty ? "back" : " (back)" }
            if !edge.order.isEmpty { label = edge.order.map(String.init).joined(separator: ",") + ". " + label }
            // Coverage: Mermaid cannot colour one transition, so the label says it.
            if let note = edge.coverageLabel { label = (label.isEmpty ? "" : label + " ") + (edge.hits == 0 ? "✗ " : "") + note }
            // A change: Mermaid cannot colour one transition either, so the label says what happened to it.
            switch edge.change {
            case .added?: label = "+ " + label
            case .removed?: label = "− " + label
            case .changed?: label = "~ " + label
            case .unchanged?, nil: break
            }
            label = label.trimmingCharacters(in: .whitespaces)
            let line = "\(from) --> \(to)" + (label.isEmpty ? "" : " : \(escape(label))")
            if edge.inLegend { legend.append("        " + line) } else { lines.append("    " + line) }
        }
        for node in diagram.nodes where node.role == .finish && !node.inLegend {
            lines.append("    \(node.id) --> [*]")
        }
        if !legend.isEmpty {
            lines.append("    state \"Key\" as legend {")
            lines += legend
            lines.append("    }")
        }
        for (name, ids) in classes.sorted(by: { $0.key < $1.key }) {
            lines.append("    class \(ids.joined(separator: ",")) \(name)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` with Mermaid's grammar characters as entity codes, line breaks as `<br>`, control characters dropped,
    /// and Unicode format characters (bidirectional overrides such as U+202E, zero-width joiners) shown as `\u{202e}`,
    /// as every other output shows them, so that none reorders or hides a label.
    package static func escape(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": output += "<br>"
            case "\"": output += "#quot;"
            case "#": output += "#35;"
            case ":": output += "#58;"
            case ";": output += "#59;"
            case "<": output += "#lt;"
            case ">": output += "#gt;"
            case "{": output += "#123;"
            case "}": output += "#125;"
            case "[": output += "#91;"
            case "]": output += "#93;"
            case "|": output += "#124;"
            case "%": output += "#37;"
            case "`": output += "#96;"
            case "\\": output += "#92;"
            case "-": output += "#45;"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 { continue }
                if scalar.properties.generalCategory == .format {
                    output += "#92;u#123;" + String(scalar.value, radix: 16) + "#125;"
                    continue
                }
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
