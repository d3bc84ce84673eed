import ArgumentParser
import FlowKit
import Foundation

/// `flowkit simulate`: runs a flow with scripted step results and checks path, outcome and state.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a flow with scripted step results and check where it ends.",
        discussion: """
            Runs every scenario of a simulation script (or one, with --scenario) and prints a trace per scenario, \
            then 'N passed, N failed'. Exit 1 when a scenario fails or the flow has syntax, schema or expression \
            errors; 2 when the command cannot do its work.

            Examples:
              flowkit simulate --script flows/scripts/transfer.yaml
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

    @Option(name: .long, help: ArgumentHelp("The simulation script (its 'flow' is ignored when a flow is given).", valueName: "script"),
            completion: .file(extensions: ["yaml", "yml", "json"]))
    var script: String?

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

    @Flag(name: .long, help: "Print only failing scenarios' traces.")
    var quiet = false

    @Option(name: .long, help: ArgumentHelp("Colour text output: auto, always or never.", valueName: "when"))
    var color: ColorChoice = .auto

    /// The formats `simulate` writes.
    enum SimulationFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json, junit
    }

    func validate() throws {
        if input == nil && script == nil { throw ValidationError("give a flow with --script or --events, or a script that names its flow") }
        if !events.isEmpty && script != nil { throw ValidationError("--events runs without a script; give one or the other") }
        if interactive && (script != nil || !events.isEmpty) { throw ValidationError("--interactive plays a flow by hand; give it without --script or --events") }
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
    }

    func run() throws {
        var scriptPath = script
        var flowPath = input
        if let input, script == nil, events.isEmpty, !interactive {
            let document = try load(input)
            guard document.isScript else {
                throw ValidationError("'\(Identifier.display(input, limit: .max))' is a flow: give --script SCRIPT or --events e1,e2")
            }
            scriptPath = input
            flowPath = nil
        }
        var parsedScript: Script?
        if let scriptPath {
            let document = try load(scriptPath)
            guard document.isScript, let root = document.root else {
                throw failure(findings: document.diagnostics, fallback: "'\(Identifier.display(scriptPath, limit: .max))' is not a simulation script (it has no 'flowkit-script' key)")
            }
            let decoded = ScriptDecoder.decode(root, file: scriptPath)
            guard let decodedScript = decoded.script, decoded.diagnostics.isEmpty else {
                throw failure(findings: decoded.diagnostics, fallback: "'\(Identifier.display(scriptPath, limit: .max))' is not a valid script")
            }
            parsedScript = decodedScript
            if flowPath == nil {
                guard let named = decodedScript.flow else {
                    throw ValidationError("the script '\(Identifier.display(scriptPath, limit: .max))' names no 'flow'; give the flow: flowkit simulate FLOW --script \(Identifier.display(scriptPath, limit: .max, quoting: false))")
                }
                let directory = (scriptPath as NSString).deletingLastPathComponent
                flowPath = DisplayPath.normalized(directory.isEmpty ? named : (directory as NSString).appendingPathComponent(named))
            }
        }
        guard let flowPath else { throw ValidationError("no flow to run") }
        let flow = try compileFlow(flowPath)
        let resolver = FileFlowResolver(root: (flowPath as NSString).deletingLastPathComponent.isEmpty ? "." : (flowPath as NSString).deletingLastPathComponent)

        if interactive {
            let initial = try state.map { try RunMove.object($0, column: 1) } ?? [:]
            try Play(flowPath: flowPath, flow: flow, resolver: resolver, state: initial, maxSteps: maxSteps).run()
            return
        }

        let report: SimulationReport
        if !events.isEmpty {
            let moves = try events.flatMap { try RunMove.parseList($0) }
            let initial = try state.map { try RunMove.object($0, column: 1) } ?? [:]
            let result = ScriptRunner.run(moves: moves, start: .start(state: initial), flow: flow, resolver: resolver, maxSteps: maxSteps)
            report = SimulationReport(script: "--events", flow: flowPath, results: [result])
        } else if let parsedScript {
            if let scenario, !parsedScript.scenarios.contains(where: { $0.name == scenario }) {
                let hint = Suggestions.didYouMean(scenario, in: parsedScript.scenarios.map(\.name))
                throw ValidationError("the script has no scenario '\(Identifier.display(scenario))'\(hint)")
            }
            let results = ScriptRunner.run(parsedScript, flow: flow, resolver: resolver, maxSteps: maxSteps, only: scenario)
            report = SimulationReport(script: parsedScript.file, flow: flowPath, results: results)
        } else {
            throw ValidationError("give --script or --events")
        }

        let reporter: any SimulationReporter
        switch format {
        case .text: reporter = TextSimulationReporter(color: color.enabled(for: STDOUT_FILENO), verbose: !quiet)
        case .json: reporter = JSONSimulationReporter()
        case .junit: reporter = JUnitReporter()
        }
        try StandardOutput.write(reporter.render(report))
        if let traceOut {
            try OutputFile.write(Array(JSONSimulationReporter().render(report).utf8), to: traceOut)
        }
        if report.failed > 0 { throw CommandFailure(exitCode: 1) }
    }

    private func load(_ path: String) throws -> LoadedDocument {
        try FlowLoader.load(path: path)
    }

    /// Loads the flow as lint does; syntax, schema or expression errors stop the run with exit 1.
    private func compileFlow(_ path: String) throws -> CompiledFlow {
        let document = try load(path)
        if document.isScript {
            throw ValidationError("'\(Identifier.display(path, limit: .max))' is a simulation script, not a flow")
        }
        let blocking = Linter.lint(document, rules: Linter.runPrerequisites).filter { $0.severity == .error }
        guard let flow = document.flow, blocking.isEmpty else {
            throw failure(findings: blocking.isEmpty ? document.diagnostics : blocking, fallback: "'\(Identifier.display(path, limit: .max))' is not a flow that can run")
        }
        do {
            return try CompiledFlow(flow: flow)
        } catch {
            throw CommandFailure(errors: [error.description], exitCode: 1)
        }
    }

    /// The failure that shows `findings` (without the report's summary line), or `fallback` when there are none.
    private func failure(findings: [Diagnostic], fallback: String) -> CommandFailure {
        guard !findings.isEmpty else { return CommandFailure(errors: [fallback], exitCode: 1) }
        let text = TextReporter(color: color.enabled(for: STDERR_FILENO)).render(LintReport(diagnostics: findings, fileCount: 1))
        return CommandFailure(findings: String(text.split(separator: "\n").dropLast().joined(separator: "\n")), exitCode: 1)
    }
}
