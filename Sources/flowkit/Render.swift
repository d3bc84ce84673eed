import ArgumentParser
import FlowKit
import FlowKitTool
import FlowKitGraphviz
import Foundation

/// `flowkit render`: draws a flow as SVG, PNG, DOT or Mermaid.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        // Named here, not derived from the type: deriving it costs a scan of every protocol conformance in the
        // binary at start-up.
        commandName: "render",
        abstract: "Draw a flow as SVG, PNG, DOT or Mermaid.",
        discussion: """
            Graphviz runs in-process. Steps are boxes, action steps hexagons, nested flows component boxes, finish \
            steps double boxes; the start is marked with a dot, back moves are dashed and restarts dotted. The file \
            is written next to the input with the format's extension unless -o says otherwise (-o - writes to \
            standard output); that default name is refused when it is the input itself. A failed render never \
            replaces an existing file; a link is written through, a device or FIFO as a stream.

            Examples:
              flowkit render --png flows/transfer.json
              flowkit render --mermaid flows/booking.json -o -
              flowkit render --svg flows/booking.json --focus checkout --radius 1
              flowkit simulate --script flows/scripts/transfer.yaml --trace-out run.json
              flowkit render --png flows/transfer.yaml --trace run.json -o run.png
              flowkit render --diff flows/transfer.yaml flows/transfer.json --mermaid -o -

            With --diff OLD, the picture is of the change from OLD to the flow given: added steps and edges \
            green, changed ones orange, removed ones red dashed where they were, the rest grey (the changes \
            'flowkit diff' reports). --focus-changes draws only the steps a change touches and their neighbours \
            (--radius, 1 by default there). The default output name is the flow's with '.diff' before the \
            format's extension.
            """)

    /// The formats `render` writes.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case svg, png, dot, mermaid

        var fileExtension: String { rawValue == "mermaid" ? "mmd" : rawValue }
    }

    @Argument(help: ArgumentHelp("The flow file to draw.", valueName: "flow"), completion: .file(extensions: ["json", "yaml", "yml"]))
    var file: String

    @Flag(name: .customLong("svg"), help: "Write SVG (the default).") var svg = false
    @Flag(name: .customLong("png"), help: "Write PNG.") var png = false
    @Flag(name: .customLong("dot"), help: "Write DOT text.") var dot = false
    @Flag(name: .customLong("mermaid"), help: "Write a Mermaid stateDiagram-v2.") var mermaid = false

    @Option(name: .long, help: ArgumentHelp("The output format: svg, png, dot or mermaid (instead of a flag).", valueName: "format"))
    var format: Format?

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Where to write; '-' for standard output.", valueName: "path"), completion: .file())
    var output: String?

    @Option(name: .long, help: ArgumentHelp("Direction: LR (left to right) or TB (top to bottom); by default chosen so the picture is not too wide.", valueName: "dir"),
            completion: .list(["LR", "TB"]))
    var rankdir: String?

    @Flag(name: .long, help: "Add a key of the shapes and edge styles.")
    var legend = false

    @Option(name: .long, help: ArgumentHelp("Draw only the steps around this one (for large flows).", valueName: "step"))
    var focus: String?

    @Option(name: .long, help: ArgumentHelp("With --focus: how many moves away from the step to draw.", valueName: "n"))
    var radius: Int?

    @Option(name: .long, help: ArgumentHelp("Draw coverage written by 'simulate --coverage-report json:PATH' (or merged) on the diagram.", valueName: "file"),
            completion: .file(extensions: ["json"]))
    var coverage: String?

    @Option(name: .long, help: ArgumentHelp("Draw a run written by 'flowkit simulate --trace-out' on the diagram.", valueName: "file"),
            completion: .file(extensions: ["json"]))
    var trace: String?

    @Option(name: .long, help: ArgumentHelp("With --trace: the scenario to draw (default: the first).", valueName: "name"))
    var scenario: String?

    @Option(name: .long, help: ArgumentHelp("Draw the change from this older version of the flow.", valueName: "old"),
            completion: .file(extensions: ["json", "yaml", "yml"]))
    var diff: String?

    @Flag(name: .customLong("focus-changes"), help: "With --diff: draw only the changed steps and their neighbours.")
    var focusChanges = false

    @Option(name: .long, help: ArgumentHelp("The Graphviz layout engine.", valueName: "engine"),
            completion: .list(["dot", "neato", "fdp", "sfdp", "circo", "twopi", "osage", "patchwork"]))
    var engine: String = "dot"

    @Option(name: .long, help: ArgumentHelp("Give up after this many seconds of layout (exit 2, no file written).", valueName: "seconds"))
    var timeout: Double = 60

    func validate() throws {
        let flags = [svg, png, dot, mermaid].filter { $0 }.count
        if flags > 1 || (flags == 1 && format != nil) {
            throw ValidationError("choose one format: --svg, --png, --dot, --mermaid or --format")
        }
        if let rankdir, !["LR", "TB"].contains(rankdir) { throw ValidationError("--rankdir takes LR or TB, not '\(Identifier.display(rankdir))'") }
        if let radius, radius < 0 { throw ValidationError("--radius takes a number of moves, 0 or more") }
        if focusChanges && diff == nil { throw ValidationError("--focus-changes draws the neighbourhood of a change; give --diff OLD") }
        if diff != nil && (trace != nil || coverage != nil) { throw ValidationError("--diff draws a change; it does not draw --trace or --coverage") }
        if diff != nil && focus != nil && focusChanges { throw ValidationError("give --focus STEP or --focus-changes, not both") }
        if !(timeout > 0) { throw ValidationError("--timeout takes a number of seconds above 0") }
        if engine.isEmpty || !engine.allSatisfy({ $0.isLetter || $0.isNumber }) {
            throw ValidationError("--engine takes a Graphviz layout engine name such as dot or neato")
        }
    }

    var chosenFormat: Format {
        if png { return .png }
        if dot { return .dot }
        if mermaid { return .mermaid }
        return format ?? .svg
    }

    func run() throws {
        let document = try FlowLoader.load(path: file)
        guard let flow = document.flow, document.isWellFormed else {
            let findings = document.diagnostics.filter { $0.severity == .error }
            let text = TextReporter(color: ColorChoice.auto.enabled(for: STDERR_FILENO)).render(LintReport(diagnostics: findings, fileCount: 1))
            throw CommandFailure(findings: text, errors: ["\(file) is not a flow that can be drawn" + (document.isScript ? " (it is a simulation script)" : "")], exitCode: 1)
        }
        var options = DiagramOptions(focus: focus, radius: radius ?? (focusChanges ? 1 : 2))
        options.direction = rankdir
        options.legend = legend
        let directory = (file as NSString).deletingLastPathComponent
        options.resolver = FileFlowResolver(root: directory.isEmpty ? "." : directory)
        if let trace {
            let run: SimulationTrace.Scenario
            do {
                run = try SimulationTrace.read(path: trace).scenario(named: scenario, in: trace)
            } catch {
                throw ValidationError("--trace: \(error.message)")
            }
            let highlight = DiagramOptions.highlighting(run: run.trace, path: run.path, in: flow)
            options.highlightedSteps = highlight.highlightedSteps
            options.highlightedMoves = highlight.highlightedMoves
            options.startedAtEntry = run.entry
            options.failure = run.failure
        }
        if let coverage {
            let counted: Coverage
            do {
                counted = try Coverage.read(path: coverage)
            } catch {
                throw ValidationError("--coverage: \(error.message)")
            }
            let name = CoverageRecorder.display(file)
            guard let fileCoverage = counted.files.first(where: { $0.file == name }) else {
                throw ValidationError("--coverage: '\(Identifier.display(coverage, limit: .max))' has no coverage of '\(Identifier.display(name, limit: .max))'"
                                      + Suggestions.didYouMean(name, in: counted.files.map(\.file)))
            }
            options.coverage = fileCoverage
        }
        let diagram: FlowDiagram
        do {
            if let diff {
                let old: Flow
                do {
                    old = try FlowDiff.load(path: diff)
                } catch {
                    throw CommandFailure(errors: [error.message], exitCode: 2)
                }
                diagram = try FlowDiagram(change: old, to: flow, options: options, focusOnChanges: focusChanges)
            } else {
                diagram = try FlowDiagram(flow: flow, options: options)
            }
        } catch let error as DiagramError {
            throw ValidationError("--focus: \(error)")
        }
        let bytes: [UInt8]
        switch chosenFormat {
        case .mermaid:
            bytes = Array(MermaidWriter.write(diagram).utf8)
        case .svg, .png, .dot:
            let graphvizFormat = GraphvizFormat(rawValue: chosenFormat.rawValue)!
            let options = GraphvizOptions(rankdir: rankdir, engine: engine)
            let rendered = try Watchdog.run(seconds: timeout, what: "laying out \(Identifier.display(file, limit: .max, quoting: false))") {
                try GraphvizRenderer.render(diagram, format: graphvizFormat, options: options)
            }
            for warning in rendered.warnings { printNote("flowkit: warning: Graphviz: \(warning)") }
            bytes = rendered.data
        }
        let destination = try output ?? Self.defaultOutput(for: file, format: chosenFormat, suffix: diff == nil ? "" : ".diff")
        try OutputFile.write(bytes, to: destination)
        if destination != OutputFile.standardOutputName {
            printNote("wrote \(Identifier.display(destination, limit: .max, quoting: false))")
        }
    }

    /// The input's path with its extension replaced by the format's; an error when that names the input file
    /// itself (`render --mermaid flow.mmd`, or a link or a case-insensitive file system making them one file).
    static func defaultOutput(for input: String, format: Format, suffix: String = "") throws -> String {
        let destination = (input as NSString).deletingPathExtension + suffix + "." + format.fileExtension
        var inputInfo = stat()
        var destinationInfo = stat()
        let sameName = destination == input
        let sameFile = stat(input, &inputInfo) == 0 && stat(destination, &destinationInfo) == 0
            && inputInfo.st_dev == destinationInfo.st_dev && inputInfo.st_ino == destinationInfo.st_ino
        if sameName || sameFile {
            throw RenderError.outputIsInput(destination)
        }
        return destination
    }
}

/// Why `render` will not write.
enum RenderError: LocalizedError {
    /// The default output name is the input file itself.
    case outputIsInput(String)

    var errorDescription: String? {
        switch self {
        case .outputIsInput(let path):
            return "the default output '\(Identifier.display(path, limit: .max))' is the input file itself; name the output with -o"
        }
    }
}

/// Runs work that cannot be cancelled (Graphviz layout) on a thread with a large stack, and ends the process
/// with a clear message and exit code 2 when it takes longer than allowed. Nothing has been written by then.
enum Watchdog {
    static func run<T: Sendable>(seconds: Double, what: String, _ work: @escaping @Sendable () throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.result = Result { try work() }
            done.signal()
        }
        thread.stackSize = 64 << 20
        thread.start()
        guard done.wait(timeout: .now() + seconds) == .success, let result = box.result else {
            // The layout thread is still running: the process ends at once, tearing nothing down under it.
            throw CommandFailure(errors: ["gave up after \(Self.format(seconds)) s \(what); Graphviz layout cannot be interrupted. "
                                          + "Try --focus STEP --radius N for a part of the flow, or a larger --timeout"], exitCode: 2, immediately: true)
        }
        return try result.get()
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    private final class ResultBox<T>: @unchecked Sendable {
        var result: Result<T, Error>?
    }
}
