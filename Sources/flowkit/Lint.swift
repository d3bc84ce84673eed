import ArgumentParser
import FlowKit
import FlowKitTool
import Foundation

/// `flowkit lint`: checks flow files and directories of them.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        // Named here, not derived from the type: deriving it costs a scan of every protocol conformance in the
        // binary at start-up.
        commandName: "lint",
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

    /// What this command line asks for.
    var request: LintRequest {
        LintRequest(paths: paths, strict: strict, format: output.format, color: output.color, report: report, config: config,
                    baseline: baseline, writeBaseline: writeBaseline, allowOutside: allowOutside, verbose: verbose)
    }

    func run() throws {
        try request.run()
    }
}

/// What a lint is asked to do, whether its command line was read by ArgumentParser (`Lint`) or by `quickParse`.
struct LintRequest: Equatable {
    var paths: [String]
    var strict = false
    var format: LintReportFormat = .text
    var color: ColorChoice = .auto
    var report: [String] = []
    var config: String?
    var baseline: String?
    var writeBaseline: String?
    var allowOutside = false
    var verbose = false

    /// The request of the commonest command lines, read without ArgumentParser (which takes about 2 ms to build
    /// its parser, more than a small file's lint): `lint`, then paths and at most one each of `--format FORMAT`,
    /// `--color WHEN` (also written `--option=value`), `--strict`, `--verbose` and `--allow-outside`, in any order.
    /// Anything else (another option, `--help`, a value that is not one of the choices, an option given twice, no
    /// path, a path starting with '-') gives nil, and ArgumentParser reads the line, with its help and its
    /// errors. Where this gives a request, it is the one ArgumentParser gives (`QuickLintParseTests`).
    static func quickParse(_ arguments: [String]) -> LintRequest? {
        guard arguments.first == "lint" else { return nil }
        var request = LintRequest(paths: [])
        var seen: [String] = []
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-") else {
                request.paths.append(argument)
                continue
            }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard !seen.contains(name) else { return nil }
            seen.append(name)
            switch name {
            case "--strict", "--verbose", "--allow-outside":
                guard value == nil else { return nil }
                if name == "--strict" { request.strict = true } else if name == "--verbose" { request.verbose = true } else { request.allowOutside = true }
            case "--format", "--color":
                if value == nil, index < arguments.count {
                    value = arguments[index]
                    index += 1
                }
                guard let value else { return nil }
                if name == "--format" {
                    guard let format = LintReportFormat(rawValue: value) else { return nil }
                    request.format = format
                } else {
                    guard let color = ColorChoice(rawValue: value) else { return nil }
                    request.color = color
                }
            default:
                return nil
            }
        }
        return request.paths.isEmpty ? nil : request
    }

    func run() throws {
        let outcome: LintSession.Outcome
        do {
            outcome = try LintSession.lint(paths: paths, configuration: try config.map { try LintConfiguration.load(path: $0) },
                                           baseline: try baseline.map { try Baseline.load(path: $0) }, allowOutside: allowOutside)
        } catch let error as LintSetupError {
            throw CommandFailure(errors: error.problems, exitCode: 2)
        }
        if verbose {
            for file in outcome.skipped { printNote("skipped \(display(file)): not a flow file (no top-level 'flowkit' or 'flowkit-script' key)") }
        }
        if let writeBaseline {
            guard outcome.failures.isEmpty else {
                throw CommandFailure(errors: outcome.failures + ["no baseline written: the lint could not check everything"], exitCode: 2)
            }
            try OutputFile.write(Array(Baseline(findings: outcome.allDiagnostics, relativeTo: writeBaseline).json.utf8), to: writeBaseline)
            printNote("wrote \(display(writeBaseline)) with \(outcome.allDiagnostics.count) finding\(outcome.allDiagnostics.count == 1 ? "" : "s")")
            return
        }
        let lintReport = outcome.report(strict: strict, toolVersion: Flowkit.version)
        try StandardOutput.write(format.reporter(color: color.enabled(for: STDOUT_FILENO)).render(lintReport))
        if outcome.baselined > 0 && format == .text {
            printNote("\(outcome.baselined) finding\(outcome.baselined == 1 ? "" : "s") hidden by the baseline")
        }
        var failures = outcome.failures
        for case let (format, path)? in report.map(LintReportFormat.parseReport) {
            do {
                try OutputFile.write(Array(format.reporter().render(lintReport).utf8), to: path)
            } catch {
                failures.append(error.localizedDescription)
            }
        }
        if !failures.isEmpty { throw CommandFailure(errors: failures, exitCode: 2) }
        if lintReport.fails { throw CommandFailure(exitCode: 1) }
    }

    private func display(_ path: String) -> String { Identifier.display(path, limit: .max, quoting: false) }
}
