import FlowKit
import Foundation

/// `lint`: checks flow files and directories of them (docs/format.md, "Lint"), with configuration and a baseline,
/// and writes the report in one format to standard output and in others to files.
package enum LintFrontend {
    /// What a lint is asked to do.
    package struct Options: Sendable, Equatable {
        /// Flow files and directories.
        package var paths: [String]
        /// Whether a warning fails the lint too.
        package var strict = false
        /// The format of standard output.
        package var format: LintReportFormat = .text
        /// Whether text on standard output is coloured.
        package var color = false
        /// Reports to write to files too.
        package var reports: [ReportDestination<LintReportFormat>] = []
        /// The configuration file given, instead of each file's nearest `.flowkit.yml`.
        package var configuration: String?
        /// A baseline whose findings are hidden.
        package var baseline: String?
        /// Where to record the findings as a baseline instead of reporting them.
        package var writeBaseline: String?
        /// Whether nested flows outside the paths given are followed.
        package var allowOutside = false
        /// How the user follows a nested flow outside the paths anyway (in the front end's words), said in the
        /// finding of one.
        package var outsideNote: String?
        /// Whether the files skipped in directories are listed.
        package var verbose = false
        /// The version a report names.
        package var toolVersion = FlowKitVersion.current
        /// Whether to search a witness for each finding that foresees a run error (docs/format.md, "Witnesses").
        package var witness = false
        /// Where to write a script of witnesses per linted flow (implies `witness`).
        package var witnessesDirectory: String?
        /// The most run states a witness search visits per file.
        package var witnessBudget = 20_000
        /// Whether to apply the safe fixes of the findings to the files linted, then report what is left
        /// (docs/format.md, "Fixes").
        package var fix = false
        /// With `fix`: print the fixes as a unified diff instead of applying them.
        package var dryRun = false

        package init(paths: [String]) {
            self.paths = paths
        }
    }

    /// Lints as `options` say.
    package static func run(_ options: Options) throws(CommandError) -> CommandOutcome {
        func lintPaths(overlay: [String: [UInt8]] = [:]) throws(CommandError) -> LintSession.Outcome {
            do {
                return try LintSession.lint(paths: options.paths, configuration: try options.configuration.map { try LintConfiguration.load(path: $0) },
                                            baseline: try options.baseline.map { try Baseline.load(path: $0) }, allowOutside: options.allowOutside,
                                            outsideNote: options.outsideNote, overlay: overlay)
            } catch let error as LintSetupError {
                throw CommandError(error.problems.map { CommandMessage($0) }, status: .failure)
            } catch let error as ConfigurationError {
                throw CommandError.failure(error.message)
            } catch {
                throw CommandError.failure(CommandMessage(describing: error))
            }
        }
        var lint = try lintPaths()
        var outcome = CommandOutcome()
        // The texts `--fix` made, by canonical path: what the report's own fixes are worked out against.
        var fixedTexts: [String: [UInt8]] = [:]
        if options.fix && options.writeBaseline == nil {
            // In rounds, each linted from the texts the ones before made: a fix can bring a finding behind a run error
            // that always happened to light, with a fix of its own (docs/format.md, "Fixes").
            var rounds: [FixPlan] = []
            var texts: [String: [UInt8]] = [:]
            var left = FixPlan(lint.diagnostics)
            var relinted = lint
            while !left.files.isEmpty && rounds.count < FixPlan.rounds {
                rounds.append(left)
                for file in left.files { texts[FileFlowResolver.canonical(file.path)] = file.new }
                relinted = try lintPaths(overlay: texts)
                left = FixPlan(relinted.diagnostics, contents: texts)
            }
            let fixed = FixPlan.merged(rounds, left: left)
            if options.dryRun {
                // A diff names files relative to the working directory: one outside it cannot be named so.
                let outside = fixed.files.filter { $0.display == ".." || $0.display.hasPrefix("../") }
                outcome.print(fixed.files.filter { file in !outside.contains { $0.path == file.path } }
                    .map { FixEdits.unifiedDiff(path: $0.display, old: $0.old, new: $0.new) }.joined())
                outcome.note(fixed.summary(applied: false))
                for file in outside {
                    outcome.note("not in the diff: \(path: file.path) is outside the working directory, which a diff names files under; run the dry run from a folder above it")
                }
                outcome.errors = lint.failures.map { CommandMessage($0) }
                outcome.status = lint.failures.isEmpty ? .success : .failure
                return outcome
            }
            if !fixed.files.isEmpty || fixed.skipped > 0 { outcome.note(fixed.summary(applied: true)) }
            if !fixed.files.isEmpty {
                for file in fixed.files { outcome.write(file.new, to: file.path) }
                // What is left, linted from the fixed texts (written once the report is made).
                fixedTexts = texts
                lint = relinted
            }
        }
        if options.verbose {
            for file in lint.skipped { outcome.note("skipped \(path: file): not a flow file (no top-level 'flowkit' or 'flowkit-script' key)") }
        }
        if let path = options.writeBaseline {
            guard lint.failures.isEmpty else {
                outcome.errors = (lint.failures + ["no baseline written: the lint could not check everything"]).map { CommandMessage($0) }
                outcome.status = .failure
                return outcome
            }
            let count = lint.allDiagnostics.count
            outcome.write(Array(Baseline(findings: lint.allDiagnostics, relativeTo: path).json.utf8), to: path,
                          written: "wrote \(path: path) with \(count) finding\(verbatim: count == 1 ? "" : "s")")
            return outcome
        }
        var report = lint.report(strict: options.strict, toolVersion: options.toolVersion)
        // Only SARIF carries the edits: other reports do not read the files again for them.
        if options.format == .sarif || options.reports.contains(where: { $0.format == .sarif }) {
            report.fixEdits = FixPlan(lint.diagnostics, contents: fixedTexts).edits
        }
        if options.witness || options.witnessesDirectory != nil {
            let witnesses = Witnesses.search(report.diagnostics, budget: options.witnessBudget)
            report.witnesses = witnesses
            if let directory = options.witnessesDirectory {
                for (path, bytes) in try scripts(of: report.diagnostics, witnesses: witnesses, in: directory) { outcome.write(bytes, to: path) }
            }
        }
        outcome.print(options.format.reporter(color: options.color, verbose: options.verbose).render(report))
        if lint.baselined > 0 && options.format == .text {
            outcome.note("\(lint.baselined) finding\(lint.baselined == 1 ? "" : "s") hidden by the baseline")
        }
        for destination in options.reports {
            outcome.write(Array(destination.format.reporter().render(report).utf8), to: destination.path)
        }
        outcome.errors = lint.failures.map { CommandMessage($0) }
        outcome.status = !lint.failures.isEmpty ? .failure : report.fails ? .findings : .success
        return outcome
    }
}

extension LintFrontend {
    /// The scripts of `--witnesses DIR` (docs/format.md, "Witnesses"): for each flow with a witnessed finding, in
    /// lint order, `DIR/NAME.witnesses.yaml` (NAME the file's name without its extension, `-2`, `-3`, … for a name
    /// taken) with a scenario per witnessed finding. The directory is made when missing.
    static func scripts(of findings: [Diagnostic], witnesses: [Diagnostic: WitnessOutcome], in directory: String) throws(CommandError) -> [(String, [UInt8])] {
        var files: [String] = []
        var byFile: [String: [Scenario]] = [:]
        var names: [String: Set<String>] = [:]
        for finding in findings {
            guard let witness = witnesses[finding]?.witness else { continue }
            if byFile[finding.file] == nil { files.append(finding.file) }
            var name = Witnesses.name(of: finding)
            var count = 1
            while names[finding.file, default: []].contains(name) {
                count += 1
                name = Witnesses.name(of: finding) + " (\(count))"
            }
            names[finding.file, default: []].insert(name)
            byFile[finding.file, default: []].append(Witnesses.scenario(witness, name: name))
        }
        guard !files.isEmpty else { return [] }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandError.failure("\(path: directory): cannot make the directory: \(verbatim: (error as NSError).localizedFailureReason ?? error.localizedDescription)")
        }
        let base = FileFlowResolver.canonical(directory)
        var taken: Set<String> = []
        var scripts: [(String, [UInt8])] = []
        for file in files {
            let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
            var name = stem + ".witnesses.yaml"
            var count = 1
            while taken.contains(name) {
                count += 1
                name = "\(stem)-\(count).witnesses.yaml"
            }
            taken.insert(name)
            let reference = DisplayPath.relative(FileFlowResolver.canonical(file), to: base)
            let script = Script(file: "", flow: reference, flowPosition: nil, scenarios: byFile[file]!)
            let header = ["Witnesses found by flowkit lint for \(file): each scenario stops with the run error its finding",
                          "foresees (each named by rule and position)."]
            scripts.append(((directory as NSString).appendingPathComponent(name), Array(ScriptWriter.text(script, header: header).utf8)))
        }
        return scripts
    }
}

extension CommandMessage {
    /// The message of an error: its `LocalizedError` description, else how it describes itself.
    package init(describing error: any Error) {
        self.init((error as? LocalizedError)?.errorDescription ?? "\(error)")
    }
}
