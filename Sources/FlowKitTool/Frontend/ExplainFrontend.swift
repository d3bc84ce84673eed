import FlowKit
import Foundation

/// `rules`, `explain` and `schema`: what flowkit checks and reads, as text (docs/format.md, "Rules").
package enum ExplainFrontend {
    /// The formats of the rule list.
    package enum RulesFormat: String, CaseIterable, Sendable {
        /// A line per rule.
        case text
        /// The README's table.
        case markdown
    }

    /// Every rule, in `format`.
    package static func rules(_ format: RulesFormat) -> CommandOutcome {
        CommandOutcome(outputs: [.standardOutput(format == .text ? RuleCatalog.text() : RuleCatalog.markdownTable())])
    }

    /// The description and examples of the rule named `identifier`; a usage error, with a suggestion, for a name
    /// that is no rule's.
    package static func explain(_ identifier: String) throws(CommandError) -> CommandOutcome {
        guard let rule = Linter.rule(RuleID(rawValue: identifier)) else {
            let hint = Suggestions.didYouMean(identifier, in: ruleNames)
            throw CommandError.usage("unknown rule '\(Identifier.display(identifier))'\(hint); 'flowkit rules' lists them")
        }
        return CommandOutcome(outputs: [.standardOutput(RuleCatalog.explanation(rule.description))])
    }

    /// The rules' identifiers, for completion.
    package static var ruleNames: [String] { Linter.rules.map { $0.description.identifier.rawValue } }

    /// The JSON Schema of flow files and scripts.
    package static func schema() -> CommandOutcome {
        CommandOutcome(outputs: [.standardOutput(FlowJSONSchema.text + "\n")])
    }
}
