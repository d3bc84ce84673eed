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
              flowkit lint flows/ --witness --verbose
              flowkit lint flows/ --fix --dry-run > fixes.patch
            """)

    @Argument(help: ArgumentHelp("Flow files or directories to check.", valueName: "path"), completion: .file(extensions: ["json", "yaml", "yml"]))
    var paths: [String]

    @Flag(name: .long, help: "Fail (exit 1) on warnings too, not only on errors.")
    var strict = false

    @OptionGroup var output: OutputOptions

    @Option(name: .long, help: ArgumentHelp("Also write a report to a file, as FORMAT:PATH (repeatable), e.g. sarif:flowkit.sarif.", valueName: "format:path"),
            completion: .list(LintReportFormat.allCases.map { $0.rawValue + ":" }), transform: ReportDestination.parsed)
    var report: [ReportDestination<LintReportFormat>] = []

    @Option(name: .long, help: ArgumentHelp("The configuration file (default: the nearest .flowkit.yml above each linted file).", valueName: "file"), completion: .file(extensions: ["yml", "yaml"]))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("Hide findings recorded in this baseline; new findings still fail.", valueName: "file"), completion: .file(extensions: ["json"]))
    var baseline: String?

    @Option(name: .customLong("write-baseline"), help: ArgumentHelp("Record the current findings as a baseline and exit 0.", valueName: "file"), completion: .file(extensions: ["json"]))
    var writeBaseline: String?

    @Flag(name: .customLong("allow-outside"), help: "Follow nested flows outside the directories given on the command line.")
    var allowOutside = false

    @Flag(name: .long, help: "List the files skipped in directories because they are not flow files; with --witness, show each witness under its finding.")
    var verbose = false

    @Flag(name: .long, help: "Search, for each finding that foresees a run error, a run that shows it (a witness).")
    var witness = false

    @Option(name: .long, help: ArgumentHelp("Write a script of witnesses per linted flow into this directory (implies --witness).", valueName: "dir"),
            completion: .directory)
    var witnesses: String?

    @Option(name: .customLong("witness-budget"), help: ArgumentHelp("The most run states a witness search visits per file.", valueName: "n"))
    var witnessBudget = 20_000

    @Flag(name: .long, help: "Apply the safe fixes (a unique did-you-mean) to the files linted, then report what is left.")
    var fix = false

    @Flag(name: .customLong("dry-run"), help: "With --fix: print the fixes as a unified diff instead of applying them.")
    var dryRun = false

    func validate() throws {
        if dryRun && !fix { throw ValidationError("--dry-run goes with --fix: 'flowkit lint --fix --dry-run PATH'") }
        if paths.isEmpty { throw ValidationError("give at least one flow file or directory, e.g. 'flowkit lint flows/'") }
        if witnessBudget < 1 { throw ValidationError("--witness-budget takes a number of run states, 1 or more") }
    }

    /// What this command line asks for.
    var options: LintFrontend.Options {
        var options = LintFrontend.Options(paths: paths)
        (options.strict, options.format, options.color, options.reports) = (strict, output.format, output.color.enabled(for: STDOUT_FILENO), report)
        (options.configuration, options.baseline, options.writeBaseline) = (config, baseline, writeBaseline)
        (options.allowOutside, options.verbose, options.toolVersion) = (allowOutside, verbose, Flowkit.version)
        options.outsideNote = "give --allow-outside to read it"
        (options.witness, options.witnessesDirectory, options.witnessBudget) = (witness, witnesses, witnessBudget)
        (options.fix, options.dryRun) = (fix, dryRun)
        return options
    }

    func run() throws {
        try perform(LintFrontend.run(options))
    }
}
