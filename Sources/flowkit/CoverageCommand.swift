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
            completion: .list(CoverageReportFormat.allCases.map { $0.rawValue + ":" }))
    var report: [String] = []

    @Option(name: .customLong("min-coverage"), help: ArgumentHelp("Fail (exit 1) when a flow file's coverage is below these percentages.", valueName: "kind=percent,..."))
    var minCoverage: String?

    @Flag(name: .long, help: "Do not print the coverage table.")
    var quiet = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one coverage file") }
        for item in report where CoverageReportFormat.parse(item) == nil {
            throw ValidationError("--report takes FORMAT:PATH with a format of \(CoverageReportFormat.allCases.map(\.rawValue).joined(separator: ", ")), not '\(Identifier.display(item, limit: .max))'")
        }
        if let minCoverage {
            do {
                _ = try CoverageThreshold(parsing: minCoverage)
            } catch {
                throw ValidationError("--min-coverage: \(error.message)")
            }
        }
    }

    func run() throws {
        let merged: Coverage
        do {
            merged = try Coverage.merged(try files.map { path throws(Coverage.MergeError) in try Coverage.read(path: path) })
        } catch {
            throw CommandFailure(errors: [error.message], exitCode: 2)
        }
        if let output { try OutputFile.write(try merged.json(), to: output) }
        for case let (format, path)? in report.map(CoverageReportFormat.parse) {
            try OutputFile.write(Array(format.reporter.render(merged).utf8), to: path)
        }
        if !quiet { try StandardOutput.write(CoverageTextReporter().render(merged)) }
        let shortfalls = try minCoverage.map { try CoverageThreshold(parsing: $0).shortfalls(in: merged) } ?? []
        if !shortfalls.isEmpty { throw CommandFailure(errors: shortfalls, exitCode: 1) }
    }
}
