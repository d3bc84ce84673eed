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
    @Argument(help: ArgumentHelp("The flow file to draw.", valueName: "flow"), completion: .file(extensions: ["json", "yaml", "yml"]))
    var file: String

    @Flag(name: .customLong("svg"), help: "Write SVG (the default).") var svg = false
    @Flag(name: .customLong("png"), help: "Write PNG.") var png = false
    @Flag(name: .customLong("dot"), help: "Write DOT text.") var dot = false
    @Flag(name: .customLong("mermaid"), help: "Write a Mermaid stateDiagram-v2.") var mermaid = false

    @Option(name: .long, help: ArgumentHelp("The output format: svg, png, dot or mermaid (instead of a flag).", valueName: "format"))
    var format: RenderFrontend.Format?

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
        if let rankdir, !["LR", "TB"].contains(rankdir) { throw ValidationError(Message("--rankdir takes LR or TB, not '\(name: rankdir)'").text) }
        if let radius, radius < 0 { throw ValidationError("--radius takes a number of moves, 0 or more") }
        if focusChanges && diff == nil { throw ValidationError("--focus-changes draws the neighbourhood of a change; give --diff OLD") }
        if diff != nil && (trace != nil || coverage != nil) { throw ValidationError("--diff draws a change; it does not draw --trace or --coverage") }
        if diff != nil && focus != nil && focusChanges { throw ValidationError("give --focus STEP or --focus-changes, not both") }
        if !(timeout > 0) { throw ValidationError("--timeout takes a number of seconds above 0") }
        if engine.isEmpty || !engine.allSatisfy({ $0.isLetter || $0.isNumber }) {
            throw ValidationError("--engine takes a Graphviz layout engine name such as dot or neato")
        }
    }

    /// What this command line asks for.
    var options: RenderFrontend.Options {
        var options = RenderFrontend.Options(file: file)
        options.format = png ? .png : dot ? .dot : mermaid ? .mermaid : format ?? .svg
        (options.output, options.direction, options.legend, options.focus, options.radius) = (output, rankdir, legend, focus, radius)
        (options.coverage, options.trace, options.scenario, options.diff, options.focusOnChanges) = (coverage, trace, scenario, diff, focusChanges)
        options.colorErrors = ColorChoice.auto.enabled(for: STDERR_FILENO)
        return options
    }

    func run() throws {
        let drawing = try RenderFrontend.drawing(options)
        guard let format = GraphvizFormat(rawValue: drawing.format.rawValue) else {
            return try perform(drawing.outcome(Array(MermaidWriter.write(drawing.diagram).utf8)))
        }
        let options = GraphvizOptions(rankdir: rankdir, engine: engine)
        let rendered = try Watchdog.run(seconds: timeout, what: Message("laying out \(path: file)").text) {
            try GraphvizRenderer.render(drawing.diagram, format: format, options: options)
        }
        try perform(drawing.outcome(rendered.data, warnings: rendered.warnings))
    }
}

extension RenderFrontend.Format: ExpressibleByArgument {}

enum Watchdog {
    /// Runs `work` on a thread of its own, giving up after `seconds` (the process then ends at once); `advice` is
    /// what the error suggests.
    static func run<T: Sendable>(seconds: Double, what: String, advice: String = "Try --focus STEP --radius N for a part of the flow, or a larger --timeout",
                                 _ work: @escaping @Sendable () throws -> T) throws -> T {
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
            throw CommandError([CommandMessage("gave up after \(Self.format(seconds)) s \(what); Graphviz layout cannot be interrupted. " + advice)],
                               status: .failure, immediately: true)
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
