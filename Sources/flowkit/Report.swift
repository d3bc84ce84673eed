import ArgumentParser
import FlowKit
import FlowKitTool
import FlowKitGraphviz
import Foundation

/// `flowkit report`: lint, the scenarios, their coverage and the change, in one HTML file.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write one HTML file of the findings, diagrams, scenarios, coverage and the change.",
        discussion: """
            Lints the paths as 'flowkit lint' does (with a witness for each finding that foresees a run error), runs \
            the scenarios of every script found there and of each --script, counts their coverage against \
            --min-coverage (or each flow's .flowkit.yml 'coverage: { minimum: ... }'), and with --git REV compares \
            each flow with its version at REV. The HTML file holds everything (CSS, script, SVG diagrams drawn by \
            Graphviz); it makes no network request. It is written even when a check fails: the exit status is 1 \
            when lint fails, a scenario fails, a coverage threshold is missed or a change is breaking, and 2 when \
            something could not be checked.

            Examples:
              flowkit report flows/ -o report.html
              flowkit report flows/ --git HEAD --min-coverage steps=90 -o report.html
            """)

    @Argument(help: ArgumentHelp("Flow files and directories of them (scripts found there are run).", valueName: "path"),
              completion: .file(extensions: ["json", "yaml", "yml"]))
    var paths: [String]

    @Option(name: .long, help: ArgumentHelp("A simulation script to run too (repeatable).", valueName: "script"),
            completion: .file(extensions: ["json", "yaml", "yml"]))
    var script: [String] = []

    @Option(name: .long, help: ArgumentHelp("Show the change from each flow's version at this git revision.", valueName: "rev"))
    var git: String?

    @Option(name: .long, help: ArgumentHelp("The configuration file (default: each file's nearest .flowkit.yml).", valueName: "file"),
            completion: .file(extensions: ["yml", "yaml"]))
    var config: String?

    @Option(name: .customLong("min-coverage"), help: ArgumentHelp("The least coverage of each flow file, e.g. transitions=90,steps=100.", valueName: "kind=percent,..."),
            transform: CoverageThreshold.parsed)
    var minCoverage: CoverageThreshold?

    @Flag(name: .long, help: "A warning fails the report too.")
    var strict = false

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Where to write the HTML ('-' for standard output).", valueName: "path"),
            completion: .file(extensions: ["html"]))
    var output: String = "flowkit-report.html"

    @Option(name: .long, help: ArgumentHelp("Give up after this many seconds of laying out one diagram (exit 2, nothing written).", valueName: "seconds"))
    var timeout: Double = 60

    func validate() throws {
        if paths.isEmpty { throw ValidationError("name the flow files or directories to report on") }
        if !(timeout > 0) { throw ValidationError("--timeout takes a number of seconds above 0") }
    }

    func run() throws {
        var options = ReportFrontend.Options(paths: paths)
        (options.scripts, options.revision, options.configuration, options.minimum) = (script, git, config, minCoverage)
        (options.strict, options.output) = (strict, output)
        let timeout = self.timeout
        try perform(ReportFrontend.run(options) { diagram, prefix, file throws(CommandError) in
            do {
                let rendered = try Watchdog.run(seconds: timeout, what: Message("laying out \(path: file)").text,
                                                advice: "Try a larger --timeout, or report on the other flows without this one") {
                    try GraphvizRenderer.render(diagram, format: .svg, options: GraphvizOptions(idPrefix: prefix))
                }
                return String(decoding: rendered.data, as: UTF8.self)
            } catch let error as CommandError {
                throw error
            } catch {
                throw CommandError.failure("cannot draw \(path: file): \(CommandMessage(describing: error))")
            }
        })
    }
}
