import ArgumentParser
import FlowKit
import Foundation

/// The `flowkit` command: lints, renders and simulates flow files.
@main
struct Flowkit: ParsableCommand {
    /// The library's version: the command and the library are one release.
    static let version = FlowKitVersion.current

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
              flowkit generate swift flows/transfer.yaml -o Generated
              flowkit explain cannot_finish
            """,
        version: version,
        subcommands: [Lint.self, Render.self, Simulate.self, Generate.self, Rules.self, Explain.self, Schema.self],
        defaultSubcommand: nil
    )

    /// Runs the command, mapping ArgumentParser's usage errors to exit code 2 as flowkit documents. This is the one
    /// place where an error that stops a command is printed.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // --help and --version: their text goes to standard output through the checked writer.
                let message = fullMessage(for: error)
                do {
                    if !message.isEmpty { try StandardOutput.write(message + "\n") }
                } catch {
                    fail(error)
                }
                Foundation.exit(0)
            }
            if code == .validationFailure {
                printError(fullMessage(for: error))
                Foundation.exit(2)
            }
            if code == .failure, !(error is ExitCode) { fail(error) }
            exit(withError: error)
        }
    }

    /// Prints `error` as the command's one error line (escaped) and exits 2: the command could not do its work.
    static func fail(_ error: Error) -> Never {
        let description = (error as? LocalizedError)?.errorDescription ?? "\(error)"
        printError("flowkit: error: " + Identifier.display(description, limit: .max, quoting: false))
        Foundation.exit(2)
    }
}

/// Writes `text` to standard error, ending it with a newline.
func printError(_ text: String) {
    StandardOutput.writeError(text.hasSuffix("\n") ? text : text + "\n")
}
