import ArgumentParser
import FlowKit

/// `flowkit generate`: code generated from flow files.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generate code from flow files.",
        subcommands: [GenerateSwift.self])
}

/// `flowkit generate swift`: the typed Swift an app compiles for its flows (docs/format.md, "Generated Swift").
struct GenerateSwift: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swift",
        abstract: "Write typed Swift for flow files: steps, events, results, state, entries and a typed run.",
        discussion: """
            One file per flow file (transfer.yaml gives transfer.flowkit.swift), nested flows included; a file is \
            written only when its bytes change. A flow with lint errors is refused and nothing is written. The \
            FlowKitPlugin build plugin runs the same generator at build time.

            Examples:
              flowkit generate swift flows/transfer.yaml -o Sources/App/Generated
            """)

    @Argument(help: ArgumentHelp("The flow files.", valueName: "flow"), completion: .file(extensions: ["json", "yaml", "yml"]))
    var files: [String]

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The directory to write to (made when missing).", valueName: "dir"),
            completion: .directory)
    var output: String

    @Flag(name: .long, help: "Refuse a nested flow that is not among the files named (as the build plugin does).")
    var listedOnly = false

    @OptionGroup var options: OutputOptions

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one flow file") }
    }

    func run() throws {
        let color = options.color.enabled(for: 2)
        do {
            let outcome = try SwiftGeneration(paths: files, outputDirectory: output, listedOnly: listedOnly).run()
            if !outcome.warnings.isEmpty {
                printNote(TextReporter(color: color).render(LintReport(diagnostics: outcome.warnings, fileCount: outcome.outputs.count)))
            }
            for path in outcome.written { printNote("wrote \(Identifier.display(path, limit: .max, quoting: false))") }
        } catch let failure as SwiftGenerator.Failure {
            let findings = failure.diagnostics.isEmpty ? "" : TextReporter(color: color).render(LintReport(diagnostics: failure.diagnostics, fileCount: files.count))
            throw CommandFailure(findings: findings, errors: [failure.message], exitCode: 1)
        }
    }
}
