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

    @Option(name: .long, help: ArgumentHelp("Make these moves in order, without a script: EVENT, next, back or STEP={json}, comma-separated (repeatable).", valueName: "moves"))
    var events: [String] = []

    @Option(name: .long, help: ArgumentHelp("The initial state for --events or --interactive, as a JSON object (the flow's inputs).", valueName: "json"))
    var state: String?

    @Flag(name: .long, help: "Play the flow step by step from what you type; at the end, save the run as a script scenario.")
    var interactive = false

    @Option(name: .long, help: ArgumentHelp("Output format: text, json or junit.", valueName: "format"))
    var format: SimulationFormat = .text

    @Option(name: .customLong("trace-out"), help: ArgumentHelp("Also write the runs as JSON to this file (for 'flowkit render --trace').", valueName: "file"),
            completion: .file(extensions: ["json"]))
    var traceOut: String?

    @Option(name: .customLong("max-steps"), help: ArgumentHelp("Stop a run that shows more steps than this.", valueName: "n"))
    var maxSteps: Int = 10_000

    @Flag(name: .long, help: "After the runs, print what they covered of each flow file: steps, transitions, events, outcomes, entries.")
    var coverage = false

    @Option(name: .customLong("coverage-report"), help: ArgumentHelp("Also write the coverage as FORMAT:PATH (repeatable): json, lcov, cobertura or markdown.", valueName: "format:path"),
            completion: .list(CoverageReportFormat.allCases.map { $0.rawValue + ":" }))
    var coverageReport: [String] = []

    @Option(name: .customLong("min-coverage"), help: ArgumentHelp("Fail (exit 1) when a flow file's coverage is below these percentages, e.g. transitions=90,steps=100.", valueName: "kind=percent,..."))
    var minCoverage: String?

    @Flag(name: .long, help: "Print only failing scenarios' traces.")
    var quiet = false

    @Option(name: .long, help: ArgumentHelp("Colour text output: auto, always or never.", valueName: "when"))
    var color: ColorChoice = .auto

    /// The formats `simulate` writes.
    enum SimulationFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json, junit
    }

    func validate() throws {
        if input == nil && script.isEmpty { throw ValidationError("give a flow with --script or --events, or a script that names its flow") }
        if !events.isEmpty && !script.isEmpty { throw ValidationError("--events runs without a script; give one or the other") }
        if interactive && (!script.isEmpty || !events.isEmpty) { throw ValidationError("--interactive plays a flow by hand; give it without --script or --events") }
        if state != nil && events.isEmpty && !interactive { throw ValidationError("--state sets the initial state of an --events run; a script's scenarios give their own") }
        for list in events {
            do {
                _ = try RunMove.parseList(list)
            } catch {
                throw ValidationError("--events: \(error.description)")
            }
        }
        if let state {
            do {
                _ = try RunMove.object(state, column: 1)
            } catch {
                throw ValidationError("--state: \(error.description)")
            }
        }
        if maxSteps < 1 { throw ValidationError("--max-steps takes a number of steps, 1 or more") }
        for item in coverageReport where CoverageReportFormat.parse(item) == nil {
            throw ValidationError("--coverage-report takes FORMAT:PATH with a format of \(CoverageReportFormat.allCases.map(\.rawValue).joined(separator: ", ")), not '\(Identifier.display(item, limit: .max))'")
        }
        if let minCoverage {
            do {
                _ = try CoverageThreshold(parsing: minCoverage)
            } catch {
                throw ValidationError("--min-coverage: \(error.message)")
            }
        }
        if interactive && (coverage || !coverageReport.isEmpty || minCoverage != nil) {
            throw ValidationError("--interactive plays one run by hand; coverage is for --script or --events")
        }
    }

    func run() throws {
        // One setup per script (each names its flow unless one is given), or one without a script.
        var setups: [SimulationSetup] = []
        for scriptPath in script.isEmpty ? [nil] : script.map(Optional.some) {
            do {
                setups.append(try SimulationSetup(input: input, script: scriptPath, needsScript: events.isEmpty && !interactive))
            } catch SimulationSetup.Problem.usage(let message) {
                throw ValidationError(message)
            } catch SimulationSetup.Problem.input(let findings, let message) {
                throw failure(findings: findings, fallback: message)
            }
        }
        let setup = setups[0]
        let initial = try state.map { try RunMove.object($0, column: 1) } ?? [:]
        if interactive {
            try Play(flowPath: setup.flowPath, flow: setup.flow, resolver: setup.resolver, state: initial, maxSteps: maxSteps).run()
            return
        }
        let report: SimulationReport
        if !events.isEmpty {
            let moves = try events.flatMap { try RunMove.parseList($0) }
            let result = ScriptRunner.run(moves: moves, start: .start(state: initial), flow: setup.flow, resolver: setup.resolver, maxSteps: maxSteps)
            report = SimulationReport(script: "--events", flow: setup.flowPath, results: [result])
        } else {
            let scripts = setups.compactMap(\.script)
            guard scripts.count == setups.count else { throw ValidationError("give --script or --events") }
            if let scenario, !scripts.contains(where: { $0.scenarios.contains { $0.name == scenario } }) {
                let names = scripts.flatMap { $0.scenarios.map(\.name) }
                throw ValidationError("\(scripts.count == 1 ? "the script has" : "no script has a") \(scripts.count == 1 ? "no scenario" : "scenario") '\(Identifier.display(scenario))'\(Suggestions.didYouMean(scenario, in: names))")
            }
            report = SimulationReport(scripts: zip(setups, scripts).map { setup, script in
                SimulationReport.ScriptRun(script: script.file, flow: setup.flowPath,
                                           results: ScriptRunner.run(script, flow: setup.flow, resolver: setup.resolver, maxSteps: maxSteps, only: scenario))
            })
        }

        let reporter: any SimulationReporter
        switch format {
        case .text: reporter = TextSimulationReporter(color: color.enabled(for: STDOUT_FILENO), verbose: !quiet)
        case .json: reporter = JSONSimulationReporter()
        case .junit: reporter = JUnitReporter()
        }
        try StandardOutput.write(reporter.render(report))
        if let traceOut {
            try OutputFile.write(try SimulationTrace(report).json(), to: traceOut)
        }
        var shortfalls: [String] = []
        if coverage || !coverageReport.isEmpty || minCoverage != nil {
            // Each script's runs counted against its own flow, then added up (several scripts of one flow, or of
            // flows sharing a nested flow, count into the same files).
            var parts: [Coverage] = []
            for (setup, run) in zip(setups, report.scripts) {
                var recorder = CoverageRecorder(flow: setup.flow, resolver: setup.resolver)
                for result in run.results { recorder.record(result) }
                parts.append(recorder.coverage)
            }
            let counted: Coverage
            do {
                counted = try Coverage.merged(parts)
            } catch {
                throw CommandFailure(errors: ["cannot add up the scripts' coverage: \(error.message)"], exitCode: 2)
            }
            if coverage {
                // After a text report on standard output; beside a JSON or JUnit one, on standard error.
                let table = CoverageTextReporter().render(counted)
                if format == .text { try StandardOutput.write("\n" + table) } else { printNote(table) }
            }
            for case let (format, path)? in coverageReport.map(CoverageReportFormat.parse) {
                try OutputFile.write(Array(format.reporter.render(counted).utf8), to: path)
            }
            shortfalls = try minCoverage.map { try CoverageThreshold(parsing: $0).shortfalls(in: counted) } ?? []
        }
        if report.failed > 0 || !shortfalls.isEmpty { throw CommandFailure(errors: shortfalls, exitCode: 1) }
    }

    /// The failure that shows `findings` (without the report's summary line), or `fallback` when there are none.
    private func failure(findings: [Diagnostic], fallback: String) -> CommandFailure {
        guard !findings.isEmpty else { return CommandFailure(errors: [fallback], exitCode: 1) }
        let text = TextReporter(color: color.enabled(for: STDERR_FILENO)).render(LintReport(diagnostics: findings, fileCount: 1))
        return CommandFailure(findings: String(text.split(separator: "\n").dropLast().joined(separator: "\n")), exitCode: 1)
    }
}
