/// The steps of a flow as a graph for the data-flow rules: node `i` is step `i` (file order, as in `FlowGraph`),
/// then the `"*"` slot tree, then one node per forward option (so an option's own state updates can sit on it),
/// then one "after its `set`" node per step whose `set` runs on some of its moves only.
///
/// Which moves run a step's `set` follows the completions of docs/format.md ("Running a flow"): every move of a
/// `flow` step; the `next` and derived-event moves of a step with `result` (they complete with a result); no move of
/// any other step, nor a move by an explicit event. A step with `result` and a `set` gets a second node: its
/// result moves leave from there, its explicit-event moves from the step's node. `"*"` slots are ordered with the
/// result-move slots (derived events, then `next`) first, so each of the two nodes covers one contiguous range.
///
/// Edges: a non-finish step to each of its own forward options and to the slot-tree nodes covering the `"*"`
/// handlers it does not override; slot-tree nodes to their children; a slot leaf to its forward options; an
/// option to its step. Back moves, `back: true` and `restart` are no edges (see the rules for why), nor are
/// moves to undefined steps. Roots: `start` and every entry's step.
struct StepGraph {
    /// Where a forward option was written.
    enum Owner {
        /// In a step's own `on` or `next`.
        case step(Int)
        /// In the `"*"` handler of a slot.
        case slot(Int)
    }

    /// One forward option and its node: 24 bytes (the numbers as 32-bit integers, as in `Digraph`), one for each
    /// forward option of the flow.
    package struct Option {
        /// A step's id, or -1 - slot for a slot.
        private let ownerCode: Int32
        private let storedListIndex: Int32
        private let storedIndex: Int32
        private let storedNode: Int32
        /// The owner's target list the option is part of.
        package let list: [Target]

        init(owner: Owner, listIndex: Int, list: [Target], index: Int, node: Int) {
            switch owner {
            case .step(let id): ownerCode = Int32(id)
            case .slot(let slot): ownerCode = -1 - Int32(slot)
            }
            storedListIndex = Int32(listIndex)
            storedIndex = Int32(index)
            storedNode = Int32(node)
            self.list = list
        }

        /// Where the option was written.
        var owner: Owner { ownerCode >= 0 ? .step(Int(ownerCode)) : .slot(Int(-1 - ownerCode)) }
        /// The index of `list` among the owner's target lists (for a step: its `on` lists in order, then `next`;
        /// for a slot: 0).
        var listIndex: Int { Int(storedListIndex) }
        /// The option's index in `list`.
        var index: Int { Int(storedIndex) }
        /// The option's node.
        var node: Int { Int(storedNode) }
    }

    package let flow: Flow
    let stepCount: Int
    let ids: [String: Int]
    let startID: Int?
    /// The `"*"` handler slots: derived-event handlers, then `next`, then the other `on` handlers.
    let slotTargets: [[Target]]
    /// The `"*"` event of each slot, nil for `next`.
    let slotEvents: [String?]
    /// Each slot's list in `"*"` (its handler's index in `on`, `next` as `on.count`), as `NeverTaken.Option` names it.
    let slotLists: [Int]
    /// The slots below this index are taken on result moves (derived events and `next`).
    let resultSlotCount: Int
    /// Per step, the sorted slots its own handlers override.
    let overridden: [[Int]]
    let slotTree: SegmentCover
    /// The forward options, by node (each option's node is larger than the one before's).
    let options: [Option]
    let graph: DataFlow.Graph
    /// The entries (indices in `flow.entries`) starting at each step.
    let entriesByStep: [Int: [Int]]
    /// Per step, the node its result moves leave from when its `set` runs on those moves only (else nil).
    let afterSet: [Int?]
    /// The derived events (declared with an expression).
    let derivedEvents: Set<String>

    /// `neverTaken`: options no run takes (docs/format.md, "Options never taken"): their `if` and `set` stay in the
    /// graph (a run evaluates an `if` whenever the options before it fail), their move does not.
    init(flow: Flow, neverTaken: NeverTaken = .none) {
        self.flow = flow
        let steps = flow.steps
        let n = steps.count
        var ids: [String: Int] = [:]
        ids.reserveCapacity(n)
        for (id, step) in steps.enumerated() where ids[step.name.text] == nil { ids[step.name.text] = id }
        let derived = Set(flow.events.lazy.filter { $0.expression != nil }.map(\.name.text))
        var slotTargets: [[Target]] = []
        var slotEvents: [String?] = []
        var slotByEvent: [String: Int] = [:]
        // Each slot's list in `"*"` (its handler's index in `on`, `next` as `on.count`), for the options never taken.
        var slotLists: [Int] = []
        let anyOn = flow.anyStep?.on ?? []
        func addSlot(_ index: Int) {
            let handler = anyOn[index]
            if slotByEvent[handler.event.text] == nil { slotByEvent[handler.event.text] = slotTargets.count }
            slotTargets.append(handler.targets)
            slotEvents.append(handler.event.text)
            slotLists.append(index)
        }
        for index in anyOn.indices where derived.contains(anyOn[index].event.text) { addSlot(index) }
        var nextSlot: Int?
        if let next = flow.anyStep?.next {
            nextSlot = slotTargets.count
            slotTargets.append(next)
            slotEvents.append(nil)
            slotLists.append(anyOn.count)
        }
        let resultSlotCount = slotTargets.count
        for index in anyOn.indices where !derived.contains(anyOn[index].event.text) { addSlot(index) }
        let overridden: [[Int]] = steps.map { step in
            var skipped = step.on.compactMap { slotByEvent[$0.event.text] }
            if step.next != nil, let nextSlot { skipped.append(nextSlot) }
            return skipped.count > 1 ? Array(Set(skipped)).sorted() : skipped
        }
        let tree = SegmentCover(count: slotTargets.count, base: Int32(n))
        var nodeCount = n + tree.nodeSpan
        let optionBound = Self.forwardOptionCount(of: flow, slots: slotTargets)
        var edges: [(Int32, Int32)] = []
        // Two edges an option, the slot tree's own, and for each step a result node's edge and a cover node or two:
        // an estimate reserved (capacity never written is never touched), so that the list seldom doubles.
        edges.reserveCapacity(2 * optionBound + 2 * tree.size + n * (slotTargets.isEmpty ? 1 : 3))
        tree.internalEdges(into: &edges)
        var options: [Option] = []
        options.reserveCapacity(optionBound)
        func addOptions(_ list: [Target], owner: Owner, listIndex: Int, from node: Int) {
            // The move read in place, not the target copied out (see `FlowGraph`).
            for index in list.indices {
                guard case .forward(let name) = list[index].move, let to = ids[name.text] else { continue }
                let optionNode = nodeCount
                nodeCount += 1
                options.append(Option(owner: owner, listIndex: listIndex, list: list, index: index, node: optionNode))
                edges.append((Int32(node), Int32(optionNode)))
                let option: NeverTaken.Option
                switch owner {
                case .step(let id): option = NeverTaken.Option(step: id, list: listIndex, option: index)
                case .slot(let slot): option = NeverTaken.Option(step: nil, list: slotLists[slot], option: index)
                }
                if neverTaken.isEmpty || neverTaken.reason(option) == nil { edges.append((Int32(optionNode), Int32(to))) }
            }
        }
        var afterSet = [Int?](repeating: nil, count: n)
        for (id, step) in steps.enumerated() where step.kind != .finish {
            let split = step.kind != .flow && step.result != nil && !step.set.isEmpty
            var resultNode = id
            if split {
                resultNode = nodeCount
                nodeCount += 1
                afterSet[id] = resultNode
                edges.append((Int32(id), Int32(resultNode)))
            }
            Self.forEachTargetList(of: step) { listIndex, list in
                let isResultMove = listIndex >= step.on.count || derived.contains(step.on[listIndex].event.text)
                addOptions(list, owner: .step(id), listIndex: listIndex, from: isResultMove ? resultNode : id)
            }
            guard !slotTargets.isEmpty else { continue }
            if split {
                for cover in tree.cover(0, resultSlotCount, except: overridden[id]) { edges.append((Int32(resultNode), cover)) }
                for cover in tree.cover(resultSlotCount, slotTargets.count, except: overridden[id]) { edges.append((Int32(id), cover)) }
            } else {
                for cover in tree.coverAll(except: overridden[id]) { edges.append((Int32(id), cover)) }
            }
        }
        for (slot, list) in slotTargets.enumerated() { addOptions(list, owner: .slot(slot), listIndex: 0, from: Int(tree.leaf(slot))) }

        self.stepCount = n
        self.ids = ids
        self.startID = ids[flow.start.text]
        self.slotTargets = slotTargets
        self.slotEvents = slotEvents
        self.slotLists = slotLists
        self.resultSlotCount = resultSlotCount
        self.overridden = overridden
        self.slotTree = tree
        self.options = options
        self.graph = DataFlow.Graph(nodeCount: nodeCount, edges: edges)
        var entriesByStep: [Int: [Int]] = [:]
        for (index, entry) in flow.entries.enumerated() {
            if let id = ids[entry.step.text] { entriesByStep[id, default: []].append(index) }
        }
        self.entriesByStep = entriesByStep
        self.afterSet = afterSet
        self.derivedEvents = derived
    }

    /// An upper bound on the options `init` makes: the forward moves of the steps that are not finish steps and of
    /// the slots (an option is also left out when its step is undefined).
    static func forwardOptionCount(of flow: Flow, slots: [[Target]]) -> Int {
        func count(_ list: [Target]) -> Int {
            var forward = 0
            for index in list.indices {
                if case .forward = list[index].move { forward += 1 }
            }
            return forward
        }
        var total = 0
        for step in flow.steps where step.kind != .finish {
            forEachTargetList(of: step) { _, list in total += count(list) }
        }
        for list in slots { total += count(list) }
        return total
    }

    /// The index in `options` of the option whose node is `node`, if there is one.
    func optionIndex(ofNode node: Int) -> Int? {
        var low = 0
        var high = options.count
        while low < high {
            let middle = (low + high) / 2
            if options[middle].node < node { low = middle + 1 } else { high = middle }
        }
        return low < options.count && options[low].node == node ? low : nil
    }

    /// The keys a step's `set` writes, and the node whose leaving runs it (nil when it never runs): the step's node
    /// for a `flow` step, its after-`set` node for a step with `result`.
    func setNode(of id: Int) -> Int? {
        let step = flow.steps[id]
        if step.kind == .flow { return id }
        return afterSet[id]
    }

    /// The node the moves of step `id`'s own target list `listIndex` leave from.
    func node(of id: Int, list listIndex: Int) -> Int {
        let step = flow.steps[id]
        guard let after = afterSet[id] else { return id }
        let isResultMove = listIndex >= step.on.count || derivedEvents.contains(step.on[listIndex].event.text)
        return isResultMove ? after : id
    }

    /// The node the moves of `"*"` slot `slot` leave from at step `id`.
    func node(of id: Int, slot: Int) -> Int {
        guard let after = afterSet[id], slot < resultSlotCount else { return id }
        return after
    }

    /// The steps from which a path of forward moves leads to a `restart` (their own or a `"*"` one they use).
    func stepsReachingRestart() -> Set<Int> {
        func restarts(_ list: [Target]) -> Bool { list.contains { if case .restart = $0.move { return true } else { return false } } }
        var seen = [Bool](repeating: false, count: graph.nodeCount)
        var queue: [Int] = []
        // Sources: steps with a restart of their own, and the leaves of "*" slots with one (the steps that use a
        // slot reach its leaf through the slot tree).
        for (id, step) in flow.steps.enumerated() where step.kind != .finish {
            var restartsHere = false
            Self.forEachTargetList(of: step) { _, list in restartsHere = restartsHere || restarts(list) }
            guard restartsHere else { continue }
            seen[id] = true
            queue.append(id)
        }
        for (slot, list) in slotTargets.enumerated() where restarts(list) && !seen[leaf(slot)] {
            seen[leaf(slot)] = true
            queue.append(leaf(slot))
        }
        var head = 0
        graph.backward.withAdjacency { backward in
            while head < queue.count {
                let node = queue[head]
                head += 1
                for pred in backward.successors(of: node) where !seen[Int(pred)] {
                    seen[Int(pred)] = true
                    queue.append(Int(pred))
                }
            }
        }
        return Set((0..<stepCount).filter { seen[$0] })
    }

    /// The node a derived event is evaluated from at step `id` (after its `set` when it has a result).
    func eventNode(of id: Int) -> Int { afterSet[id] ?? id }

    /// `body` with each of a step's target lists and its index: its `on` handlers in order, then its `next`. The
    /// lists are not collected: the rules walk every step's lists on all cores at once, and an array of them per
    /// step would retain each list, shared by all cores, once more.
    @inline(__always)
    static func forEachTargetList(of step: Step, _ body: (_ index: Int, _ list: [Target]) throws -> Void) rethrows {
        let handlers = step.on
        for index in handlers.indices { try body(index, handlers[index].targets) }
        if let next = step.next { try body(handlers.count, next) }
    }

    /// The root steps: `start`, then each entry's step (when it exists).
    var rootSteps: [Int] {
        guard let startID else { return [] }
        return [startID] + flow.entries.compactMap { ids[$0.step.text] }
    }

    /// Whether step `id` uses the `"*"` handler of `slot`: it is no finish step and does not override it.
    func inherits(_ id: Int, slot: Int) -> Bool {
        flow.steps[id].kind != .finish && !overridden[id].contains(slot)
    }

    /// The node of a slot's leaf.
    func leaf(_ slot: Int) -> Int { Int(slotTree.leaf(slot)) }

    /// Describes the shortest witness path in `paths` to step `node`: "not on the path 'a' -> 'b'" from `start`,
    /// "not on the path from entry 'e': …" from the step of an entry that `entryCounts` accepts (by index in
    /// `flow.entries`), "not when …
    /// starts the run at 'a'" for a path of one step; nil when there is no such path. Long paths are shortened in
    /// the middle, and only their last 64 nodes are walked.
    /// When `setter` says which steps' `set` would have set what is missing, a path that leaves such a step by a
    /// move that does not run its `set` is named by that completion ("not when 'ask' completes with event 'skip',
    /// on the path …").
    func explain(_ paths: DataFlow.Paths, to node: Int, entryCounts: (Int) -> Bool = { _ in true },
                 setter: ((Int) -> Bool)? = nil) -> String? {
        guard let (first, nodes, complete) = paths.tail(to: node, limit: 64), first < stepCount else { return nil }
        func quoted(_ id: Int) -> String { "'\(flow.steps[id].name.text)'" }
        if let setter, let completion = completion(along: nodes, setter: setter) {
            let rest = explain(paths, to: node, entryCounts: entryCounts)
            return rest.map { "not when \(completion), \($0.dropFirst(4))" } ?? "not when \(completion)"
        }
        let stepIDs = nodes.filter { $0 < stepCount }
        var names = stepIDs.map(quoted)
        if !complete {
            names = [quoted(first), "..."] + names.suffix(3)
        } else if names.count > 7 {
            names = names.prefix(3) + ["..."] + names.suffix(3)
        }
        let path = names.joined(separator: " -> ")
        let single = complete && stepIDs.count == 1
        if first == startID {
            return single ? "not when the run starts at \(quoted(first))" : "not on the path \(path)"
        }
        guard let index = entriesByStep[first]?.first(where: entryCounts) else { return nil }
        let entry = flow.entries[index]
        return single ? "not when entry '\(entry.name.text)' starts the run at \(quoted(first))"
            : "not on the path from entry '\(entry.name.text)': \(path)"
    }

    /// The steps of the path `paths` gives to `node`, first to last, when it is whole within `limit` graph nodes
    /// (steps and the option nodes between them).
    func steps(of paths: DataFlow.Paths, to node: Int, limit: Int = 1_024) -> [String]? {
        guard let (_, nodes, complete) = paths.tail(to: node, limit: limit), complete else { return nil }
        let names = nodes.filter { $0 < stepCount }.map { flow.steps[$0].name.text }
        return names.isEmpty ? nil : names
    }

    /// The last completion along `nodes` that leaves a step `setter` accepts without running its `set`: "'ask'
    /// completes with event 'skip'" (or "without a result" for a step that never has one).
    private func completion(along nodes: [Int], setter: (Int) -> Bool) -> String? {
        for position in stride(from: nodes.count - 2, through: 0, by: -1) {
            let id = nodes[position]
            guard id < stepCount, setter(id) else { continue }
            let step = flow.steps[id]
            guard setNode(of: id) != nil else { return "'\(step.name.text)' completes without a result (it declares none)" }
            // The move's event: the option node or the slot leaf the path goes through next.
            for next in nodes[(position + 1)...] {
                if next < stepCount { break }
                if let option = optionIndex(ofNode: next) {
                    let found = options[option]
                    switch found.owner {
                    case .step(let owner) where owner == id && found.listIndex < step.on.count:
                        return "'\(step.name.text)' completes with event '\(step.on[found.listIndex].event.text)'"
                    case .slot(let slot):
                        if let event = slotEvents[slot] { return "'\(step.name.text)' completes with event '\(event)'" }
                    default:
                        break
                    }
                    break
                }
            }
            return "'\(step.name.text)' completes with an event"
        }
        return nil
    }

    /// Whether `step` silences `rule` with a written reason.
    static func allows(_ step: Step, _ rule: RuleID) -> Bool {
        guard let suppression = step.suppression, let reason = suppression.reason, !reason.allSatisfy(\.isWhitespace) else { return false }
        return suppression.rules.contains { $0.text == rule.rawValue }
    }
}
