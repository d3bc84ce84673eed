import ArgumentParser
import FlowKit
import FlowKitTool

/// `flowkit rules`: lists every rule with its severity and summary.
struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        // Named here, not derived from the type: deriving it costs a scan of every protocol conformance in the
        // binary at start-up.
        commandName: "rules",
        abstract: "List the lint rules.",
        discussion: """
            Examples:
              flowkit rules
              flowkit rules --format markdown
            """)

    /// The listing formats.
    @Option(name: .long, help: "Output format: text or markdown (the README's rule table).")
    var format: ExplainFrontend.RulesFormat = .text

    func run() throws {
        try perform(ExplainFrontend.rules(format))
    }
}

extension ExplainFrontend.RulesFormat: ExpressibleByArgument {}
