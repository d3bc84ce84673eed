import ArgumentParser
import FlowKit
import FlowKitTool
import Foundation

/// `flowkit generate`: code generated from flow files.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        // Named here, not derived from the type: deriving it costs a scan of every protocol conformance in the
        // binary at start-up.
        commandName: "generate",
        abstract: "Generate code from flow files.",
        subcommands: [GenerateSwift.self, GenerateScenarios.self])
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

/// `flowkit generate scenarios`: a script whose scenarios cover the flow's transitions (docs/format.md, "Generated
/// scenarios").
struct GenerateScenarios: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenarios",
        abstract: "Write a simulation script whose scenarios cover every transition of a flow that can be taken.",
        discussion: """
            Each scenario is the shortest run found to a transition no scenario before it takes, carried on to the \
            nearest finish step; its expect is what the engine did. What cannot be covered within the budget is \
            listed on standard error and at the top of the script. With --extend, scenarios are added to an \
            existing script only for what it does not cover yet, and its own scenarios are left as they are.

            Examples:
              flowkit generate scenarios flows/transfer.yaml -o transfer.generated.yaml
            """)

    @Argument(help: ArgumentHelp("The flow file.", valueName: "flow"), completion: .file(extensions: ["json", "yaml", "yml"]))
    var flow: String

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The script to write (with --extend: that script, unless named).", valueName: "path"),
            completion: .file(extensions: ["yaml", "yml"]))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("Add scenarios to this script for what it does not cover yet.", valueName: "script"),
            completion: .file(extensions: ["yaml", "yml"]))
    var extend: String?

    @Option(name: .long, help: ArgumentHelp("The most run states the search visits.", valueName: "n"))
    var budget: Int = 20_000

    func validate() throws {
        if output == nil && extend == nil { throw ValidationError("name the script to write with -o, or one to extend with --extend") }
        if budget < 1 { throw ValidationError("--budget takes a number of run states, 1 or more") }
    }

    func run() throws {
        let setup: SimulationSetup
        do {
            setup = try SimulationSetup(input: flow, script: extend, needsScript: false)
        } catch SimulationSetup.Problem.usage(let message) {
            throw ValidationError(message)
        } catch SimulationSetup.Problem.input(let findings, let message) {
            let text = findings.isEmpty ? "" : TextReporter(color: false).render(LintReport(diagnostics: findings, fileCount: 1))
            throw CommandFailure(findings: text, errors: findings.isEmpty ? [message] : [], exitCode: 1)
        }
        var covered: Coverage?
        if let script = setup.script {
            var recorder = CoverageRecorder(flow: setup.flow, resolver: setup.resolver)
            for result in ScriptRunner.run(script, flow: setup.flow, resolver: setup.resolver) { recorder.record(result) }
            covered = recorder.coverage
        }
        let generated = ScenarioGenerator(budget: budget).generate(flow: setup.flow, resolver: setup.resolver, covered: covered)
        let destination = output ?? extend!
        let text: String
        if let extend {
            let existing = String(decoding: try FlowLoader.read(path: extend, limit: ReaderLimits.standard.maxBytes), as: UTF8.self)
            guard let extended = GeneratedScript.extending(existing, file: extend, existingScenarios: setup.script?.scenarios.count ?? 0, with: generated) else {
                // The line-break reason only when a line break alone changes what the script says.
                let breakAlone = existing.isEmpty || existing.hasSuffix("\n")
                    || FlowLoader.load(bytes: Array((existing + "\n").utf8), file: extend, format: .yaml).root.map(\.jsonText)
                        == FlowLoader.load(bytes: Array(existing.utf8), file: extend, format: .yaml).root.map(\.jsonText)
                let why = breakAlone
                    ? "its 'scenarios' list must be the last thing in the file, one '- name:' item per scenario"
                    : "its last line has no line break, and one added after it would change what the scenarios above say (a block scalar keeps it); end the file with a line break"
                throw CommandFailure(errors: ["cannot add scenarios to '\(Identifier.display(extend, limit: .max, quoting: false))': \(why); nothing was written"], exitCode: 2)
            }
            text = extended
        } else {
            let directory = FileFlowResolver.canonical((destination as NSString).deletingLastPathComponent.isEmpty ? "." : (destination as NSString).deletingLastPathComponent)
            let reference = DisplayPath.relative(FileFlowResolver.canonical(setup.flowPath), to: directory)
            text = GeneratedScript.text(generated, flowReference: reference, flowName: setup.flowPath)
        }
        try OutputFile.write(Array(text.utf8), to: destination)
        if let cut = generated.cut { printNote(cut) }
        for line in generated.uncovered { printNote("not covered: " + Identifier.display(line, limit: .max, quoting: false)) }
        let count = generated.scenarios.reduce(0) { $0 + $1.covers.count }
        printNote("wrote \(Identifier.display(destination, limit: .max, quoting: false)): \(generated.scenarios.count) scenario\(generated.scenarios.count == 1 ? "" : "s") covering \(count) transition\(count == 1 ? "" : "s")"
                  + (generated.uncovered.isEmpty ? "" : ", \(generated.uncovered.count) not covered"))
    }
}
