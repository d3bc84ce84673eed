import FlowKit

/// A flow as a picture to draw: nodes and edges with the roles and labels flowkit chose, independent of the
/// renderer (Graphviz, Mermaid). Node ids are generated (`n0`, `n1`, ...), so no name can reach a renderer as syntax.
package struct FlowDiagram: Sendable {
    /// What a node stands for, which decides its shape.
    package enum Role: String, Sendable {
        /// The marker the flow starts from (a small filled circle).
        case initial
        /// A screen step.
        case screen
        /// An action step (work such as a network call).
        case action
        /// A nested flow step.
        case flow
        /// A finish step.
        case finish
        /// The `"*"` step: handlers shared by every step.
        case anyStep
        /// Where a `back: true` returns to (whoever showed the step).
        case backMarker
        /// A target that names no step.
        case undefined
        /// A step outside a focused view that a step inside it connects to: named, small and grey.
        case boundary
        /// An off-page connector: where a long jump goes, drawn next to its source instead of across the picture.
        case connector
        /// A deep-link entry, labelled with its path, with an edge to its step.
        case entry
        /// A note: where a drawn run failed, and why.
        case failureNote

        /// The role of a step of `kind`.
        init(_ kind: StepKind) {
            switch kind {
            case .screen: self = .screen
            case .action: self = .action
            case .flow: self = .flow
            case .finish: self = .finish
            }
        }
    }

    /// How an edge moves through the history, which decides its line style.
    package enum Style: String, Sendable {
        /// A forward move (solid).
        case forward
        /// `back: X` or `back: true` (dashed).
        case back
        /// `restart` (dotted).
        case restart
        /// From an entry to its step, or from a note to what it is about (thin, grey).
        case annotation
    }

    /// A node.
    package struct Node: Sendable, Equatable {
        /// The generated id.
        package var id: String
        /// The text shown: the title and the step name, or the name alone.
        package var label: String
        /// The step's name, when the node is a step.
        package var step: String?
        /// What it stands for.
        package var role: Role
        /// Whether it is drawn as the flow's start step.
        package var isStart: Bool
        /// Whether it is highlighted (for example visited by a run).
        package var highlighted: Bool
        /// Where a drawn run stopped with an error, the error (shown as a tooltip and a note).
        package var failure: String? = nil
        /// Whether the node belongs to the legend (`--legend`), not to the flow.
        package var inLegend: Bool = false
        /// With coverage drawn: a step no run showed.
        package var neverShown: Bool = false
        /// In a picture of a change (`render --diff`): what the change did to the step.
        package var change: ChangeMark? = nil
        /// For an entry's note, the entry's name.
        var entry: String? = nil
        /// The findings about the step, drawn as a mark beside it (the HTML report).
        package var findings: FindingMark? = nil
        /// The name a node that is no step of the drawn flow stands for: a removed step's ghost in a picture of a
        /// change, a target that names no step.
        package var standsFor: String? = nil
    }

    /// The findings about a step or an option, drawn as `⚠ N` beside it, coloured by the worst severity.
    package struct FindingMark: Sendable, Equatable {
        /// How many findings.
        package var count: Int
        /// The worst of their severities.
        package var severity: Severity

        /// Creates a mark.
        package init(count: Int, severity: Severity) {
            self.count = count
            self.severity = severity
        }

        /// The mark's text: `⚠ 2`.
        package var label: String { "⚠ \(count)" }

        /// `findings` counted: nil when there are none.
        package init?(_ findings: [Diagnostic]) {
            guard let worst = findings.map(\.severity).min() else { return nil }
            self.init(count: findings.count, severity: worst)
        }
    }

    /// What a change did to a node or an edge, in a picture of the change (`render --diff`).
    package enum ChangeMark: String, Sendable, Equatable {
        /// Only in the new file (drawn green).
        case added
        /// Only in the old file, drawn where it was (a red dashed ghost).
        case removed
        /// In both, changed (drawn orange).
        case changed
        /// In both, the same (drawn grey).
        case unchanged
    }

    /// An edge between two nodes, by index into `nodes`.
    package struct Edge: Sendable, Equatable {
        /// The source node's index.
        package var from: Int
        /// The target node's index.
        package var to: Int
        /// The label (`on EVENT`, a condition), when there is one.
        package var label: String?
        /// The line style.
        package var style: Style
        /// Whether it is highlighted.
        package var highlighted: Bool
        /// The numbers of the run steps that took this edge, in order, for a drawn run.
        package var order: [Int]
        /// Whether the edge belongs to the legend.
        package var inLegend: Bool = false
        /// With coverage drawn: how many times runs took the option (0: never), nil when coverage is not drawn or
        /// the option cannot be taken. A `"*"` option adds up its takings at every step.
        package var hits: Int? = nil
        /// With coverage drawn, for a `"*"` option: at how many of the steps that use it runs took it.
        package var sharedSteps: SharedUse? = nil
        /// In a picture of a change: what the change did to the option.
        package var change: ChangeMark? = nil
        /// The option the edge draws (nil for edges that are no option: start, entries, notes).
        package internal(set) var option: FlowOption? = nil
        /// The findings about the option, drawn as a mark beside the edge (the HTML report).
        package var findings: FindingMark? = nil

        /// How many of the steps that use a `"*"` option took it.
        package struct SharedUse: Sendable, Equatable {
            /// The steps at which runs took it.
            package var taken: Int
            /// The steps that use it.
            package var total: Int
        }

        /// The coverage text of the edge's label: `×3`, `×1 at 1 of 6 steps`, `never taken`; nil without coverage.
        package var coverageLabel: String? {
            guard let hits else { return nil }
            guard hits > 0 else { return "never taken" }
            if let shared = sharedSteps, shared.taken < shared.total { return "×\(hits) at \(shared.taken) of \(shared.total) steps" }
            return "×\(hits)"
        }
    }

    /// The flow's title, or its name.
    package var title: String
    /// A line under the title: the coverage summary, when coverage is drawn.
    package var subtitle: String?
    /// The nodes.
    package var nodes: [Node]
    /// The edges, in flow order.
    package var edges: [Edge]
    /// The direction to lay the picture out in, `LR` or `TB` (docs/format.md, "Pictures").
    package var direction: String = "LR"

    /// The index of the node for step `name`.
    package func nodeIndex(step name: String) -> Int? { nodes.firstIndex { $0.step == name } }

    /// Self-loops drawn as one (docs/format.md, "Pictures"): for each self-loop, the index of the first loop of its
    /// step that looks alike (the same style, highlight, change and coverage), which is drawn with a line per
    /// option; a loop drawn on its own maps to itself.
    package func loopGroups() -> [Int: Int] {
        var firsts: [String: Int] = [:]
        var groups: [Int: Int] = [:]
        for (index, edge) in edges.enumerated() where edge.from == edge.to {
            let coverage = edge.hits.map { $0 == 0 ? "0" : (edge.sharedSteps.map { $0.taken < $0.total } ?? false) ? "p" : "+" } ?? "-"
            let key = "\(edge.from) \(edge.style) \(edge.highlighted) \(edge.change?.rawValue ?? "-") \(coverage)"
            if firsts[key] == nil { firsts[key] = index }
            groups[index] = firsts[key]
        }
        return groups
    }
}

/// How to build a diagram: a focused neighbourhood and what to highlight.
package struct DiagramOptions: Sendable {
    /// Only steps within `radius` moves (either direction) of this step, when set.
    package var focus: String?
    /// The radius of the focused view.
    package var radius: Int
    /// Steps to highlight.
    package var highlightedSteps: Set<String>
    /// Moves to highlight, as (from, to) step names (`"*"` for the `"*"` step), with the run order of each taking.
    package var highlightedMoves: [DiagramMove: [Int]]
    /// The entry a drawn run began at: that entry is highlighted instead of the start marker.
    package var startedAtEntry: String?
    /// Where a drawn run stopped with an error: the step (top-level name) and the error.
    package var failure: (step: String, message: String)?
    /// The direction, `LR` or `TB`; nil chooses by the flow's shape (`FlowDiagram.preferredDirection`).
    package var direction: String?
    /// Whether to add a key of the shapes and edge styles.
    package var legend: Bool = false
    /// The coverage to draw (`render --coverage`): hit counts on edges taken, red dashed edges never taken, steps
    /// never shown outlined in red, and a summary under the title.
    package var coverage: FileCoverage?
    /// Only steps within `radius` moves of any of these, when not empty (a picture of a change's neighbourhood).
    var focusSteps: Set<String> = []
    /// Loads nested flows, so that an entry into a nested flow says at which of its steps it lands; without one
    /// (or when the nested flow does not load) the note names the nested flow's entry instead.
    package var resolver: (any FlowResolver)?

    /// Options that draw a run on the diagram: the steps it showed and the edges it took, numbered in run order.
    /// Each completion is matched to the edge it took: the step's own handler or `next`, else the `"*"` one; a
    /// completion inside a nested flow highlights its flow step, and moves inside it draw nothing at this level.
    package static func highlighting(run completions: [TraceEntry], path: [String], in flow: Flow) -> DiagramOptions {
        func top(_ name: String) -> String { String(name.split(separator: "/", maxSplits: 1).first ?? Substring(name)) }
        var moves: [DiagramMove: [Int]] = [:]
        for (index, completion) in completions.enumerated() {
            let from = top(completion.step)
            let to = top(completion.to)
            if completion.step.contains("/") && from == to { continue }
            if completion.step.contains("/") && completion.to.contains("/") && from != to { continue }
            let step = flow.step(named: from)
            let own: Bool
            if let event = completion.event {
                own = step?.handler(for: event) != nil || flow.anyStep?.handler(for: event) == nil
            } else {
                own = step?.next != nil || flow.anyStep?.next == nil
            }
            let target = completion.move == .backOne ? "back" : to
            moves[DiagramMove(from: own ? from : "*", to: target), default: []].append(index + 1)
        }
        return DiagramOptions(highlightedSteps: Set(path.map(top)), highlightedMoves: moves)
    }

    /// Creates options; by default the whole flow, nothing highlighted.
    package init(focus: String? = nil, radius: Int = 2, highlightedSteps: Set<String> = [], highlightedMoves: [DiagramMove: [Int]] = [:]) {
        self.focus = focus
        self.radius = radius
        self.highlightedSteps = highlightedSteps
        self.highlightedMoves = highlightedMoves
    }
}

/// A move between two steps, for highlighting.
package struct DiagramMove: Hashable, Sendable {
    /// The step the move starts at.
    package var from: String
    /// The step it goes to.
    package var to: String

    /// Creates a move.
    package init(from: String, to: String) {
        self.from = from
        self.to = to
    }
}

/// Errors in building a diagram.
package enum DiagramError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `--focus` names no step.
    case unknownFocus(String, suggestion: String?)

    package var description: String {
        switch self {
        case .unknownFocus(let name, let suggestion):
            let message: Message = "step '\(name: name)' is not in the flow"
            return (message + (suggestion.map { "; did you mean '\(name: $0)'?" } ?? "")).text
        }
    }
}

extension FlowDiagram {
    /// The note of an entry: its name, its path, and for an entry into a nested flow where it lands (`→ signIn/reset`
    /// when the nested flow loads, else `→ signIn, entry 'reset'`).
    static func entryLabel(_ entry: Entry, in flow: Flow, resolver: (any FlowResolver)?) -> String {
        var label = entry.name.text + "\n" + entry.path
        if let nested = entry.nestedEntry {
            let step = flow.step(named: entry.step.text)
            let landing = step?.flowPath.flatMap { reference in try? resolver?.resolve(reference, from: flow.file) }
                .flatMap { child in child.flow.entries.first { $0.name.text == nested.text } }
            label += "\n→ " + entry.step.text + (landing.map { "/" + $0.step.text } ?? ", entry '\(nested.text)'")
        }
        return label
    }

    /// Builds the diagram of `flow`.
    package init(flow: Flow, options: DiagramOptions = DiagramOptions()) throws {
        let graph = FlowGraph(flow: flow)
        let coverage = options.coverage.map(CoverageIndex.init)
        var included = [Bool](repeating: true, count: flow.steps.count)
        if let focus = options.focus {
            guard let center = graph.ids[focus] else {
                throw DiagramError.unknownFocus(focus, suggestion: Suggestions.closest(to: focus, in: graph.names))
            }
            included = Self.neighbourhood(of: Int(center), radius: max(0, options.radius), flow: flow, graph: graph)
        } else if !options.focusSteps.isEmpty {
            let centers = options.focusSteps.compactMap { graph.ids[$0].map(Int.init) }
            included = Self.neighbourhood(of: centers, radius: max(0, options.radius), flow: flow, graph: graph)
        }
        let runStartedAtStart = !options.highlightedSteps.isEmpty && options.startedAtEntry == nil
        var nodes: [Node] = [Node(id: "start", label: "", step: nil, role: .initial, isStart: false, highlighted: runStartedAtStart)]
        var stepNode = [Int](repeating: -1, count: flow.steps.count)
        for (id, step) in flow.steps.enumerated() where included[id] {
            stepNode[id] = nodes.count
            let role = Role(step.kind)
            var name = step.name.text
            // A finish step shows the outcome it ends the flow with, when that is not its own name.
            if step.kind == .finish, let outcome = step.outcome?.text, outcome != name { name += " → \(outcome)" }
            let label = step.title.map { "\($0)\n\(name)" } ?? name
            nodes.append(Node(id: "n\(id)", label: label, step: step.name.text, role: role,
                              isStart: graph.startID == Int32(id), highlighted: options.highlightedSteps.contains(step.name.text),
                              neverShown: coverage?.neverShown.contains(step.name.text) ?? false))
        }
        var edges: [Edge] = []
        var undefinedNodes: [String: Int] = [:]
        var backMarkers: [Int: Int] = [:]
        var boundaryNodes: [Int: Int] = [:]
        func node(forStep name: String) -> Int {
            if let id = graph.ids[name] {
                if stepNode[Int(id)] >= 0 { return stepNode[Int(id)] }
                // A step outside the focused view: one small grey node per step, named, so one sees where edges go.
                if let existing = boundaryNodes[Int(id)] { return existing }
                boundaryNodes[Int(id)] = nodes.count
                nodes.append(Node(id: "o\(id)", label: name, step: nil, role: .boundary, isStart: false, highlighted: false))
                return nodes.count - 1
            }
            if let existing = undefinedNodes[name] { return existing }
            undefinedNodes[name] = nodes.count
            nodes.append(Node(id: "u\(undefinedNodes.count - 1)", label: "\(name)?", step: nil, role: .undefined, isStart: false, highlighted: false,
                              standsFor: name))
            return nodes.count - 1
        }
        if let startID = graph.startID, stepNode[Int(startID)] >= 0 {
            let highlighted = runStartedAtStart && options.highlightedSteps.contains(flow.start.text)
            edges.append(Edge(from: 0, to: stepNode[Int(startID)], label: nil, style: .forward, highlighted: highlighted, order: []))
        } else {
            nodes.removeFirst()
            stepNode = stepNode.map { $0 >= 0 ? $0 - 1 : $0 }
        }
        // Deep-link entries: a small note with the entry's name and path (and, into a nested flow, where it lands),
        // pointing at its step.
        for (index, entry) in flow.entries.enumerated() {
            guard let id = graph.ids[entry.step.text], stepNode[Int(id)] >= 0 else { continue }
            let highlighted = options.startedAtEntry == entry.name.text
            nodes.append(Node(id: "e\(index)", label: Self.entryLabel(entry, in: flow, resolver: options.resolver), step: nil, role: .entry,
                              isStart: false, highlighted: highlighted, entry: entry.name.text))
            edges.append(Edge(from: nodes.count - 1, to: stepNode[Int(id)], label: nil, style: .annotation, highlighted: highlighted, order: []))
        }
        let anyIndex: Int?
        if let anyStep = flow.anyStep, anyStep.hasTransitions {
            anyIndex = nodes.count
            nodes.append(Node(id: "any", label: "*", step: "*", role: .anyStep, isStart: false, highlighted: false))
        } else {
            anyIndex = nil
        }
        func addEdges(from source: Int, step: Step) {
            func add(_ targets: [Target], event: String?) {
                for (index, target) in targets.enumerated() {
                    var parts: [String] = []
                    if let event { parts.append("on \(event)") }
                    if let condition = target.condition { parts.append("if \(Self.short(condition.text))") }
                    if targets.count > 1, target.condition == nil, index > 0 { parts.append("otherwise") }
                    let to: Int
                    let style: Style
                    switch target.move {
                    case .forward(let name):
                        to = node(forStep: name.text)
                        style = .forward
                    case .back(let name):
                        to = node(forStep: name.text)
                        style = .back
                    case .backOne:
                        if let existing = backMarkers[source] {
                            to = existing
                        } else {
                            to = nodes.count
                            backMarkers[source] = to
                            nodes.append(Node(id: "b\(nodes.count)", label: "back", step: nil, role: .backMarker, isStart: false, highlighted: false))
                        }
                        style = .back
                        if parts.isEmpty { parts.append("back") }
                    case .restart:
                        to = node(forStep: flow.start.text)
                        style = .restart
                        parts.append("restart")
                    }
                    let fromName = step.name.text
                    let toName = target.move == .backOne ? "back" : (nodes[to].step ?? "")
                    let order = options.highlightedMoves[DiagramMove(from: fromName, to: toName)] ?? []
                    // The event and the condition on lines of their own, so that labels stay narrow.
                    var edge = Edge(from: source, to: to, label: parts.isEmpty ? nil : parts.joined(separator: "\n"),
                                    style: style, highlighted: !order.isEmpty, order: order)
                    let option = FlowOption(step: step.name.text, list: event.map { .on($0) } ?? .next, index: index)
                    edge.option = option
                    if let coverage {
                        let at = option
                        if step.name.text == "*" {
                            let uses = coverage.shared[at]
                            edge.hits = uses?.hits
                            if let uses { edge.sharedSteps = Edge.SharedUse(taken: uses.taken, total: uses.total) }
                        } else {
                            edge.hits = coverage.own[at]
                        }
                    }
                    edges.append(edge)
                }
            }
            for handler in step.on { add(handler.targets, event: handler.event.text) }
            if let next = step.next { add(next, event: nil) }
        }
        if let anyIndex, let anyStep = flow.anyStep { addEdges(from: anyIndex, step: anyStep) }
        for (id, step) in flow.steps.enumerated() where included[id] {
            addEdges(from: stepNode[id], step: step)
        }
        // Where a drawn run failed: the step is marked, and a note says why.
        if let failure = options.failure, let id = graph.ids[failure.step], stepNode[Int(id)] >= 0 {
            let index = stepNode[Int(id)]
            nodes[index].failure = failure.message
            nodes.append(Node(id: "failure", label: "✗ the run failed here:\n" + Self.short(failure.message, limit: 60), step: nil,
                              role: .failureNote, isStart: false, highlighted: false, failure: failure.message))
            edges.append(Edge(from: nodes.count - 1, to: index, label: nil, style: .annotation, highlighted: false, order: []))
        }
        self.init(title: flow.title ?? flow.name.text, nodes: nodes, edges: edges)
        subtitle = options.coverage.map(Self.coverageSummary)
        direction = options.direction ?? preferredDirection()
        if options.legend { addLegend() }
    }

    /// A file's coverage indexed once for drawing, so that a picture of a large flow costs time in proportion to
    /// its steps and items, not their product.
    struct CoverageIndex {
        /// A `"*"` option's takings over the steps that use it.
        struct SharedUse {
            var hits = 0
            var taken = 0
            var total = 0
        }

        /// The steps no run showed.
        var neverShown: Set<String> = []
        /// The hits of each coverable option of a step's own handlers and `next`.
        var own: [FlowOption: Int] = [:]
        /// The takings of each coverable `"*"` option (step `*`) over the steps that use it.
        var shared: [FlowOption: SharedUse] = [:]

        init(_ coverage: FileCoverage) {
            for item in coverage.items {
                switch item.identity {
                case .step(let name):
                    if item.hits == 0 { neverShown.insert(name) }
                case .transition(let step, let list, let index, let viaStar) where item.coverable:
                    let at = FlowOption(step: viaStar ? "*" : step, list: list, index: index)
                    if viaStar {
                        shared[at, default: SharedUse()].hits += item.hits
                        shared[at, default: SharedUse()].total += 1
                        if item.hits > 0 { shared[at, default: SharedUse()].taken += 1 }
                    } else {
                        own[at, default: 0] += item.hits
                    }
                default:
                    break
                }
            }
        }
    }

    /// The line under a coverage picture's title: each kind covered of total, with the transitions' percentage.
    static func coverageSummary(_ coverage: FileCoverage) -> String {
        var parts: [String] = []
        for kind in CoverageItem.Kind.allCases {
            let (covered, total) = coverage.count(kind)
            guard total > 0 else { continue }
            parts.append("\(kind.plural) \(covered)/\(total)" + (kind == .transition ? " (\(CoverageTextReporter.percent(coverage.percent(kind))))" : ""))
        }
        return "coverage: " + parts.joined(separator: ", ")
    }

    /// The most a picture may be wider than high, as laid out in the direction flowkit chooses (docs/format.md,
    /// "Pictures"), so that a pull request can show it at full size.
    package static let maxAspectRatio = 2.5

    /// `LR` unless a left-to-right picture would be more than `maxAspectRatio` times as wide as high; then `TB`.
    /// The size is estimated from the layered layout every renderer makes (the longest path from the roots, with
    /// the back edges of a depth-first search set aside): along the direction, each layer is as deep as its widest
    /// node plus the gap to the next, which an edge label widens; across it, the fullest layer's nodes and gaps.
    package func preferredDirection() -> String {
        var layer = layers()
        // Nodes only pointing at others (entries, `"*"`) sit beside what they point at, not all in the first layer.
        var incoming = [Bool](repeating: false, count: nodes.count)
        for edge in edges { incoming[edge.to] = true }
        for edge in edges where !incoming[edge.from] && nodes[edge.from].role != .initial {
            layer[edge.from] = max(0, layer[edge.to] - 1)
        }
        guard let deepest = layer.max() else { return "LR" }
        // Points at the renderers' font sizes: about 6.6 per character of an 11-point label, 5 of a 9-point one.
        var along = [Double](repeating: 0, count: deepest + 1)
        var across = [Double](repeating: 0, count: deepest + 1)
        var gap = [Double](repeating: 40, count: deepest + 1)
        for (index, node) in nodes.enumerated() where !node.inLegend {
            let lines = node.label.split(separator: "\n")
            let width = Double(lines.map(\.count).max() ?? 1) * 6.6 + 24
            let height = Double(max(lines.count, 1)) * 14 + 16
            along[layer[index]] = max(along[layer[index]], width)
            across[layer[index]] += height + 25
        }
        for edge in edges where !edge.inLegend {
            let label = Double(edge.label?.split(separator: "\n").map(\.count).max() ?? 0) * 5 + 40
            let from = min(layer[edge.from], layer[edge.to])
            gap[from] = max(gap[from], label)
        }
        let width = along.reduce(0, +) + gap.dropLast().reduce(0, +)
        let height = across.max() ?? 1
        return width > Self.maxAspectRatio * height ? "TB" : "LR"
    }

    /// The key of shapes and edge styles (`--legend`), added as nodes and edges of their own.
    mutating func addLegend() {
        let first = nodes.count
        let samples: [(String, Role)] = [("screen", .screen), ("action", .action), ("nested flow", .flow), ("finish", .finish), ("/deep/link", .entry)]
        for (index, sample) in samples.enumerated() {
            nodes.append(Node(id: "k\(index)", label: sample.0, step: nil, role: sample.1, isStart: false, highlighted: false, inLegend: true))
        }
        let moves: [(Int, Int, String?, Style)] = [
            (4, 0, "entry", .annotation), (0, 1, "on event / next", .forward), (1, 0, "back", .back), (1, 2, "restart", .restart), (2, 3, nil, .forward),
        ]
        for (from, to, label, style) in moves {
            edges.append(Edge(from: first + from, to: first + to, label: label, style: style, highlighted: false, order: [], inLegend: true))
        }
    }

    /// Each node's layer in a layered layout: the longest path from the nodes with no incoming edge, after the
    /// back edges of a depth-first search from every node in order are set aside.
    func layers() -> [Int] {
        let n = nodes.count
        guard n > 0 else { return [] }
        var outgoing = [[Int]](repeating: [], count: n)
        for (index, edge) in edges.enumerated() { outgoing[edge.from].append(index) }
        var state = [UInt8](repeating: 0, count: n)
        var isBackEdge = [Bool](repeating: false, count: edges.count)
        var postorder: [Int] = []
        for root in 0..<n where state[root] == 0 {
            var stack: [(node: Int, next: Int)] = [(root, 0)]
            state[root] = 1
            while let (node, next) = stack.last {
                if next < outgoing[node].count {
                    stack[stack.count - 1].next += 1
                    let edgeIndex = outgoing[node][next]
                    let target = edges[edgeIndex].to
                    if state[target] == 1 {
                        isBackEdge[edgeIndex] = true
                    } else if state[target] == 0 {
                        state[target] = 1
                        stack.append((target, 0))
                    }
                } else {
                    state[node] = 2
                    postorder.append(node)
                    stack.removeLast()
                }
            }
        }
        var layer = [Int](repeating: 0, count: n)
        for node in postorder.reversed() {
            for edgeIndex in outgoing[node] where !isBackEdge[edgeIndex] {
                let target = edges[edgeIndex].to
                layer[target] = max(layer[target], layer[node] + 1)
            }
        }
        return layer
    }

    /// Steps within `radius` moves of `center`, following moves in either direction.
    static func neighbourhood(of center: Int, radius: Int, flow: Flow, graph: FlowGraph) -> [Bool] {
        neighbourhood(of: [center], radius: radius, flow: flow, graph: graph)
    }

    /// Steps within `radius` moves of any of `centers`, following moves in either direction.
    static func neighbourhood(of centers: [Int], radius: Int, flow: Flow, graph: FlowGraph) -> [Bool] {
        let n = flow.steps.count
        var neighbours = [[Int]](repeating: [], count: n)
        func link(_ a: Int, _ b: Int) {
            neighbours[a].append(b)
            neighbours[b].append(a)
        }
        for id in 0..<n {
            for move in graph.ownMoves[id] {
                switch move {
                case .forward(let t), .back(let t): link(id, Int(t))
                case .restart: if let s = graph.startID { link(id, Int(s)) }
                case .backOne, .undefined, .suggested: break
                }
            }
        }
        var distance = [Int](repeating: -1, count: n)
        var queue: [Int] = []
        for center in centers where distance[center] < 0 {
            distance[center] = 0
            queue.append(center)
        }
        var head = 0
        while head < queue.count {
            let v = queue[head]
            head += 1
            guard distance[v] < radius else { continue }
            for w in neighbours[v] where distance[w] < 0 {
                distance[w] = distance[v] + 1
                queue.append(w)
            }
        }
        return distance.map { $0 >= 0 }
    }

    /// The diagram with every edge that spans more than `maxSpan` layers redirected to a connector node naming
    /// its target. Long jumps in large flows otherwise become chains of thousands of virtual nodes in a layered
    /// layout; a connector keeps the picture readable and the layout fast. Layers are the longest-path layering
    /// from the first node after depth-first back edges are set aside, as a layered layout ranks them.
    package func breakingLongEdges(maxSpan: Int) -> FlowDiagram {
        guard !nodes.isEmpty else { return self }
        let layer = layers()
        var result = self
        for (index, edge) in edges.enumerated() where abs(layer[edge.to] - layer[edge.from]) > maxSpan {
            let target = nodes[edge.to]
            let name = target.step ?? target.label
            result.nodes.append(Node(id: "c\(index)", label: "to \(name)", step: nil, role: .connector, isStart: false,
                                     highlighted: edge.highlighted))
            result.edges[index].to = result.nodes.count - 1
        }
        return result
    }

    /// Text (an expression, an error) cut to a length that fits on an edge or a note.
    static func short(_ text: String, limit: Int = 40) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
