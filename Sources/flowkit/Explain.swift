import ArgumentParser
import FlowKit
import FlowKitTool

/// `flowkit explain RULE`: prints a rule's description and examples.
struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        // Named here, not derived from the type: deriving it costs a scan of every protocol conformance in the
        // binary at start-up.
        commandName: "explain",
        abstract: "Explain a lint rule, with examples.",
        discussion: """
            Examples:
              flowkit explain unreachable_step
            """)

    @Argument(help: ArgumentHelp("The rule's identifier, as 'flowkit rules' lists it.", valueName: "rule"),
              completion: .list(Linter.rules.map { $0.description.identifier.rawValue }))
    var rule: String

    func validate() throws {
        if Linter.rule(RuleID(rawValue: rule)) == nil {
            let hint = Suggestions.didYouMean(rule, in: Linter.rules.map { $0.description.identifier.rawValue })
            throw ValidationError("unknown rule '\(Identifier.display(rule))'\(hint); 'flowkit rules' lists them")
        }
    }

    func run() throws {
        if let rule = Linter.rule(RuleID(rawValue: rule)) { try StandardOutput.write(RuleCatalog.explanation(rule.description)) }
    }
}
