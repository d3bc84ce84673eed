import ArgumentParser
import FlowKit
import FlowKitTool

/// `flowkit coverage`: work on coverage written by `simulate --coverage-report json:PATH`.
struct CoverageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Merge and report the coverage of simulation runs.",
        subcommands: [CoverageMerge.self])
}

/// `flowkit coverage merge`: adds up the coverage of several runs (CI shards, several scripts of one flow).
struct CoverageMerge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Add up coverage files written by 'flowkit simulate --coverage-report json:PATH'.",
        discussion: """
            The hits of the same item (same flow file, same item) are added; a flow file whose items differ between \
            the files (the flow changed between the runs) is an error. Prints the coverage table unless --quiet.

            Examples:
              flowkit simulate --script flows/scripts/transfer.yaml \\
                --coverage-report json:transfer.json
              flowkit coverage merge transfer.json -o all.json --report lcov:flows.lcov
            """)

    @Argument(help: ArgumentHelp("The coverage files.", valueName: "file"), completion: .file(extensions: ["json"]))
    var files: [String]

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the merged coverage (JSON) here.", valueName: "path"), completion: .file())
    var output: String?

    @Option(name: .long, help: ArgumentHelp("Also write the merged coverage as FORMAT:PATH (repeatable): json, lcov, cobertura or markdown.", valueName: "format:path"),
            completion: .list(CoverageReportFormat.allCases.map { $0.rawValue + ":" }), transform: ReportDestination.parsed)
    var report: [ReportDestination<CoverageReportFormat>] = []

    @Option(name: .customLong("min-coverage"), help: ArgumentHelp("Fail (exit 1) when a flow file's coverage is below these percentages.", valueName: "kind=percent,..."),
            transform: CoverageThreshold.parsed)
    var minCoverage: CoverageThreshold?

    @Flag(name: .long, help: "Do not print the coverage table.")
    var quiet = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one coverage file") }
    }

    func run() throws {
        var options = CoverageFrontend.Options(files: files)
        (options.output, options.reports, options.minimum, options.quiet) = (output, report, minCoverage, quiet)
        try perform(CoverageFrontend.run(options))
    }
}
