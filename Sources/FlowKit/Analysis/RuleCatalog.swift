/// Text generated from the rule descriptions: `flowkit rules`, `flowkit explain` and the README's rule table.
package enum RuleCatalog {
    /// One line per rule: identifier, severity and summary, aligned.
    package static func text() -> String {
        let width = Linter.rules.map { $0.description.identifier.rawValue.count }.max() ?? 0
        return Linter.rules.map { rule in
            let d = rule.description
            let padded = d.identifier.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
            let severity = d.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
            return "\(padded)  \(severity)  \(d.summary)\n"
        }.joined()
    }

    /// The Markdown table of the rules, as the README shows it.
    package static func markdownTable() -> String {
        var output = "| rule | severity | what it finds |\n| --- | --- | --- |\n"
        for rule in Linter.rules {
            let d = rule.description
            output += "| `\(d.identifier)` | \(d.severity.rawValue) | \(d.summary.replacingOccurrences(of: "|", with: "\\|")) |\n"
        }
        return output
    }

    /// A rule's full explanation with its examples (markers removed).
    package static func explanation(_ d: RuleDescription) -> String {
        var output = "\(d.identifier): \(d.name) (\(d.severity.rawValue))\n\n\(d.summary)\n\n\(d.rationale)\n"
        func section(_ title: String, _ examples: [String]) {
            guard !examples.isEmpty else { return }
            output += "\n\(title):\n"
            for example in examples {
                output += "\n" + example.replacingOccurrences(of: "↓", with: "").split(separator: "\n", omittingEmptySubsequences: false)
                    .map { "    " + $0 }.joined(separator: "\n") + "\n"
            }
        }
        section("Triggers on", d.triggeringExamples)
        section("Does not trigger on", d.nonTriggeringExamples)
        return output
    }
}
