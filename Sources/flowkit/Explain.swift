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
              completion: .list(ExplainFrontend.ruleNames))
    var rule: String

    func validate() throws {
        if let problem = ExplainFrontend.problem(with: rule) { throw ValidationError(problem.line) }
    }

    func run() throws {
        try perform(ExplainFrontend.explain(rule))
    }
}
