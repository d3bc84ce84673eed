/// The did-you-mean answers for the step names a flow uses but does not define, worked out once per flow so that
/// every rule agrees: `undefined_step` shows them, and the graph rules take a forward target or an entry with a
/// suggestion to reach the suggested step, so that one typo gives one finding (see "Lint graph semantics" in
/// docs/format.md).
package struct StepSuggestions: Sendable {
    /// The suggested step for each undefined name that has one.
    package let byName: [String: String]

    /// No suggestions: what a flow that defines every step it names has.
    static let none = StepSuggestions(byName: [:])

    private init(byName: [String: String]) {
        self.byName = byName
    }

    /// The suggestions for the undefined names of `flow`: its start, its entries' steps, and the targets of `"*"`
    /// and of every step, asked in that order of one `SuggestionIndex` over the step names.
    package init(flow: Flow) {
        var defined = Set<String>()
        for step in flow.steps { defined.insert(step.name.text) }
        var index: SuggestionIndex?
        var byName: [String: String] = [:]
        var asked = Set<String>()
        func ask(_ name: Name) {
            guard !defined.contains(name.text), asked.insert(name.text).inserted else { return }
            if index == nil { index = SuggestionIndex(flow.steps.map(\.name.text)) }
            if let suggestion = index!.closest(to: name.text) { byName[name.text] = suggestion }
        }
        ask(flow.start)
        for entry in flow.entries { ask(entry.step) }
        for step in flow.anyStepThenSteps {
            for handler in step.on {
                for target in handler.targets { if let name = target.stepName { ask(name) } }
            }
            for target in step.next ?? [] { if let name = target.stepName { ask(name) } }
        }
        self.byName = byName
    }

    /// The step suggested for the undefined name `name`.
    package func suggestion(for name: String) -> String? { byName[name] }

    /// `flow` as the reachability rules see it: every forward target and entry step that names no step but has a
    /// suggestion names the suggested step instead (positions kept). `start` and back targets are left as written.
    package func repaired(_ flow: Flow) -> Flow {
        guard !byName.isEmpty else { return flow }
        func repair(_ targets: [Target]) -> [Target]? {
            var changed = false
            let repaired = targets.map { target -> Target in
                guard case .forward(let name) = target.move, let suggestion = byName[name.text] else { return target }
                changed = true
                var copy = target
                copy.move = .forward(Name(suggestion, at: name.position))
                return copy
            }
            return changed ? repaired : nil
        }
        func repair(_ step: inout Step) {
            for index in step.on.indices {
                if let targets = repair(step.on[index].targets) { step.on[index].targets = targets }
            }
            if let next = step.next, let targets = repair(next) { step.next = targets }
        }
        var flow = flow
        for index in flow.entries.indices {
            if let suggestion = byName[flow.entries[index].step.text] {
                flow.entries[index].step = Name(suggestion, at: flow.entries[index].step.position)
            }
        }
        if flow.anyStep != nil { repair(&flow.anyStep!) }
        for index in flow.steps.indices { repair(&flow.steps[index]) }
        return flow
    }
}

/// The flow as integer graphs: step names interned to ids once (file order), transitions resolved, and the
/// answers of the lint graph semantics (reachability, detours, closed groups) computed in near-linear time.
///
/// Handlers of `"*"` apply to every step that does not override them. Rather than one edge per step and handler,
/// each `"*"` handler is a leaf of a segment tree of virtual nodes, and a step links to the few tree nodes that
/// cover the handlers it does not override; the same trick gives "every step that forwards here" for back moves.
package struct FlowGraph: Sendable {
    /// A resolved move of one target.
    package enum Move: Hashable, Sendable {
        case forward(Int32)
        case back(Int32)
        case backOne
        case restart
        /// A forward or back move to a step that does not exist.
        case undefined
        /// A forward move to a step that does not exist, whose name suggests the given step: reachability follows
        /// it to that step, while for dead ends and closed groups it is a way out, like `undefined`.
        case suggested(Int32)
    }

    /// Step names by id; ids follow file order.
    package let names: [String]
    /// Ids by step name.
    package let ids: [String: Int32]
    /// The id of `start`, nil when it names no step.
    package let startID: Int32?
    /// Whether each step is a finish step.
    package let isFinish: [Bool]
    /// Each step's own moves (from `on` and `next`), in file order.
    package let ownMoves: [[Move]]
    /// The moves of each `"*"` handler slot: its `on` handlers in order, then its `next`.
    package let slotMoves: [[Move]]
    /// Whether each step is reachable from `start` or an entry by forward and restart moves (not by the moves of
    /// options never taken).
    package let reachable: [Bool]
    /// Whether each step would be reachable were the options never taken followed too (`reachable` itself when
    /// no option is never taken).
    package let reachableByAnyOption: [Bool]
    /// Whether each step is a detour: every exit is `back: true` or leads to detours.
    package let isDetour: [Bool]
    /// Reachable non-finish steps with no transition at all, own or from `"*"`.
    package let deadEnds: [Int32]
    /// Closed groups of reachable steps with no way to a finish step, each in file order, ordered by first step.
    package let closedGroups: [[Int32]]
    /// Start or entry steps whose only exits are `back: true`: a run that starts there has nothing to go back to.
    package let goesOnlyBack: [Bool]

    /// The did-you-mean answers for the names the flow uses but does not define.
    package let suggestions: StepSuggestions

    /// Builds the graph of `flow` and runs the analyses, one pass each; `suggestions` (worked out from `flow` when
    /// not given, and then only if it names a step it does not have) decide where a forward target or an entry that
    /// names no step leads for reachability.
    /// `neverTaken`: the options no run takes, whose moves reachability does not follow (docs/format.md, "Options
    /// never taken"); the other passes count them as written.
    init(flow: Flow, suggestions given: StepSuggestions? = nil, neverTaken: NeverTaken) {
        self.init(flow: flow, suggestions: given, dead: neverTaken)
    }

    package init(flow: Flow, suggestions given: StepSuggestions? = nil) {
        self.init(flow: flow, suggestions: given, dead: .none)
    }

    private init(flow: Flow, suggestions given: StepSuggestions?, dead: NeverTaken) {
        var resolved = Resolved(flow: flow, suggestions: given)
        let layout = Layout(resolved)
        let reach = Self.reachability(layout, entries: flow.entries, resolved: &resolved, neverTaken: dead)
        let detours = Self.detours(layout, reach: reach)
        let escapes = Self.escapes(layout, reach: reach, detours: detours, steps: flow.steps, anyStep: flow.anyStep)

        self.names = flow.steps.map(\.name.text)
        self.ids = resolved.ids
        self.startID = resolved.startID
        self.isFinish = resolved.isFinish
        self.ownMoves = resolved.ownMoves
        self.slotMoves = resolved.slotMoves
        self.reachable = reach.reachable
        self.reachableByAnyOption = reach.reachableByAnyOption
        self.isDetour = detours.isDetour
        self.deadEnds = escapes.deadEnds
        self.closedGroups = escapes.closedGroups
        self.goesOnlyBack = escapes.goesOnlyBack
        self.suggestions = resolved.suggestions ?? (resolved.namesUndefined ? StepSuggestions(flow: flow) : .none)
    }

    // MARK: Pass 1: names to ids, targets to moves

    /// Step ids by name, each target list's moves resolved to ids, and which `"*"` slots each step overrides.
    struct Resolved {
        let flow: Flow
        var ids: [String: Int32] = [:]
        var startID: Int32?
        var isFinish: [Bool] = []
        var ownMoves: [[Move]] = []
        var slotMoves: [[Move]] = []
        /// The `"*"` slots each step overrides with a handler (or `next`) of its own, sorted.
        var overridden: [[Int]] = []
        /// The suggestions, worked out only once a name is undefined: a flow that defines every step it names
        /// (start, entries, targets) has none, and then building their index over all the names would be wasted.
        var suggestions: StepSuggestions?
        /// Whether a name the flow uses is no step's.
        var namesUndefined = false

        init(flow: Flow, suggestions given: StepSuggestions?) {
            self.flow = flow
            suggestions = given
            let steps = flow.steps
            ids.reserveCapacity(steps.count)
            for (id, step) in steps.enumerated() where ids[step.name.text] == nil {
                ids[step.name.text] = Int32(id)
            }
            startID = ids[flow.start.text]
            namesUndefined = startID == nil || flow.entries.contains { ids[$0.step.text] == nil }
            let anyStep = flow.anyStep
            slotMoves = (anyStep?.on ?? []).map { $0.targets.map { resolve($0.move) } }
            var slotByEvent: [String: Int] = [:]
            for (slot, handler) in (anyStep?.on ?? []).enumerated() where slotByEvent[handler.event.text] == nil {
                slotByEvent[handler.event.text] = slot
            }
            var nextSlot: Int?
            if let next = anyStep?.next {
                nextSlot = slotMoves.count
                slotMoves.append(next.map { resolve($0.move) })
            }
            ownMoves.reserveCapacity(steps.count)
            overridden.reserveCapacity(steps.count)
            for id in steps.indices {
                var moves: [Move] = []
                // Moves are read in place (`targets[index].move`), not copied out with their target: every copy
                // would retain what the lists share.
                StepGraph.forEachTargetList(of: steps[id]) { _, targets in
                    for index in targets.indices { moves.append(resolve(targets[index].move)) }
                }
                ownMoves.append(moves)
                var skipped: [Int] = steps[id].on.compactMap { slotByEvent[$0.event.text] }
                if steps[id].next != nil, let nextSlot { skipped.append(nextSlot) }
                if skipped.count > 1 { skipped = Array(Set(skipped)).sorted() }
                overridden.append(skipped)
            }
            isFinish = steps.map { $0.kind == .finish }
        }

        /// The step suggested for the undefined `name`, working the suggestions out the first time.
        mutating func suggestion(for name: String) -> String? {
            if suggestions == nil { suggestions = StepSuggestions(flow: flow) }
            return suggestions?.suggestion(for: name)
        }

        mutating func resolve(_ move: Target.Move) -> Move {
            switch move {
            case .forward(let name):
                if let id = ids[name.text] { return .forward(id) }
                namesUndefined = true
                return suggestion(for: name.text).flatMap { ids[$0] }.map(Move.suggested) ?? .undefined
            case .back(let name):
                if let id = ids[name.text] { return .back(id) }
                namesUndefined = true
                return .undefined
            case .backOne: return .backOne
            case .restart: return .restart
            }
        }
    }

    /// The nodes the passes share: the steps, then the `"*"` slot tree's virtual nodes, each step linked to the few
    /// tree nodes that cover the slots it does not override.
    struct Layout {
        let n: Int
        let startID: Int32?
        let isFinish: [Bool]
        let ownMoves: [[Move]]
        let slotMoves: [[Move]]
        let overridden: [[Int]]
        let slotTree: SegmentCover
        /// The slot-tree nodes each step inherits `"*"` handlers through (none for a finish step).
        let slotCover: [[Int32]]
        /// One past the last virtual node.
        let virtualEnd: Int

        var slotCount: Int { slotMoves.count }

        init(_ resolved: Resolved) {
            n = resolved.ownMoves.count
            (startID, isFinish, ownMoves, slotMoves, overridden) = (resolved.startID, resolved.isFinish, resolved.ownMoves, resolved.slotMoves, resolved.overridden)
            let slotCount = resolved.slotMoves.count
            slotTree = SegmentCover(count: slotCount, base: Int32(n))
            slotCover = (0..<n).map { [slotTree, isFinish, overridden] id in
                isFinish[id] || slotCount == 0 ? [] : slotTree.coverAll(except: overridden[id])
            }
            virtualEnd = n + slotTree.nodeSpan
        }
    }

    // MARK: Pass 2: reachability by forward and restart moves

    struct Reach {
        /// The forward graph over steps and slot-tree nodes.
        let forwardGraph: Digraph
        /// Where runs start: `start` and the entries' steps.
        let sources: [Int]
        let reachable: [Bool]
        /// Reachable steps that are not finish steps.
        let member: [Bool]
        /// Reachability with the moves of options never taken followed too.
        let reachableByAnyOption: [Bool]
    }

    static func reachability(_ layout: Layout, entries: [Entry], resolved: inout Resolved, neverTaken: NeverTaken) -> Reach {
        let n = layout.n
        var forwardEdges: [(Int32, Int32)] = []
        // At most one edge a move and a cover node, and the slot tree's own: reserved, so that a large flow's list
        // is not copied (and its old buffers left free) each time it doubles.
        var edgeBound = 2 * layout.slotTree.size
        for moves in layout.slotMoves { edgeBound += moves.count }
        for id in 0..<n where !layout.isFinish[id] { edgeBound += layout.ownMoves[id].count + layout.slotCover[id].count }
        forwardEdges.reserveCapacity(edgeBound)
        layout.slotTree.internalEdges(into: &forwardEdges)
        // The edges of options never taken, by their place in `forwardEdges`: left out of reachability.
        var deadEdges: [Int] = []
        // `options`: the option of each move (empty when no option is never taken).
        func addForward(from node: Int32, _ moves: [Move], options: [NeverTaken.Option]) {
            for (index, move) in moves.enumerated() {
                let count = forwardEdges.count
                switch move {
                case .forward(let target), .suggested(let target): forwardEdges.append((node, target))
                case .restart: if let startID = layout.startID { forwardEdges.append((node, startID)) }
                default: break
                }
                if forwardEdges.count > count, index < options.count, neverTaken.reason(options[index]) != nil { deadEdges.append(count) }
            }
        }
        let steps = resolved.flow.steps
        for id in 0..<n where !layout.isFinish[id] {
            // The moves are the options in the order `StepGraph.forEachTargetList` lists them.
            var options: [NeverTaken.Option] = []
            if !neverTaken.isEmpty {
                StepGraph.forEachTargetList(of: steps[id]) { list, targets in
                    for index in targets.indices { options.append(NeverTaken.Option(step: id, list: list, option: index)) }
                }
            }
            addForward(from: Int32(id), layout.ownMoves[id], options: options)
            for node in layout.slotCover[id] { forwardEdges.append((Int32(id), node)) }
        }
        // The slots are `"*"`'s lists in order (its handlers, then its `next`): a slot's index is its list's.
        for slot in 0..<layout.slotCount {
            let options = neverTaken.isEmpty ? [] : layout.slotMoves[slot].indices.map { NeverTaken.Option(step: nil, list: slot, option: $0) }
            addForward(from: layout.slotTree.leaf(slot), layout.slotMoves[slot], options: options)
        }
        let forwardGraph = Digraph(nodeCount: layout.virtualEnd, edges: forwardEdges)
        var sources: [Int] = layout.startID.map { [Int($0)] } ?? []
        if layout.startID != nil {
            for entry in entries {
                if let id = resolved.ids[entry.step.text] ?? resolved.suggestion(for: entry.step.text).flatMap({ resolved.ids[$0] }) { sources.append(Int(id)) }
            }
        }
        let reachAll = forwardGraph.reach(from: sources)
        let reachableByAnyOption = Array(reachAll[0..<n])
        var reachable = reachableByAnyOption
        if !deadEdges.isEmpty {
            var isDead = [Bool](repeating: false, count: forwardEdges.count)
            for index in deadEdges { isDead[index] = true }
            let live = forwardEdges.indices.filter { !isDead[$0] }.map { forwardEdges[$0] }
            reachable = Array(Digraph(nodeCount: layout.virtualEnd, edges: live).reach(from: sources)[0..<n])
        }
        return Reach(forwardGraph: forwardGraph, sources: sources, reachable: reachable, member: (0..<n).map { reachable[$0] && !layout.isFinish[$0] },
                     reachableByAnyOption: reachableByAnyOption)
    }

    // MARK: Pass 3: detours

    struct Detours {
        /// Whether each node (steps and slot-tree nodes) is a detour.
        let detourAll: [Bool]
        /// Whether each step is a detour.
        let isDetour: [Bool]
        /// Whether a slot-tree node's handlers include `back: true`, or another move, somewhere below it.
        let subtreeBackOne: [Bool]
        let subtreeOther: [Bool]
    }

    /// Detours: the greatest set of steps that have a `back: true` exit (own or from "*") and whose other exits
    /// lead into the set. A detour pops itself and so returns to whoever showed it; a step without `back: true`
    /// can never return (an exit into a detour comes back to it), so it is no detour even if it only leads to
    /// detours: a loop of steps whose one way out is the "*" alert is still a loop with no way out.
    static func detours(_ layout: Layout, reach: Reach) -> Detours {
        let (n, slotTree, slotCount) = (layout.n, layout.slotTree, layout.slotCount)
        var subtreeBackOne = [Bool](repeating: false, count: slotTree.nodeSpan)
        var subtreeOther = [Bool](repeating: false, count: slotTree.nodeSpan)
        for position in 0..<slotCount {
            subtreeBackOne[slotTree.size + position] = layout.slotMoves[position].contains(.backOne)
            subtreeOther[slotTree.size + position] = layout.slotMoves[position].contains { $0 != .backOne }
        }
        if slotTree.size > 1 {
            for treeIndex in stride(from: slotTree.size - 1, through: 1, by: -1) {
                subtreeBackOne[treeIndex] = subtreeBackOne[2 * treeIndex] || subtreeBackOne[2 * treeIndex + 1]
                subtreeOther[treeIndex] = subtreeOther[2 * treeIndex] || subtreeOther[2 * treeIndex + 1]
            }
        }
        var bad = [Bool](repeating: false, count: layout.virtualEnd)
        var backOne = [Bool](repeating: false, count: layout.virtualEnd)
        func classify(_ node: Int, _ moves: [Move]) {
            for move in moves {
                switch move {
                case .forward: break
                case .backOne: backOne[node] = true
                case .back, .restart, .undefined, .suggested: bad[node] = true
                }
            }
        }
        for id in 0..<n {
            if !reach.member[id] {
                bad[id] = true
                continue
            }
            classify(id, layout.ownMoves[id])
            if layout.ownMoves[id].isEmpty && layout.slotCover[id].isEmpty { bad[id] = true }
        }
        // A step the run starts at was shown by nobody, so it has nobody to return to: never a detour.
        for source in reach.sources { bad[source] = true }
        for slot in 0..<slotCount { classify(Int(slotTree.leaf(slot)), layout.slotMoves[slot]) }
        for position in slotCount..<slotTree.size { bad[Int(slotTree.leaf(position))] = true }
        for id in 0..<n where !bad[id] {
            let inheritsBackOne = layout.slotCover[id].contains { subtreeBackOne[Int($0 - slotTree.base)] }
            if !backOne[id] && !inheritsBackOne { bad[id] = true }
        }
        let spoiled = reach.forwardGraph.reversed().reach(from: (0..<layout.virtualEnd).filter { bad[$0] })
        let detourAll = spoiled.map { !$0 }
        return Detours(detourAll: detourAll, isDetour: Array(detourAll[0..<n]), subtreeBackOne: subtreeBackOne, subtreeOther: subtreeOther)
    }

    // MARK: Pass 4: dead ends and closed groups

    struct Escapes {
        let deadEnds: [Int32]
        let closedGroups: [[Int32]]
        let goesOnlyBack: [Bool]
    }

    /// The escape graph for closed groups: forward, restart and `back: X` edges; edges into detours dropped; a
    /// step mixing `back: true` with other exits gets an edge back to every step that forwards to it. A group of
    /// steps in one strongly connected component with no edge out (to a finish step, another component or the
    /// exit) is closed; a reachable step with no transitions at all is a dead end.
    static func escapes(_ layout: Layout, reach: Reach, detours: Detours, steps: [Step], anyStep: Step?) -> Escapes {
        let (n, slotTree, slotCount, isFinish) = (layout.n, layout.slotTree, layout.slotCount, layout.isFinish)
        let (isDetour, detourAll, reachable) = (detours.isDetour, detours.detourAll, reach.reachable)
        let inGroupGraph = (0..<n).map { reach.member[$0] && !isDetour[$0] }
        // A step that mixes `back: true` with other exits. (A start or entry step whose only exit is `back: true`
        // is no detour and has nobody to go back to, so it gets no return edges.)
        var mixed = [Bool](repeating: false, count: n)
        var goesOnlyBack = [Bool](repeating: false, count: n)
        for id in 0..<n where inGroupGraph[id] {
            let covers = layout.slotCover[id].map { Int($0 - slotTree.base) }
            let backOne = layout.ownMoves[id].contains(.backOne) || covers.contains { detours.subtreeBackOne[$0] }
            let other = layout.ownMoves[id].contains { $0 != .backOne } || covers.contains { detours.subtreeOther[$0] }
            mixed[id] = backOne && other
            goesOnlyBack[id] = backOne && !other
        }

        let exitNode = Int32(layout.virtualEnd)
        let memberIDs = (0..<n).filter { inGroupGraph[$0] }
        var memberPosition = [Int](repeating: -1, count: n)
        for (position, id) in memberIDs.enumerated() { memberPosition[id] = position }
        let memberTree = SegmentCover(count: memberIDs.count, base: exitNode + 1)
        var returnNodeBySlot: [Int: Int32] = [:]
        var nextFree = Int(exitNode) + 1 + memberTree.nodeSpan
        var edges: [(Int32, Int32)] = []
        func escape(from node: Int32, _ moves: [Move]) {
            for move in moves {
                switch move {
                case .forward(let target):
                    if isFinish[Int(target)] { edges.append((node, exitNode)) } else if !isDetour[Int(target)] { edges.append((node, target)) }
                case .back(let target):
                    if isFinish[Int(target)] && reachable[Int(target)] { edges.append((node, exitNode)) } else if inGroupGraph[Int(target)] { edges.append((node, target)) }
                case .restart:
                    if let startID = layout.startID {
                        if isFinish[Int(startID)] { edges.append((node, exitNode)) } else if !isDetour[Int(startID)] { edges.append((node, startID)) }
                    }
                case .undefined, .suggested:
                    edges.append((node, exitNode))
                case .backOne:
                    break
                }
            }
        }
        var slotTreeEdges: [(Int32, Int32)] = []
        slotTree.internalEdges(into: &slotTreeEdges)
        edges += slotTreeEdges.filter { !detourAll[Int($0.1)] }
        for slot in 0..<slotCount { escape(from: slotTree.leaf(slot), layout.slotMoves[slot]) }
        var overriders = [[Int]](repeating: [], count: slotCount)
        for id in memberIDs {
            for slot in layout.overridden[id] { overriders[slot].append(memberPosition[id]) }
        }
        for id in memberIDs {
            let node = Int32(id)
            escape(from: node, layout.ownMoves[id])
            for cover in layout.slotCover[id] where !detourAll[Int(cover)] { edges.append((node, cover)) }
            for move in layout.ownMoves[id] {
                if case .forward(let target) = move, mixed[Int(target)] { edges.append((target, node)) }
            }
        }
        for slot in 0..<slotCount {
            for move in layout.slotMoves[slot] {
                guard case .forward(let target) = move, mixed[Int(target)] else { continue }
                let returnNode: Int32
                if let existing = returnNodeBySlot[slot] {
                    returnNode = existing
                } else {
                    returnNode = Int32(nextFree)
                    nextFree += 1
                    returnNodeBySlot[slot] = returnNode
                    for cover in memberTree.coverAll(except: overriders[slot]) { edges.append((returnNode, cover)) }
                }
                edges.append((target, returnNode))
            }
        }
        if !returnNodeBySlot.isEmpty {
            memberTree.internalEdges(into: &edges)
            for (position, id) in memberIDs.enumerated() { edges.append((memberTree.leaf(position), Int32(id))) }
        }
        let escapeGraph = Digraph(nodeCount: nextFree, edges: edges)
        let (component, componentCount) = escapeGraph.stronglyConnectedComponents()
        // A virtual node that reaches no step and no exit (a "*" handler whose only move is a back to an unreachable
        // step, a return node every step overrides) leads nowhere: an edge into it is no way out.
        let live = escapeGraph.reversed().reach(from: Array(0..<n) + [Int(exitNode)])
        var leaves = [Bool](repeating: false, count: componentCount)
        escapeGraph.withAdjacency { escapes in
            for v in 0..<escapeGraph.nodeCount {
                for w in escapes.successors(of: v) where component[Int(w)] != component[v] && live[Int(w)] {
                    leaves[Int(component[v])] = true
                }
            }
        }
        let hasAnyHandlers = anyStep?.hasTransitions ?? false
        var deadEnds: [Int32] = []
        var groups: [Int32: [Int32]] = [:]
        for id in memberIDs {
            if !steps[id].hasTransitions && !hasAnyHandlers {
                deadEnds.append(Int32(id))
                continue
            }
            let c = component[id]
            if !leaves[Int(c)] { groups[c, default: []].append(Int32(id)) }
        }
        return Escapes(deadEnds: deadEnds, closedGroups: groups.values.sorted { $0[0] < $1[0] }, goesOnlyBack: goesOnlyBack)
    }
}
