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
        subcommands: [Lint.self, Render.self, Simulate.self, CoverageCommand.self, Diff.self, Report.self, Generate.self, Rules.self, Explain.self, Schema.self, LSP.self],
        defaultSubcommand: nil
    )

    /// Runs the command: the one place where an error that stops a command is printed, and where exit codes are
    /// decided (0 all well, 1 findings, 2 the command could not do its work, ArgumentParser's usage errors
    /// included). Every line is escaped: a value typed on the command line reaches the terminal as text.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as CommandError {
            if error.isUsage { usage(fullMessage(for: ValidationError(error.messages.map(\.line).joined(separator: "\n")))) }
            if !error.findings.isEmpty { printNote(error.findings) }
            for message in error.messages { printNote("flowkit: error: " + Identifier.display(message.line, limit: .max, quoting: false)) }
            // A command that gave up on work it cannot stop (a Graphviz layout) ends at once, tearing nothing down.
            if error.immediately { _exit(error.status.rawValue) }
            Foundation.exit(error.status.rawValue)
        } catch {
            switch exitCode(for: error) {
            case .success:
                // --help and --version: their text goes to standard output through the checked writer.
                let message = fullMessage(for: error)
                do {
                    if !message.isEmpty { try StandardOutput.write(message + "\n") }
                } catch {
                    printNote("flowkit: error: " + Identifier.display(CommandMessage(describing: error).line, limit: .max, quoting: false))
                    Foundation.exit(ExitStatus.failure.rawValue)
                }
                Foundation.exit(ExitStatus.success.rawValue)
            case .validationFailure:
                usage(fullMessage(for: error))
            default:
                printNote("flowkit: error: " + Identifier.display(CommandMessage(describing: error).line, limit: .max, quoting: false))
                Foundation.exit(ExitStatus.failure.rawValue)
            }
        }
    }

    /// Prints a usage error as ArgumentParser words it and exits 2, escaped: a value typed on the command line that
    /// it quotes is escaped whole first (a line break in it does not start a line), then every line.
    static func usage(_ text: String) -> Never {
        var text = text
        for argument in CommandLine.arguments.dropFirst() where Identifier.needsEscape(argument) {
            text = text.replacingOccurrences(of: argument, with: Identifier.display(argument, limit: .max, quoting: false))
        }
        printNote(text.split(separator: "\n", omittingEmptySubsequences: false).map { Identifier.display(String($0), limit: .max, quoting: false) }.joined(separator: "\n"))
        Foundation.exit(ExitStatus.failure.rawValue)
    }
}

/// Writes `text` (a note for people, not the command's output) to standard error, ending it with a newline.
func printNote(_ text: String) {
    StandardOutput.writeError(text.hasSuffix("\n") ? text : text + "\n")
}
