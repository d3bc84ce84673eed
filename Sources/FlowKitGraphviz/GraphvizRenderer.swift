@preconcurrency import CGraphviz
import FlowKit
import FlowKitTool
import Foundation

/// The output formats Graphviz produces for flowkit.
package enum GraphvizFormat: String, CaseIterable, Sendable {
    /// Scalable vector graphics, laid out.
    case svg
    /// A PNG image, laid out.
    case png
    /// DOT text from Graphviz's own writer (no layout).
    case dot
}

/// The choices a user may make about a rendering; every other attribute is flowkit's.
package struct GraphvizOptions: Sendable {
    /// `LR` (left to right) or `TB` (top to bottom); nil takes the diagram's own direction
    /// (`FlowDiagram.direction`, chosen by the flow's shape).
    package var rankdir: String?
    /// The layout engine (`dot` unless asked otherwise).
    package var engine: String
    /// When set, the SVG's elements get ids a page can find them by: the graph `PREFIX`, each node `PREFIX_ID`
    /// (its diagram id) and each edge `PREFIX_edgeK` (K its index in the diagram), so that several pictures share a
    /// page (the HTML report). The prefix must be letters and digits (Graphviz writes other characters as references).
    package var idPrefix: String?

    /// Creates options.
    package init(rankdir: String? = nil, engine: String = "dot", idPrefix: String? = nil) {
        self.rankdir = rankdir
        self.engine = engine
        self.idPrefix = idPrefix
    }
}

/// What went wrong inside Graphviz, with Graphviz's own message where it gave one.
package enum GraphvizError: LocalizedError, Equatable, Sendable {
    /// The layout engine is not one Graphviz has.
    case unknownEngine(String)
    /// Graphviz could not lay the graph out.
    case layoutFailed(String)
    /// Graphviz could not render the laid-out graph.
    case renderFailed(String)
    /// The graph could not be built.
    case graphFailed(String)

    package var errorDescription: String? {
        switch self {
        case .unknownEngine(let engine): return "Graphviz has no layout engine '\(engine)'; try dot, neato, fdp, sfdp, circo or twopi"
        case .layoutFailed(let message): return "Graphviz could not lay out the flow: \(message)"
        case .renderFailed(let message): return "Graphviz could not render the flow: \(message)"
        case .graphFailed(let message): return "Graphviz could not build the graph: \(message)"
        }
    }
}

/// A rendered picture and its size as Graphviz reports it (the bounding box, in points).
package struct RenderedGraph: Sendable {
    /// The bytes of the output.
    package let data: [UInt8]
    /// The drawing's width in points (1/72 inch), nil for DOT.
    package let width: Double?
    /// The drawing's height in points, nil for DOT.
    package let height: Double?
    /// Graphviz's warnings during the render (for example a bitmap scaled down to fit), one per line.
    package let warnings: [String]
}

/// Renders flow diagrams in-process with the Graphviz C library.
///
/// The graph is built through the cgraph API with generated node ids and only attributes flowkit chooses, so
/// nothing a flow file says can become DOT syntax. Graphviz keeps global state, so calls are serialised; its
/// errors are reset before each render and captured into `GraphvizError`s instead of reaching the terminal.
package enum GraphvizRenderer {
    /// Above this many nodes, or this many edges, layout uses the cheaper settings of `largeGraphAttributes`.
    package static let largeGraphThreshold = 150

    /// Whether `diagram` is laid out as a large graph: above `largeGraphThreshold` nodes or edges (spline routing
    /// of 200 edges among 110 nodes took 5 s, against 0.2 s with the large-graph settings).
    package static func isLarge(_ diagram: FlowDiagram) -> Bool {
        diagram.nodes.count > largeGraphThreshold || diagram.edges.count > largeGraphThreshold
    }

    /// Graph attributes for every rendering; `direction` is the diagram's, unless the options name one.
    package static func graphAttributes(title: String, direction: String = "LR", options: GraphvizOptions) -> [(String, String)] {
        [
            ("rankdir", (options.rankdir ?? direction) == "TB" ? "TB" : "LR"),
            ("label", escapeLabel(title)),
            ("labelloc", "t"),
            ("fontname", "Helvetica"),
            ("fontsize", "16"),
            ("nodesep", "0.35"),
            ("ranksep", "0.55"),
            ("pad", "0.25"),
            ("bgcolor", "white"),
        ]
    }

    /// Extra attributes for large graphs (`isLarge`): bounded network-simplex and
    /// crossing-minimisation work (`nslimit`, `nslimit1`, `mclimit`, `searchsize`) and straight edges (spline
    /// routing alone took over a minute for 500 steps), which with connectors for long jumps keep a 1,000-step flow
    /// to seconds instead of the many minutes dot's defaults take.
    package static let largeGraphAttributes: [(String, String)] = [
        ("nslimit", "2"),
        ("nslimit1", "2"),
        ("mclimit", "0.2"),
        ("searchsize", "20"),
        ("splines", "false"),
        ("remincross", "false"),
    ]

    private static let lock = NSLock()

    /// One Graphviz context for the process, used under `lock`. Graphviz 2.42's `gvFreeContext` does not return
    /// everything `gvContext` allocates (about 3.6 KB per pair, measured in C), so a context per render would leak.
    nonisolated(unsafe) private static let sharedContext = gvContext()

    /// In large graphs (`isLarge`), edges spanning more layers than this end at a connector.
    package static let maxEdgeSpan = 12

    /// Renders `diagram` to `format`; a large diagram (`isLarge`) draws long jumps as connectors. Without a
    /// `rankdir` in `options`, the diagram's direction is checked by laying it out (docs/format.md, "Pictures"): a
    /// picture more than `FlowDiagram.maxAspectRatio` times as wide as high is laid out the other way too, and the
    /// narrower of the two is kept (large diagrams keep the estimate, which saves a second layout).
    package static func render(_ diagram: FlowDiagram, format: GraphvizFormat, options: GraphvizOptions = GraphvizOptions()) throws -> RenderedGraph {
        var diagram = isLarge(diagram) ? diagram.breakingLongEdges(maxSpan: maxEdgeSpan) : diagram
        if options.rankdir == nil && !isLarge(diagram) {
            diagram.direction = try measuredDirection(diagram, engine: options.engine)
        }
        lock.lock()
        defer { lock.unlock() }
        ErrorSink.messages = []
        _ = agreseterrors()
        let previousSink = agseterrf(ErrorSink.collect)
        let previousLevel = agseterr(AGWARN)
        defer {
            _ = agseterrf(previousSink)
            _ = agseterr(previousLevel)
        }
        let strings = CStrings()
        defer { strings.release() }
        guard let graph = agopen(strings("flow"), Agdirected, nil) else {
            throw GraphvizError.graphFailed(ErrorSink.text(or: "agopen failed"))
        }
        defer { agclose(graph) }
        build(diagram, into: graph, options: options, strings: strings)
        if format == .png {
            let dpi = diagram.nodes.count > largeGraphThreshold ? "72" : "144"
            agsafeset(graph, strings("dpi"), strings(dpi), strings(""))
        }
        if format == .dot {
            return RenderedGraph(data: try write(graph), width: nil, height: nil, warnings: ErrorSink.lines())
        }
        guard let context = sharedContext else { throw GraphvizError.graphFailed("could not create a Graphviz context") }
        guard gvLayout(context, graph, options.engine) == 0 else {
            let message = ErrorSink.text(or: "")
            if message.contains("not recognized") { throw GraphvizError.unknownEngine(options.engine) }
            throw GraphvizError.layoutFailed(ErrorSink.text(or: "unknown layout error"))
        }
        defer { gvFreeLayout(context, graph) }
        attach_attrs(graph)
        var result: UnsafeMutablePointer<CChar>?
        var length: UInt32 = 0
        // Some renderer plugins print straight to standard error; what they print becomes warnings instead.
        let status = StandardErrorCapture.run { gvRenderData(context, graph, format.rawValue, &result, &length) }
        guard status == 0, let result else {
            throw GraphvizError.renderFailed(ErrorSink.text(or: "unknown render error"))
        }
        defer { gvFreeRenderData(result) }
        let data = Array(UnsafeRawBufferPointer(start: result, count: Int(length)))
        let box = agget(graph, strings("bb")).map { String(cString: $0) } ?? ""
        let numbers = box.split(separator: ",").compactMap { Double($0) }
        let width = numbers.count == 4 ? numbers[2] - numbers[0] : nil
        let height = numbers.count == 4 ? numbers[3] - numbers[1] : nil
        return RenderedGraph(data: data, width: width, height: height, warnings: ErrorSink.lines())
    }

    /// The diagram's own direction, unless Graphviz lays it out more than `FlowDiagram.maxAspectRatio` times as
    /// wide as high and the other direction is narrower.
    private static func measuredDirection(_ diagram: FlowDiagram, engine: String) throws -> String {
        func ratio(_ direction: String) throws -> Double {
            let laidOut = try render(diagram, format: .svg, options: GraphvizOptions(rankdir: direction, engine: engine))
            guard let width = laidOut.width, let height = laidOut.height, height > 0 else { return 0 }
            return width / height
        }
        let first = try ratio(diagram.direction)
        guard first > FlowDiagram.maxAspectRatio else { return diagram.direction }
        let other = diagram.direction == "TB" ? "LR" : "TB"
        return try ratio(other) < first ? other : diagram.direction
    }

    /// Adds the diagram's nodes and edges, with flowkit's attributes, to `graph`.
    private static func build(_ diagram: FlowDiagram, into graph: UnsafeMutablePointer<Agraph_t>, options: GraphvizOptions, strings: CStrings) {
        var attributes = graphAttributes(title: diagram.title + (diagram.subtitle.map { "\n" + $0 } ?? ""), direction: diagram.direction, options: options)
        if isLarge(diagram) { attributes += largeGraphAttributes }
        if let prefix = options.idPrefix { attributes.append(("id", prefix)) }
        for (name, value) in attributes { agsafeset(graph, strings(name), strings(value), strings("")) }
        let nodeDefaults = [
            ("shape", "box"), ("style", "rounded,filled"), ("fillcolor", "#ffffff"), ("color", "#4d4d4d"),
            ("fontname", "Helvetica"), ("fontsize", "11"), ("margin", "0.15,0.06"), ("height", "0.4"), ("penwidth", "1"),
        ]
        for (name, value) in nodeDefaults { agattr(graph, AGNODE, strings(name), strings(value)) }
        let edgeDefaults = [
            ("fontname", "Helvetica"), ("fontsize", "9"), ("color", "#4d4d4d"), ("fontcolor", "#333333"),
            ("arrowsize", "0.7"), ("style", "solid"), ("penwidth", "1"),
        ]
        for (name, value) in edgeDefaults { agattr(graph, AGEDGE, strings(name), strings(value)) }

        var handles: [UnsafeMutablePointer<Agnode_t>?] = []
        var legend: UnsafeMutablePointer<Agraph_t>?
        if diagram.nodes.contains(where: \.inLegend), let cluster = agsubg(graph, strings("cluster_legend"), 1) {
            legend = cluster
            for (name, value) in [("label", "Key"), ("style", "rounded,dashed"), ("color", "#bbbbbb"), ("fontsize", "10"), ("fontcolor", "#666666")] {
                agsafeset(cluster, strings(name), strings(value), strings(""))
            }
        }
        for node in diagram.nodes {
            let handle = agnode(node.inLegend ? (legend ?? graph) : graph, strings(node.id), 1)
            handles.append(handle)
            guard let handle else { continue }
            func set(_ name: String, _ value: String) { agsafeset(handle, strings(name), strings(value), strings("")) }
            set("label", escapeLabel(node.label))
            switch node.role {
            case .initial:
                set("shape", "point"); set("width", "0.18"); set("fillcolor", "#333333"); set("label", "")
            case .screen:
                break
            case .action:
                set("shape", "hexagon"); set("fillcolor", "#eef4ff"); set("color", "#4a6fb5"); set("style", "filled")
            case .flow:
                set("shape", "component"); set("fillcolor", "#f3eefc"); set("color", "#7a57b8"); set("style", "filled")
            case .finish:
                set("peripheries", "2"); set("fillcolor", "#e9f6ec"); set("color", "#3f8f52")
            case .anyStep:
                set("shape", "circle"); set("style", "dashed"); set("fontsize", "16"); set("width", "0.45"); set("fixedsize", "true")
            case .backMarker:
                set("shape", "point"); set("width", "0.08"); set("color", "#888888"); set("fillcolor", "#888888")
            case .undefined:
                set("style", "rounded,dashed"); set("color", "#c0392b"); set("fontcolor", "#c0392b")
            case .boundary:
                set("style", "rounded,filled,dashed"); set("fillcolor", "#f4f4f4"); set("color", "#bbbbbb")
                set("fontcolor", "#888888"); set("fontsize", "9"); set("height", "0.3"); set("margin", "0.08,0.03")
            case .entry:
                set("shape", "note"); set("style", "filled"); set("fillcolor", "#fff8e1"); set("color", "#b7950b")
                set("fontsize", "9"); set("height", "0.3"); set("margin", "0.08,0.03")
            case .failureNote:
                set("shape", "note"); set("style", "filled"); set("fillcolor", "#fdecea"); set("color", "#c0392b")
                set("fontcolor", "#c0392b"); set("fontsize", "9"); set("margin", "0.08,0.03")
            case .connector:
                set("shape", "cds"); set("style", "filled"); set("fillcolor", "#f4f4f4"); set("color", "#999999")
                set("fontsize", "9"); set("height", "0.25"); set("margin", "0.08,0.02")
            }
            if node.isStart { set("penwidth", "2") }
            if node.highlighted { set("color", "#d35400"); set("penwidth", "2.5") }
            if node.neverShown { set("color", "#c0392b"); set("penwidth", "2.5") }
            switch node.change {
            case .added?: set("color", "#2e7d32"); set("fillcolor", "#e9f7ef"); set("penwidth", "2"); set("style", node.role == .screen ? "rounded,filled" : "filled")
            case .removed?:
                set("color", "#c0392b"); set("fontcolor", "#c0392b"); set("fillcolor", "#fdecea")
                set("style", node.role == .screen ? "rounded,filled,dashed" : "filled,dashed")
            case .changed?: set("color", "#e67e22"); set("fillcolor", "#fff3e0"); set("penwidth", "2"); set("style", node.role == .screen ? "rounded,filled" : "filled")
            case .unchanged?: set("color", "#c8c8c8"); set("fontcolor", "#999999"); if node.role != .screen { set("fillcolor", "#f7f7f7") }
            case nil: break
            }
            if let failure = node.failure {
                set("tooltip", escapeLabel(failure))
                if node.role != .failureNote { set("color", "#c0392b"); set("penwidth", "3"); set("fillcolor", "#fdecea") }
            }
            if let mark = node.findings { setMark(UnsafeMutableRawPointer(handle), mark, graph: graph, strings: strings) }
            if let prefix = options.idPrefix { set("id", "\(prefix)_\(node.id)") }
        }
        // Self-loops of one node that look alike (style, highlight, change, coverage) are one loop whose label has
        // a line per option, and loops that look different go round opposite sides: so that no two loop labels lie
        // on each other (Graphviz places the labels of loops on one side over each other).
        func fullLabel(_ edge: FlowDiagram.Edge) -> String {
            var label = edge.label ?? ""
            if !edge.order.isEmpty { label = edge.order.map(String.init).joined(separator: ",") + (label.isEmpty ? "" : ": " + label) }
            if let note = edge.coverageLabel { label = (label.isEmpty ? "" : label + "\n") + note }
            return label
        }
        let drawnAs = diagram.loopGroups()
        var loopLines: [Int: [String]] = [:]
        var loopSide: [Int: String] = [:]
        var groupsAtNode: [Int: Int] = [:]
        // Graphviz's own side first, then the other sides in turn.
        let sides = diagram.direction == "LR" ? ["s", "w", "e"] : ["w", "s", "n"]
        for (index, edge) in diagram.edges.enumerated() where edge.from == edge.to {
            let first = drawnAs[index] ?? index
            // An option without a label (a `next`) still gets its line when loops are merged.
            let line = fullLabel(edge).isEmpty ? "next" : fullLabel(edge).replacingOccurrences(of: "\n", with: ", ")
            if first == index {
                let count = groupsAtNode[edge.from, default: 0]
                groupsAtNode[edge.from] = count + 1
                if count > 0 { loopSide[index] = sides[(count - 1) % sides.count] }
            }
            loopLines[first, default: []].append(line)
        }
        let mergedLabels = loopLines.filter { $0.value.count > 1 }.mapValues { $0.joined(separator: "\n") }
        // A merged loop carries the findings of every option it draws.
        var loopMarks: [Int: FlowDiagram.FindingMark] = [:]
        for (index, first) in drawnAs where index != first {
            guard let mark = diagram.edges[index].findings else { continue }
            let before = loopMarks[first] ?? diagram.edges[first].findings
            loopMarks[first] = FlowDiagram.FindingMark(count: mark.count + (before?.count ?? 0), severity: min(mark.severity, before?.severity ?? mark.severity))
        }
        for (index, edge) in diagram.edges.enumerated() {
            if edge.from == edge.to, drawnAs[index] != index { continue }
            guard let from = handles[edge.from], let to = handles[edge.to], let handle = agedge(graph, from, to, nil, 1) else { continue }
            func set(_ name: String, _ value: String) { agsafeset(handle, strings(name), strings(value), strings("")) }
            if let side = loopSide[index] {
                set("tailport", side)
                set("headport", side)
            }
            let label = mergedLabels[index] ?? fullLabel(edge)
            if !label.isEmpty { set("label", escapeLabel(label)) }
            switch edge.style {
            case .forward: break
            case .back: set("style", "dashed"); set("color", "#7f8c8d")
            case .restart: set("style", "dotted"); set("color", "#7f8c8d")
            case .annotation:
                set("color", diagram.nodes[edge.from].role == .failureNote ? "#c0392b" : "#b7950b"); set("arrowsize", "0.5")
                if diagram.nodes[edge.from].role == .failureNote { set("style", "dashed") }
            }
            if edge.highlighted { set("color", "#d35400"); set("penwidth", "2.5"); set("fontcolor", "#d35400") }
            switch edge.change {
            case .added?: set("color", "#2e7d32"); set("fontcolor", "#2e7d32"); set("penwidth", "2")
            case .removed?: set("color", "#c0392b"); set("fontcolor", "#c0392b"); set("style", "dashed"); set("penwidth", "1.5")
            case .changed?: set("color", "#e67e22"); set("fontcolor", "#a04000"); set("penwidth", "2")
            case .unchanged?: set("color", "#c8c8c8"); set("fontcolor", "#aaaaaa")
            case nil: break
            }
            if let mark = loopMarks[index] ?? edge.findings { setMark(UnsafeMutableRawPointer(handle), mark, graph: graph, strings: strings) }
            if let prefix = options.idPrefix { set("id", "\(prefix)_edge\(index)") }
            // Coverage: an edge taken is solid with its hit count, one never taken red and dashed.
            if let hits = edge.hits {
                if let shared = edge.sharedSteps, hits > 0, shared.taken < shared.total {
                    // A "*" option taken at some of its steps only.
                    set("style", "solid"); set("color", "#e67e22"); set("fontcolor", "#a04000"); set("penwidth", "1.5")
                } else if hits > 0 {
                    set("style", "solid"); set("color", "#2e7d32"); set("penwidth", "1.5")
                } else {
                    set("style", "dashed"); set("color", "#c0392b"); set("fontcolor", "#c0392b"); set("penwidth", "1.5")
                }
            }
        }
    }

    /// Sets a finding mark as the `xlabel` of a node or an edge: an HTML-like label (of flowkit's own text: a sign
    /// and a number), so that its colour is its own, not the label's.
    private static func setMark(_ object: UnsafeMutableRawPointer, _ mark: FlowDiagram.FindingMark, graph: UnsafeMutablePointer<Agraph_t>,
                                strings: CStrings) {
        let color: String
        switch mark.severity {
        case .error: color = "#c0392b"
        case .warning: color = "#b9770e"
        case .note: color = "#2e6da4"
        }
        guard let html = agstrdup_html(graph, strings("<font color=\"\(color)\" point-size=\"10\"><b>\(mark.label)</b></font>")) else { return }
        agsafeset(object, strings("xlabel"), html, strings(""))
        agstrfree(graph, html)
    }

    /// `text` as a Graphviz label: backslashes escaped (so `\N`, `\G`, `\l` stay literal), `&` as `&amp;` (so a
    /// character reference in the text stays text), line breaks as centred `\n`, other control characters and
    /// U+FFFE, U+FFFF dropped, and very long text cut.
    package static func escapeLabel(_ text: String) -> String {
        var output = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count >= 400 {
                output += "…"
                break
            }
            switch scalar {
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\t", "\r": output += " "
            // Graphviz decodes character references in every label (`&#27;` would become a raw escape, which SVG,
            // being XML, cannot hold); `&amp;` is decoded back to the `&` written.
            case "&": output += "&amp;"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
                    || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                output.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return output
    }

    /// DOT text from cgraph's own writer.
    private static func write(_ graph: UnsafeMutablePointer<Agraph_t>) throws -> [UInt8] {
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { throw GraphvizError.renderFailed("no memory for the DOT text") }
        let status = agwrite(graph, stream)
        fclose(stream)
        defer { free(buffer) }
        guard status == 0, let buffer else { throw GraphvizError.renderFailed(ErrorSink.text(or: "agwrite failed")) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: size))
    }
}

/// Collects Graphviz's error and warning messages while the renderer holds its lock.
private enum ErrorSink {
    nonisolated(unsafe) static var messages: [String] = []

    static let collect: @convention(c) (UnsafeMutablePointer<CChar>?) -> Int32 = { message in
        if let message { ErrorSink.messages.append(String(cString: message)) }
        return 0
    }

    /// The collected messages, one per line, without Graphviz's "(null): " program-name prefix.
    static func lines() -> [String] {
        messages.joined().split(whereSeparator: \.isNewline).map { line in
            var text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("(null): ") { text.removeFirst(8) }
            if text.hasPrefix("Warning: ") { text.removeFirst(9) }
            return text
        }.filter { !$0.isEmpty }
    }

    /// The collected messages as one line, or `fallback` when there are none.
    static func text(or fallback: String) -> String {
        let text = messages.joined().split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
        return text.isEmpty ? fallback : text
    }
}

/// Sends file descriptor 2 to a temporary file while Graphviz renders, and files what arrived there as messages.
private enum StandardErrorCapture {
    static func run<T>(_ body: () -> T) -> T {
        fflush(stderr)
        var template = Array("/tmp/flowkit-graphviz-XXXXXX".utf8CString)
        let capture = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard capture >= 0 else { return body() }
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        let saved = dup(STDERR_FILENO)
        guard saved >= 0 else {
            close(capture)
            return body()
        }
        dup2(capture, STDERR_FILENO)
        let result = body()
        fflush(stderr)
        dup2(saved, STDERR_FILENO)
        close(saved)
        defer { close(capture) }
        let size = min(Int(lseek(capture, 0, SEEK_END)), 65_536)
        guard size > 0 else { return result }
        var buffer = [UInt8](repeating: 0, count: size)
        let count = pread(capture, &buffer, size, 0)
        if count > 0 { ErrorSink.messages.append(String(decoding: buffer[0..<count], as: UTF8.self)) }
        return result
    }
}

/// C strings that live until `release()`: cgraph takes `char *` and copies what it keeps.
private final class CStrings {
    private var pointers: [UnsafeMutablePointer<CChar>] = []

    func callAsFunction(_ text: String) -> UnsafeMutablePointer<CChar> {
        let pointer = strdup(text)!
        pointers.append(pointer)
        return pointer
    }

    func release() {
        for pointer in pointers { free(pointer) }
        pointers.removeAll()
    }
}

extension GraphvizRenderer {
    /// Reads DOT text back with cgraph's parser: the node and edge counts and every node's label, or nil when
    /// Graphviz cannot parse it. Used to check that no label can change the graph's structure.
    static func readBack(dot: String) -> (nodeCount: Int, edgeCount: Int, labels: [String: String])? {
        lock.lock()
        defer { lock.unlock() }
        ErrorSink.messages = []
        let previousSink = agseterrf(ErrorSink.collect)
        defer { _ = agseterrf(previousSink) }
        let strings = CStrings()
        defer { strings.release() }
        guard let graph = agmemread(dot) else { return nil }
        defer { agclose(graph) }
        var labels: [String: String] = [:]
        var node = agfstnode(graph)
        while let current = node {
            let name = String(cString: agnameof(current))
            labels[name] = agget(current, strings("label")).map { String(cString: $0) } ?? ""
            node = agnxtnode(graph, current)
        }
        return (Int(agnnodes(graph)), Int(agnedges(graph)), labels)
    }
}
