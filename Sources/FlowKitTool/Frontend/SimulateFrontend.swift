import FlowKit
import Foundation

/// `simulate`: runs a flow's scenarios from scripts, or one list of moves (docs/format.md, "Simulation scripts"),
/// reports them in one format, writes their trace, and counts what they covered.
package enum SimulateFrontend {
    /// The formats of standard output.
    package enum Format: String, CaseIterable, Sendable {
        case text, json, junit
    }

    /// What a simulation is asked to do.
    package struct Options: Sendable, Equatable {
        /// The flow, or a script that names its flow.
        package var input: String?
        /// The scripts, run one after the other.
        package var scripts: [String] = []
        /// The one scenario to run, if any.
        package var scenario: String?
        /// Moves to make without a script, list after list.
        package var moves: [[RunMove]] = []
        /// The initial state of a run of moves (or of a played run).
        package var state: [String: Value]?
        /// The format of standard output.
        package var format: Format = .text
        /// Whether text on standard output is coloured.
        package var color = false
        /// Whether findings on standard error are coloured.
        package var colorErrors = false
        /// Whether only failing scenarios' traces are printed.
        package var quiet = false
        /// Where to write the runs as JSON.
        package var traceOut: String?
        /// The most steps a run shows.
        package var maxSteps = 10_000
        /// Whether the coverage table is printed.
        package var coverage = false
        /// Coverage reports to write.
        package var coverageReports: [ReportDestination<CoverageReportFormat>] = []
        /// The least coverage each flow file must reach.
        package var minimum: CoverageThreshold?

        package init(input: String?) {
            self.input = input
        }

        /// Whether any coverage is asked for.
        var countsCoverage: Bool { coverage || !coverageReports.isEmpty || minimum != nil }
    }

    /// What one run by hand starts from: the flow and its nested flows.
    package static func playSetup(_ options: Options) throws(CommandError) -> SimulationSetup {
        try setups(options, needsScript: false)[0]
    }

    /// Runs as `options` say.
    package static func run(_ options: Options) throws(CommandError) -> CommandOutcome {
        let setups = try setups(options, needsScript: options.moves.isEmpty)
        let report: SimulationReport
        if !options.moves.isEmpty {
            let setup = setups[0]
            let result = ScriptRunner.run(moves: options.moves.flatMap { $0 }, start: .start(state: options.state ?? [:]), flow: setup.flow,
                                          resolver: setup.resolver, maxSteps: options.maxSteps)
            report = SimulationReport(script: "--events", flow: setup.flowPath, results: [result])
        } else {
            let scripts = setups.compactMap(\.script)
            guard scripts.count == setups.count else { throw CommandError.usage("give \(CommandOption.script) or \(CommandOption.events)") }
            if let scenario = options.scenario, !scripts.contains(where: { $0.scenarios.contains { $0.name == scenario } }) {
                let names = scripts.flatMap { $0.scenarios.map(\.name) }
                throw CommandError.usage("\(verbatim: scripts.count == 1 ? "the script has" : "no script has a") \(verbatim: scripts.count == 1 ? "no scenario" : "scenario") '\(name: scenario)'\(verbatim: Suggestions.didYouMean(scenario, in: names))")
            }
            report = SimulationReport(scripts: zip(setups, scripts).map { setup, script in
                SimulationReport.ScriptRun(script: script.file, flow: setup.flowPath,
                                           results: ScriptRunner.run(script, flow: setup.flow, resolver: setup.resolver, maxSteps: options.maxSteps, only: options.scenario))
            })
        }

        var outcome = CommandOutcome()
        let reporter: any SimulationReporter
        switch options.format {
        case .text: reporter = TextSimulationReporter(color: options.color, verbose: !options.quiet)
        case .json: reporter = JSONSimulationReporter()
        case .junit: reporter = JUnitReporter()
        }
        outcome.print(reporter.render(report))
        if let traceOut = options.traceOut {
            do {
                outcome.write(try SimulationTrace(report).json(), to: traceOut)
            } catch {
                throw CommandError.failure(CommandMessage(describing: error))
            }
        }
        var shortfalls: [CommandMessage] = []
        if options.countsCoverage {
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
                throw CommandError.failure("cannot add up the scripts' coverage: \(error.message)")
            }
            if options.coverage {
                // After a text report on standard output; beside a JSON or JUnit one, on standard error.
                let table = CoverageTextReporter().render(counted)
                if options.format == .text { outcome.print("\n" + table) } else { outcome.note(table) }
            }
            for destination in options.coverageReports {
                outcome.write(Array(destination.format.reporter.render(counted).utf8), to: destination.path)
            }
            shortfalls = options.minimum?.shortfalls(in: counted) ?? []
        }
        if report.failed > 0 || !shortfalls.isEmpty {
            outcome.errors = shortfalls
            outcome.status = .findings
        }
        return outcome
    }

    /// One setup per script (each names its flow unless one is given), or one without a script.
    private static func setups(_ options: Options, needsScript: Bool) throws(CommandError) -> [SimulationSetup] {
        var setups: [SimulationSetup] = []
        for script in options.scripts.isEmpty ? [nil] : options.scripts.map(Optional.some) {
            do {
                setups.append(try SimulationSetup(input: options.input, script: script, needsScript: needsScript))
            } catch SimulationSetup.Problem.usage(let message) {
                throw CommandError.usage(message)
            } catch SimulationSetup.Problem.input(let findings, let message) {
                guard !findings.isEmpty else { throw CommandError([message], status: .findings) }
                let text = TextReporter(color: options.colorErrors).render(LintReport(diagnostics: findings, fileCount: 1))
                throw CommandError(findings: String(text.split(separator: "\n").dropLast().joined(separator: "\n")), [], status: .findings)
            } catch {
                throw CommandError.failure(CommandMessage(describing: error))
            }
        }
        return setups
    }
}
