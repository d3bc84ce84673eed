import ArgumentParser
import FlowKit
import Foundation

/// The `flowkit` command: lints, renders and simulates flow files.
@main
struct Flowkit: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "flowkit",
        abstract: "Check app flows: lint, draw and simulate flow files written in JSON or YAML.",
        discussion: """
            Exit codes: 0 when all is well, 1 when a finding is an error (or, with --strict, a warning), \
            2 when the command could not do its work (a missing file, bad arguments).

            Examples:
              flowkit lint flows/transfer.json
              flowkit lint flows/ --format json
              flowkit render --png flows/transfer.json
              flowkit simulate --script flows/scripts/transfer.yaml
              flowkit explain cannot_finish
            """,
        version: version,
        subcommands: [Lint.self, Render.self, Simulate.self, Rules.self, Explain.self, Schema.self],
        defaultSubcommand: nil
    )

    /// Runs the command, mapping ArgumentParser's usage errors to exit code 2 as flowkit documents.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            if code == .failure, !(error is ExitCode) {
                // Any other error means the command could not do its work: a clear line, exit 2, no Swift dump.
                printError("flowkit: error: \(error.localizedDescription)")
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// Writes `text` to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
}
