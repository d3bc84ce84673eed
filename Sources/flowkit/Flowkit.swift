import ArgumentParser
import FlowKit
import FlowKitTool
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
        subcommands: [Lint.self, Render.self, Simulate.self, CoverageCommand.self, Diff.self, Generate.self, Rules.self, Explain.self, Schema.self],
        defaultSubcommand: nil
    )

    /// Runs the command, mapping ArgumentParser's usage errors to exit code 2 as flowkit documents. This is the one
    /// place where an error that stops a command is printed.
    static func main() {
        do {
            if let request = LintRequest.quickParse(Array(CommandLine.arguments.dropFirst())) {
                try request.run()
            } else {
                var command = try parseAsRoot()
                try command.run()
            }
        } catch let failure as CommandFailure {
            if !failure.findings.isEmpty { printNote(failure.findings) }
            for line in failure.errors { printNote("flowkit: error: " + Identifier.display(line, limit: .max, quoting: false)) }
            // A command that gave up on work it cannot stop (a Graphviz layout) ends at once, tearing nothing down.
            if failure.immediately { _exit(failure.exitCode) }
            Foundation.exit(failure.exitCode)
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
                printNote(fullMessage(for: error))
                Foundation.exit(2)
            }
            fail(error)
        }
    }

    /// Prints `error` as the command's one error line (escaped) and exits 2: the command could not do its work.
    static func fail(_ error: Error) -> Never {
        let description = (error as? LocalizedError)?.errorDescription ?? "\(error)"
        printNote("flowkit: error: " + Identifier.display(description, limit: .max, quoting: false))
        Foundation.exit(2)
    }
}

/// Why a command stopped, for `Flowkit.main` to print in one place: the findings to show first (a rendered report),
/// then each error as a `flowkit: error:` line (escaped there), and the exit code (1: the input has errors, 2: the
/// command could not do its work). A failure with no errors is a verdict already shown (a lint that found errors).
struct CommandFailure: Error {
    /// Findings rendered as text, shown before the errors.
    var findings = ""
    /// The error lines, without the `flowkit: error:` prefix.
    var errors: [String] = []
    /// The exit code.
    var exitCode: Int32
    /// Whether to end the process without tearing anything down (work on another thread cannot be stopped).
    var immediately = false
}

/// Writes `text` (a note for people, not the command's output) to standard error, ending it with a newline.
func printNote(_ text: String) {
    StandardOutput.writeError(text.hasSuffix("\n") ? text : text + "\n")
}
