import Foundation
import FlowKit

/// What `flowkit diff` does, for the command and for other tools: reads the files (or their versions at a git
/// revision), compares them, applies the levels `.flowkit.yml` sets, and writes the report in one format
/// (docs/format.md, "Flow changes").
package enum DiffFrontend {
    /// What to compare and how to report it.
    package struct Options: Sendable {
        /// The old and the new file; with `revision`, the files and directories to compare with their versions.
        package var files: [String]
        /// The git revision to compare with, if any.
        package var revision: String?
        /// The output format.
        package var format: DiffFormat = .text
        /// The configuration file for every file compared; nil: each new file's nearest `.flowkit.yml`.
        package var configuration: String?
        /// Whether to rewrite the scripts of the compared flows for their renames.
        package var fixScripts: Bool
        /// The level at which a change fails the command (exit 1), if any.
        package var failOn: ChangeLevel?
        /// Whether to list the checks with their levels instead of comparing.
        package var listChecks = false

        /// Creates options.
        package init(files: [String], revision: String? = nil, format: DiffFormat = .text, configuration: String? = nil, fixScripts: Bool = false) {
            self.files = files
            self.revision = revision
            self.format = format
            self.configuration = configuration
            self.fixScripts = fixScripts
        }
    }

    /// What a comparison gave.
    package struct Outcome: Sendable {
        /// The report, as compared.
        package var report: DiffReport
        /// The report in the format asked for.
        package var output: String
        /// Lines for standard error: files with nothing to compare with.
        package var notes: [CommandMessage]
        /// Files found in directories that could not be compared (the command exits 2 after the output).
        package var problems: [CommandMessage]
        /// With `fixScripts`: the scripts rewritten (already written), with what changed in each.
        package var fixed: [ScriptFixer.Fixed] = []
        /// The flows compared, old and new (what a picture of a change draws).
        package var pairs: [(old: Flow, new: Flow)] = []
    }

    /// Does what `options` ask: lists the checks, or compares and reports, rewrites scripts, and fails at the
    /// level asked.
    package static func run(_ options: Options) throws(CommandError) -> CommandOutcome {
        var outcome = CommandOutcome()
        if options.listChecks {
            let width = ChangeCheck.allCases.map(\.rawValue.count).max() ?? 0
            outcome.print(ChangeCheck.allCases.map { check in
                check.rawValue.padding(toLength: width + 2, withPad: " ", startingAt: 0) + check.level.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0) + check.summary
            }.joined(separator: "\n") + "\n")
            return outcome
        }
        let compared: Outcome
        do {
            compared = try compare(options)
        } catch {
            let findings = error.findings.isEmpty ? "" : TextReporter(color: false).render(LintReport(diagnostics: error.findings, fileCount: 1))
            throw CommandError(findings: String(findings.split(separator: "\n").dropLast().joined(separator: "\n")), [error.message], status: .failure)
        }
        for note in compared.notes { outcome.note(note) }
        for script in compared.fixed {
            for edit in script.edits {
                outcome.note("\(path: script.file):\(edit.line):\(edit.column): \(verbatim: edit.kind) '\(name: edit.old)' is now '\(name: edit.new)'")
            }
        }
        outcome.print(compared.output)
        if !compared.problems.isEmpty {
            outcome.errors = compared.problems
            outcome.status = .failure
        } else if let level = options.failOn {
            let found = compared.report.changes.filter { $0.level >= level }.count
            if found > 0 {
                outcome.errors = ["\(found) change\(verbatim: found == 1 ? "" : "s") at level \(verbatim: level.rawValue) or worse"]
                outcome.status = .findings
            }
        }
        return outcome
    }

    /// Compares as `options` say. Throws when a file named cannot be compared or a configuration cannot be used.
    package static func compare(_ options: Options) throws(FlowDiff.Problem) -> Outcome {
        var pairs: [(old: Flow, new: Flow)] = []
        var notes: [CommandMessage] = []
        var problems: [CommandMessage] = []
        var changes: [FlowChange] = []
        if options.revision == nil, options.files.count != 2 {
            throw FlowDiff.Problem(message: "give the old and the new flow file (\(options.files.count) given)", findings: [])
        }
        let around: FlowParents.Neighbourhood
        if let revision = options.revision {
            around = try neighbourhood(options)
            let comparison = try FlowDiff.compare(paths: options.files, atRevision: revision, neighbourhood: around)
            pairs = comparison.flows
            notes = comparison.notes
            problems = comparison.problems
            changes = comparison.changes
        } else {
            guard options.files.count == 2 else {
                throw FlowDiff.Problem(message: "give the old and the new flow file (\(options.files.count) given)", findings: [])
            }
            let old = try FlowDiff.load(path: options.files[0])
            let new = try FlowDiff.load(path: options.files[1])
            pairs = [(old, new)]
            around = try neighbourhood(options)
            changes = FlowDiff.compare(old: old, new: new, parents: around.parents(of: options.files[1]))
        }
        // With `--git`, the old runs read nested flows as they were at the revision.
        let repository = try options.revision.map { _ throws(FlowDiff.Problem) in try GitRevision.Repository.of() }
        for pair in pairs {
            let directory = FilePath.directory(of: pair.new.file)
            var oldResolver: GitFlowResolver?
            if let revision = options.revision, let repository {
                oldResolver = GitFlowResolver(root: directory.isEmpty ? "." : directory, revision: revision, repository: repository)
            }
            changes += FlowDiff.scenarioChanges(old: pair.old, new: pair.new, newPath: pair.new.file, scripts: around.scripts(of: pair.new.file),
                                                oldResolver: oldResolver)
        }
        changes = try levels(changes, configuration: options.configuration)
        var report = DiffReport(old: options.revision ?? options.files[0], new: options.revision == nil ? options.files[1] : options.files.joined(separator: " "),
                                changes: changes)
        if options.format == .markdown {
            for pair in pairs where changes.contains(where: { $0.file == pair.new.file }) {
                var options = DiagramOptions(radius: 1)
                options.direction = nil
                do {
                    let diagram = try FlowDiagram(change: pair.old, to: pair.new, options: options, focusOnChanges: true)
                    report.pictures.append(DiffReport.Picture(file: pair.new.file, mermaid: MermaidWriter.write(diagram)))
                } catch {
                    throw FlowDiff.Problem(message: "cannot draw the change of '\(name: pair.new.file, limit: .max)': \(verbatim: "\(error)")", findings: [])
                }
            }
        }
        var outcome = Outcome(report: report, output: options.format.reporter.render(report), notes: notes, problems: problems, pairs: pairs)
        if options.fixScripts { outcome.fixed = try fixScripts(pairs, around: around, notes: &outcome.notes) }
        return outcome
    }

    /// The flow files and scripts around the compared files, where their parents and scripts are looked for: those
    /// in the files and directories given with `--git`; else those in the directory of the new file's nearest
    /// `.flowkit.yml`, or the new file's directory, and below.
    static func neighbourhood(_ options: Options) throws(FlowDiff.Problem) -> FlowParents.Neighbourhood {
        var roots = options.files
        if options.revision == nil {
            let directory = LintConfiguration.find(from: options.files[1]).map { FilePath.directory(of: $0) }
                ?? FilePath.directory(of: options.files[1])
            roots = [directory.isEmpty ? "." : directory]
        }
        // A neighbourhood with no flow files has no parents and no scripts: not a problem, when the files compared
        // are named (with `--git`, the directories given are what is compared, and an empty one is).
        var collected = FileCollector.collect(roots, configuration: nil, allowOutside: true, emptyIsProblem: options.revision != nil)
        if let problem = collected.problems.first { throw FlowDiff.Problem(message: CommandMessage(problem), findings: []) }
        collected.files = collected.files.map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : $0 }
        // Only files that name a compared file can be its parent or its script.
        var names = Set<String>()
        for file in options.revision == nil ? [options.files[1]] : collected.files {
            names.insert((file as NSString).lastPathComponent)
            names.insert((FileFlowResolver.canonical(file) as NSString).lastPathComponent)
        }
        return FlowParents.Neighbourhood(collected.files, naming: names)
    }

    /// Rewrites the scripts of each compared flow for its renames: those around it whose `flow` is that file.
    static func fixScripts(_ pairs: [(old: Flow, new: Flow)], around: FlowParents.Neighbourhood, notes: inout [CommandMessage]) throws(FlowDiff.Problem) -> [ScriptFixer.Fixed] {
        // A script that cannot be read may be one of these flows': it could not follow their renames, so nothing is
        // rewritten rather than some scripts in silence.
        if let unreadable = around.unreadableScripts.first {
            throw FlowDiff.Problem(message: "'\(name: unreadable, limit: .max)' is a script that cannot be read, so it cannot follow the renames; 'flowkit lint' shows why (nothing was rewritten)",
                                   findings: [])
        }
        var fixed: [ScriptFixer.Fixed] = []
        // Each compared flow's renames, by its file: a script follows a nested flow's renames below its flow step.
        var byFile: [String: (flow: Flow, renames: FlowRenames)] = [:]
        for pair in pairs { byFile[FileFlowResolver.canonical(pair.new.file)] = (pair.new, FlowRenames.find(old: pair.old, new: pair.new)) }
        let nested: ScriptFixer.NestedRenames = { parent, reference in
            byFile[FileFlowResolver.canonical((FilePath.directory(of: parent) as NSString).appendingPathComponent(reference))]
        }
        for pair in pairs {
            let renames = byFile[FileFlowResolver.canonical(pair.new.file)]?.renames ?? FlowRenames.find(old: pair.old, new: pair.new)
            fixed += try ScriptFixer.fixScripts(around.scripts(of: pair.new.file), flowPath: pair.new.file, flow: pair.new, renames: renames,
                                                nested: nested, notes: &notes)
        }
        for script in fixed {
            do {
                try OutputFile.write(script.bytes, to: script.file)
            } catch {
                throw FlowDiff.Problem(message: "cannot rewrite '\(name: script.file, limit: .max)': \(verbatim: error.localizedDescription)", findings: [])
            }
        }
        return fixed
    }

    /// `changes` with the levels the configuration of each one's new file sets (or `configuration`'s).
    static func levels(_ changes: [FlowChange], configuration path: String?) throws(FlowDiff.Problem) -> [FlowChange] {
        var loaded: [String: LintConfiguration] = [:]
        func configuration(at path: String) throws(FlowDiff.Problem) -> LintConfiguration {
            if let known = loaded[path] { return known }
            do {
                let configuration = try LintConfiguration.load(path: path)
                loaded[path] = configuration
                return configuration
            } catch {
                throw FlowDiff.Problem(message: CommandMessage(error.localizedDescription), findings: [])
            }
        }
        let fixed = try path.map { path throws(FlowDiff.Problem) in try configuration(at: path) }
        var result = changes
        for index in result.indices {
            let file = result[index].file
            var applying = fixed
            if applying == nil, let nearest = LintConfiguration.find(from: file) { applying = try configuration(at: nearest) }
            guard let applying else { continue }
            if let level = applying.diffLevels[result[index].check] { result[index].level = level }
        }
        return result
    }
}
