import ArgumentParser
import FlowKit
import FlowKitTool
import Foundation

/// `flowkit simulate`: runs a flow with scripted step results and checks path, outcome and state.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        // Named here, not derived from the type: deriving it costs a scan of every protocol conformance in the
        // binary at start-up.
        commandName: "simulate",
        abstract: "Run a flow with scripted step results and check where it ends.",
        discussion: """
            Runs every scenario of each simulation script (or one, with --scenario) and prints a trace per scenario, \
            then 'N passed, N failed'. Exit 1 when a scenario fails or the flow has syntax, schema or expression \
            errors; 2 when the command cannot do its work.

            Examples:
              flowkit simulate --script flows/scripts/transfer.yaml
              flowkit simulate --script flows/scripts/transfer.yaml --coverage
              flowkit simulate --coverage --script flows/scripts/*.yaml
              flowkit simulate flows/transfer.yaml --script flows/scripts/transfer.yaml \\
                --format junit > results.xml
              flowkit simulate flows/transfer.yaml --state '{"country": "RU"}' \\
                --events 'amount={"amount": 150},back,amount={"amount": 250}' \\
                --events 'tariffs={"tariff": "economy"},error,next' \\
                --events confirmationContinue,next

            --events takes moves, comma-separated, one per step: an event name, 'next' (no event, no result), \
            'back' (the back button), or STEP={json} to complete STEP with that result (commas inside the JSON \
            are fine). It may be repeated: the lists are run one after the other.
            """)

    @Argument(help: ArgumentHelp("The flow file, or a script that names its flow.", valueName: "flow-or-script"),
              completion: .file(extensions: ["json", "yaml", "yml"]))
    var input: String?

    @Option(name: .long, parsing: .upToNextOption,
            help: ArgumentHelp("The simulation scripts, run one after the other (their 'flow' is ignored when a flow is given).", valueName: "script"),
            completion: .file(extensions: ["yaml", "yml", "json"]))
    var script: [String] = []

    @Option(name: .long, help: ArgumentHelp("Run only the scenario with this name.", valueName: "name"))
    var scenario: String?

    @Option(name: .long, help: ArgumentHelp("Make these moves in order, without a script: EVENT, next, back or STEP={json}, comma-separated (repeatable).", valueName: "moves"),
            transform: { text in try RunMove.parsed { () throws(RunMoveError) in try RunMove.parseList(text) } })
    var events: [[RunMove]] = []

    @Option(name: .long, help: ArgumentHelp("The initial state for --events or --interactive, as a JSON object (the flow's inputs).", valueName: "json"),
            transform: { text in try RunMove.parsed { () throws(RunMoveError) in try RunMove.object(text, column: 1) } })
    var state: [String: Value]?

    @Flag(name: .long, help: "Play the flow step by step from what you type; at the end, save the run as a script scenario.")
    var interactive = false

    @Option(name: .long, help: ArgumentHelp("Output format: text, json or junit.", valueName: "format"))
    var format: SimulateFrontend.Format = .text

    @Option(name: .customLong("trace-out"), help: ArgumentHelp("Also write the runs as JSON to this file (for 'flowkit render --trace').", valueName: "file"),
            completion: .file(extensions: ["json"]))
    var traceOut: String?

    @Option(name: .customLong("max-steps"), help: ArgumentHelp("Stop a run that shows more steps than this.", valueName: "n"))
    var maxSteps: Int = 10_000

    @Flag(name: .long, help: "After the runs, print what they covered of each flow file: steps, transitions, events, outcomes, entries.")
    var coverage = false

    @Option(name: .customLong("coverage-report"), help: ArgumentHelp("Also write the coverage as FORMAT:PATH (repeatable): json, lcov, cobertura or markdown.", valueName: "format:path"),
            completion: .list(CoverageReportFormat.allCases.map { $0.rawValue + ":" }), transform: ReportDestination.parsed)
    var coverageReport: [ReportDestination<CoverageReportFormat>] = []

    @Option(name: .customLong("min-coverage"), help: ArgumentHelp("Fail (exit 1) when a flow file's coverage is below these percentages, e.g. transitions=90,steps=100.", valueName: "kind=percent,..."),
            transform: CoverageThreshold.parsed)
    var minCoverage: CoverageThreshold?

    @Flag(name: .long, help: "Print only failing scenarios' traces.")
    var quiet = false

    @Option(name: .long, help: ArgumentHelp("Colour text output: auto, always or never.", valueName: "when"))
    var color: ColorChoice = .auto

    /// The formats `simulate` writes.
    func validate() throws {
        if input == nil && script.isEmpty { throw ValidationError("give a flow with --script or --events, or a script that names its flow") }
        if !events.isEmpty && !script.isEmpty { throw ValidationError("--events runs without a script; give one or the other") }
        if interactive && (!script.isEmpty || !events.isEmpty) { throw ValidationError("--interactive plays a flow by hand; give it without --script or --events") }
        if state != nil && events.isEmpty && !interactive { throw ValidationError("--state sets the initial state of an --events run; a script's scenarios give their own") }
        if maxSteps < 1 { throw ValidationError("--max-steps takes a number of steps, 1 or more") }
        if interactive && (coverage || !coverageReport.isEmpty || minCoverage != nil) {
            throw ValidationError("--interactive plays one run by hand; coverage is for --script or --events")
        }
    }

    /// What this command line asks for.
    var options: SimulateFrontend.Options {
        var options = SimulateFrontend.Options(input: input)
        (options.scripts, options.scenario, options.moves, options.state, options.format) = (script, scenario, events, state, format)
        (options.color, options.colorErrors, options.quiet) = (color.enabled(for: STDOUT_FILENO), color.enabled(for: STDERR_FILENO), quiet)
        (options.traceOut, options.maxSteps, options.coverage) = (traceOut, maxSteps, coverage)
        (options.coverageReports, options.minimum) = (coverageReport, minCoverage)
        return options
    }

    func run() throws {
        if interactive {
            let setup = try SimulateFrontend.playSetup(options)
            try Play(flowPath: setup.flowPath, flow: setup.flow, resolver: setup.resolver, state: state ?? [:], maxSteps: maxSteps).run()
        } else {
            try perform(SimulateFrontend.run(options))
        }
    }
}

extension SimulateFrontend.Format: ExpressibleByArgument {}

extension RunMove {
    /// A value read from the command line once (`transform:`), its problem a usage error.
    static func parsed<T>(_ read: () throws(RunMoveError) -> T) throws -> T {
        do {
            return try read()
        } catch {
            throw ValidationError(error.description)
        }
    }
}
