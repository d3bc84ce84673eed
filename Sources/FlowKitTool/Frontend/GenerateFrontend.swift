import FlowKit
import Foundation

/// `generate`: typed Swift for flow files (docs/format.md, "Generated Swift"), and scripts whose scenarios cover a
/// flow (docs/format.md, "Generated scenarios").
package enum GenerateFrontend {
    /// What `generate swift` is asked to do.
    package struct SwiftOptions: Sendable, Equatable {
        /// The flow files.
        package var files: [String]
        /// The directory to write to.
        package var output: String
        /// Whether a nested flow must be among `files` (as the build plugin asks).
        package var listedOnly = false
        /// Whether findings on standard error are coloured.
        package var color = false

        package init(files: [String], output: String) {
            self.files = files
            self.output = output
        }
    }

    /// Writes the Swift of `options.files` (only the files whose bytes change).
    package static func swift(_ options: SwiftOptions) throws(CommandError) -> CommandOutcome {
        do {
            let generated = try SwiftGeneration(paths: options.files, outputDirectory: options.output, listedOnly: options.listedOnly).run()
            var outcome = CommandOutcome()
            if !generated.warnings.isEmpty {
                outcome.note(TextReporter(color: options.color).render(LintReport(diagnostics: generated.warnings, fileCount: generated.outputs.count)))
            }
            for path in generated.written { outcome.note("wrote \(path: path)") }
            return outcome
        } catch let failure as SwiftGenerator.Failure {
            let findings = failure.diagnostics.isEmpty
                ? "" : TextReporter(color: options.color).render(LintReport(diagnostics: failure.diagnostics, fileCount: options.files.count))
            throw CommandError(findings: findings, [failure.message], status: .findings)
        } catch {
            throw CommandError.failure(CommandMessage(describing: error))
        }
    }

    /// What `generate scenarios` is asked to do.
    package struct ScenarioOptions: Sendable, Equatable {
        /// The flow file.
        package var flow: String
        /// The script to write (with `extend`: that script, unless given).
        package var output: String?
        /// A script to add scenarios to for what it does not cover yet.
        package var extend: String?
        /// The most run states the search visits.
        package var budget = 20_000

        package init(flow: String) {
            self.flow = flow
        }
    }

    /// Writes a script whose scenarios cover what can be covered of `options.flow`.
    package static func scenarios(_ options: ScenarioOptions) throws(CommandError) -> CommandOutcome {
        let setup: SimulationSetup
        do {
            setup = try SimulationSetup(input: options.flow, script: options.extend, needsScript: false)
        } catch SimulationSetup.Problem.usage(let message) {
            throw CommandError.usage(message)
        } catch SimulationSetup.Problem.input(let findings, let message) {
            let text = findings.isEmpty ? "" : TextReporter(color: false).render(LintReport(diagnostics: findings, fileCount: 1))
            throw CommandError(findings: text, findings.isEmpty ? [message] : [], status: .findings)
        } catch {
            throw CommandError.failure(CommandMessage(describing: error))
        }
        var covered: Coverage?
        if let script = setup.script {
            var recorder = CoverageRecorder(flow: setup.flow, resolver: setup.resolver)
            for result in ScriptRunner.run(script, flow: setup.flow, resolver: setup.resolver) { recorder.record(result) }
            covered = recorder.coverage
        }
        let generated = ScenarioGenerator(budget: options.budget).generate(flow: setup.flow, resolver: setup.resolver, covered: covered)
        guard let destination = options.output ?? options.extend else { throw CommandError.usage("name the script to write with \(CommandOption.output), or one to extend with \(CommandOption.extend)") }
        let text: String
        if let extend = options.extend {
            let existing: String
            do {
                existing = String(decoding: try FlowLoader.read(path: extend, limit: ReaderLimits.standard.maxBytes), as: UTF8.self)
            } catch {
                throw CommandError.failure(CommandMessage(describing: error))
            }
            guard let extended = GeneratedScript.extending(existing, file: extend, existingScenarios: setup.script?.scenarios.count ?? 0, with: generated) else {
                // The line-break reason only when a line break alone changes what the script says.
                let breakAlone = existing.isEmpty || existing.hasSuffix("\n")
                    || FlowLoader.load(bytes: Array((existing + "\n").utf8), file: extend, format: .yaml).root.map(\.jsonText)
                        == FlowLoader.load(bytes: Array(existing.utf8), file: extend, format: .yaml).root.map(\.jsonText)
                let why = breakAlone
                    ? "its 'scenarios' list must be the last thing in the file, one '- name:' item per scenario"
                    : "its last line has no line break, and one added after it would change what the scenarios above say (a block scalar keeps it); end the file with a line break"
                throw CommandError.failure("cannot add scenarios to '\(path: extend)': \(verbatim: why); nothing was written")
            }
            text = extended
        } else {
            let folder = FilePath.directory(of: destination)
            let directory = FileFlowResolver.canonical(folder.isEmpty ? "." : folder)
            let reference = DisplayPath.relative(FileFlowResolver.canonical(setup.flowPath), to: directory)
            text = GeneratedScript.text(generated, flowReference: reference, flowName: setup.flowPath)
        }
        var outcome = CommandOutcome()
        let count = generated.scenarios.reduce(0) { $0 + $1.covers.count }
        var notes: [CommandMessage] = []
        if let cut = generated.cut { notes.append(CommandMessage(cut)) }
        for line in generated.uncovered { notes.append("not covered: \(line)") }
        notes.append("wrote \(path: destination): \(generated.scenarios.count) scenario\(verbatim: generated.scenarios.count == 1 ? "" : "s") covering \(count) transition\(verbatim: count == 1 ? "" : "s")"
                     + (generated.uncovered.isEmpty ? "" : ", \(generated.uncovered.count) not covered"))
        outcome.write(Array(text.utf8), to: destination, written: CommandMessage(joining: notes, separator: "\n"))
        return outcome
    }
}
