import ArgumentParser
import FlowKit
import FlowKitTool

/// `flowkit schema`: prints the JSON Schema of the flow format for editors.
struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        // Named here, not derived from the type: deriving it costs a scan of every protocol conformance in the
        // binary at start-up.
        commandName: "schema",
        abstract: "Print the JSON Schema (draft 2020-12) of the flow format.",
        discussion: """
            Save it and point your editor at it, e.g. with "$schema" in a JSON flow or a \
            '# yaml-language-server: $schema=...' comment in a YAML flow.

            Examples:
              flowkit schema > flow.schema.json
            """)

    func run() throws {
        try perform(ExplainFrontend.schema())
    }
}
