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
        guard let rule = Linter.rule(RuleID(rawValue: identifier)) else { throw CommandError.usage(unknownRule(identifier)) }
        return CommandOutcome(outputs: [.standardOutput(RuleCatalog.explanation(rule.description))])
    }

    /// Why `identifier` cannot be explained, nil when it names a rule (for a front end that checks its arguments
    /// before it runs).
    package static func problem(with identifier: String) -> CommandMessage? {
        Linter.rule(RuleID(rawValue: identifier)) == nil ? unknownRule(identifier) : nil
    }

    private static func unknownRule(_ identifier: String) -> CommandMessage {
        "unknown rule '\(name: identifier)'\(verbatim: Suggestions.didYouMean(identifier, in: ruleNames)); 'flowkit rules' lists them"
    }

    /// The rules' identifiers, for completion.
    package static var ruleNames: [String] { Linter.rules.map { $0.description.identifier.rawValue } }

    /// The JSON Schema of flow files and scripts.
    package static func schema() -> CommandOutcome {
        CommandOutcome(outputs: [.standardOutput(FlowJSONSchema.text + "\n")])
    }
}
