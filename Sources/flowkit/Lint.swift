import ArgumentParser
import FlowKit
import Foundation

/// `flowkit lint`: checks flow files and directories of them.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check flow files for mistakes.",
        discussion: """
            Takes files and directories; a directory is searched recursively for .json, .yaml and .yml files \
            (hidden files and directories are skipped). There, a document with a top-level 'flowkit' key is a \
            flow and one with a 'flowkit-script' key is a simulation script, checked against the flow it names; \
            other documents (a JSON Schema, a trace) are skipped and counted (--verbose lists them). A file named \
            on the command line is always checked. A directory that cannot be read, or in which no flow file is \
            found, is an error (exit 2).

            Examples:
              flowkit lint flows/transfer.json
              flowkit lint flows/ --strict
              flowkit lint flows/ --format json > findings.json
            """)

    @Argument(help: ArgumentHelp("Flow files or directories to check.", valueName: "path"), completion: .file(extensions: ["json", "yaml", "yml"]))
    var paths: [String]

    @Flag(name: .long, help: "Fail (exit 1) on warnings too, not only on errors.")
    var strict = false

    @OptionGroup var output: OutputOptions

    @Option(name: .long, help: ArgumentHelp("Also write a report to a file, as FORMAT:PATH (repeatable), e.g. sarif:flowkit.sarif.", valueName: "format:path"), completion: .list(LintReportFormat.allCases.map { $0.rawValue + ":" }))
    var report: [String] = []

    @Option(name: .long, help: ArgumentHelp("The configuration file (default: the nearest .flowkit.yml above each linted file).", valueName: "file"), completion: .file(extensions: ["yml", "yaml"]))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("Hide findings recorded in this baseline; new findings still fail.", valueName: "file"), completion: .file(extensions: ["json"]))
    var baseline: String?

    @Option(name: .customLong("write-baseline"), help: ArgumentHelp("Record the current findings as a baseline and exit 0.", valueName: "file"), completion: .file(extensions: ["json"]))
    var writeBaseline: String?

    @Flag(name: .customLong("allow-outside"), help: "Follow nested flows outside the directories given on the command line.")
    var allowOutside = false

    @Flag(name: .long, help: "List the files skipped in directories because they are not flow files.")
    var verbose = false

    func validate() throws {
        if paths.isEmpty { throw ValidationError("give at least one flow file or directory, e.g. 'flowkit lint flows/'") }
        for item in report where LintReportFormat.parseReport(item) == nil {
            throw ValidationError("--report takes FORMAT:PATH with a format of \(LintReportFormat.allCases.map(\.rawValue).joined(separator: ", ")), not '\(Identifier.display(item, limit: .max))'")
        }
    }

    func run() throws {
        let configuration = try explicitConfiguration()
        let collected = FileCollector.collect(paths, configuration: configuration, allowOutside: allowOutside)
        if configuration == nil {
            // A configuration that cannot be used stops the lint before any finding is printed.
            let broken = LintConfiguration.problems(for: collected.files)
            if !broken.isEmpty {
                throw CommandFailure(errors: broken, exitCode: 2)
            }
        }
        var session = LintSession(roots: collected.roots, allowOutside: allowOutside, configuration: configuration)
        if let baseline {
            session.baseline = try Baseline.load(path: baseline)
        }
        let outcome = session.run(collected.files, discovered: Set(collected.directoryOf.keys))
        if verbose {
            for file in outcome.skipped {
                printNote("skipped \(Identifier.display(file, limit: .max, quoting: false)): not a flow file (no top-level 'flowkit' or 'flowkit-script' key)")
            }
        }
        let problems = collected.problems + FileCollector.emptyDirectories(collected, outcome: outcome)
        if let writeBaseline {
            let failures = problems + outcome.failures
            guard failures.isEmpty else {
                throw CommandFailure(errors: failures + ["no baseline written: the lint could not check everything"], exitCode: 2)
            }
            let recorded = outcome.allDiagnostics
            try OutputFile.write(Array(Baseline(findings: recorded, relativeTo: writeBaseline).json.utf8), to: writeBaseline)
            printNote("wrote \(Identifier.display(writeBaseline, limit: .max, quoting: false)) with \(outcome.allDiagnostics.count) finding\(outcome.allDiagnostics.count == 1 ? "" : "s")")
            return
        }
        let lintReport = LintReport(diagnostics: outcome.diagnostics, fileCount: outcome.files.count, skippedCount: outcome.skipped.count, strict: strict,
                                   files: outcome.files, toolVersion: Flowkit.version)
        let reporter = output.format.reporter(color: output.color.enabled(for: STDOUT_FILENO))
        try StandardOutput.write(reporter.render(lintReport))
        if outcome.baselined > 0 && output.format == .text {
            printNote("\(outcome.baselined) finding\(outcome.baselined == 1 ? "" : "s") hidden by the baseline")
        }
        var failures = problems + outcome.failures
        for item in report {
            guard let (format, path) = LintReportFormat.parseReport(item) else { continue }
            do {
                try OutputFile.write(Array(format.reporter().render(lintReport).utf8), to: path)
            } catch {
                failures.append(error.localizedDescription)
            }
        }
        if !failures.isEmpty { throw CommandFailure(errors: failures, exitCode: 2) }
        if lintReport.fails { throw CommandFailure(exitCode: 1) }
    }

    /// The configuration named with --config, loaded; nil when each file's nearest one applies.
    private func explicitConfiguration() throws -> LintConfiguration? {
        guard let config else { return nil }
        return try LintConfiguration.load(path: config)
    }
}
