/// Data-flow and dominator analyses over integer graphs, and the step graph the data-flow rules run them on.
///
/// Every analysis here takes a `DataFlow.Graph` (nodes `0 ..< nodeCount`, directed edges) and a list of roots, and
/// is near-linear: `mustSet` costs O((nodes + edges) × ⌈keys / 64⌉) per pass and needs few passes (loop nesting
/// depth + 2 in reverse postorder); `dominators` is Lengauer–Tarjan with path compression, O(edges × log nodes);
/// `reaches` answers many reachability questions at once, 64 sources per sweep of the condensed graph.
enum DataFlow {
    /// A directed graph over nodes `0 ..< nodeCount`, with its edges in both directions.
    public struct Graph: Sendable {
        let forward: Digraph
        let backward: Digraph

        /// The number of nodes.
        public var nodeCount: Int { forward.nodeCount }

        /// Builds the graph from an edge list (parallel edges and self-loops are allowed).
        public init(nodeCount: Int, edges: [(Int32, Int32)]) {
            forward = Digraph(nodeCount: nodeCount, edges: edges)
            backward = forward.reversed()
        }

        /// The successors of `node`.
        public func successors(of node: Int) -> ArraySlice<Int32> { forward.successors(of: node) }

        /// The predecessors of `node`.
        public func predecessors(of node: Int) -> ArraySlice<Int32> { backward.successors(of: node) }
    }

    /// A root of a must-set analysis: a node where runs begin, with the keys known to be set there.
    public struct Root: Sendable {
        /// The node.
        public var node: Int
        /// The keys set when a run begins at the node.
        public var keys: [Int]

        /// Creates a root.
        public init(node: Int, keys: [Int] = []) {
            self.node = node
            self.keys = keys
        }
    }

    /// The answer of `mustSet`: for every node reachable from a root, the keys set on every path to it.
    public struct MustSet: Sendable {
        /// The number of keys analysed.
        public let keyCount: Int
        let words: Int
        let bits: [UInt64]
        let reached: [Bool]

        /// Whether a path from a root leads to `node`.
        public func isReachable(_ node: Int) -> Bool { reached[node] }

        /// Whether `key` is set on every path from a root to `node`, before the node's own keys are added; false
        /// for an unreachable node.
        public func isSet(_ key: Int, before node: Int) -> Bool {
            reached[node] && bits[node * words + key >> 6] & (1 << UInt64(key & 63)) != 0
        }

        /// The keys set on every path to `node` (before its own), ascending; nil when the node is unreachable.
        public func keys(before node: Int) -> [Int]? {
            guard reached[node] else { return nil }
            return (0..<keyCount).filter { isSet($0, before: node) }
        }
    }

    /// A must analysis ("set on every path"): which keys are set on entry to each node, whatever path from a root
    /// led there. A run begins at a root with that root's keys set; leaving node `v` adds `gen[v]`; where paths
    /// join, only keys set on all of them survive. A node that is the root of several starts keeps the keys all of
    /// them set, met with its incoming edges. Unreachable nodes take no part.
    ///
    /// Iterates to the greatest fixed point in reverse postorder, with `⌈keyCount / 64⌉` words per node.
    public static func mustSet(in graph: Graph, keyCount: Int, gen: [[Int]], roots: [Root]) -> MustSet {
        let n = graph.nodeCount
        let words = max(1, (keyCount + 63) / 64)
        var full = [UInt64](repeating: ~0, count: words)
        if keyCount % 64 != 0 { full[words - 1] = (1 << UInt64(keyCount % 64)) - 1 }
        if keyCount == 0 { full[0] = 0 }

        var genBits = [UInt64](repeating: 0, count: n * words)
        for (node, keys) in gen.enumerated() where node < n {
            for key in keys { genBits[node * words + key >> 6] |= 1 << UInt64(key & 63) }
        }
        var rootBits: [Int: [UInt64]] = [:]
        for root in roots {
            var keys = [UInt64](repeating: 0, count: words)
            for key in root.keys { keys[key >> 6] |= 1 << UInt64(key & 63) }
            if let existing = rootBits[root.node] {
                rootBits[root.node] = zip(existing, keys).map { $0 & $1 }
            } else {
                rootBits[root.node] = keys
            }
        }

        let order = reversePostorder(graph.forward, from: roots.map(\.node))
        var reached = [Bool](repeating: false, count: n)
        for node in order { reached[node] = true }
        var bits = [UInt64](repeating: 0, count: n * words)
        for node in order {
            for w in 0..<words { bits[node * words + w] = full[w] }
        }
        var fresh = [UInt64](repeating: 0, count: words)
        var changed = true
        while changed {
            changed = false
            for node in order {
                if let keys = rootBits[node] {
                    for w in 0..<words { fresh[w] = keys[w] }
                } else {
                    for w in 0..<words { fresh[w] = full[w] }
                }
                for pred in graph.predecessors(of: node) where reached[Int(pred)] {
                    let base = Int(pred) * words
                    for w in 0..<words { fresh[w] &= bits[base + w] | genBits[base + w] }
                }
                let base = node * words
                for w in 0..<words where bits[base + w] != fresh[w] {
                    bits[base + w] = fresh[w]
                    changed = true
                }
            }
        }
        return MustSet(keyCount: keyCount, words: words, bits: bits, reached: reached)
    }

    /// `mustSet` over the keys in chunks, so that about `bitBudget` bits of state at most are kept at once (at least
    /// 64 keys a chunk). `body` gets each chunk's range of keys and its answer, where key `k` of the range is
    /// `k - range.lowerBound`; it runs at least once (with an empty range when there are no keys, for reachability).
    public static func mustSetInChunks(in graph: Graph, keyCount: Int, gen: [[Int]], roots: [Root], bitBudget: Int,
                                       _ body: (Range<Int>, MustSet) -> Void) {
        let chunkKeys = max(64, (bitBudget / max(graph.nodeCount, 1)) / 64 * 64)
        var chunkStart = 0
        repeat {
            let chunk = chunkStart..<min(chunkStart + chunkKeys, keyCount)
            let chunkGen = gen.map { $0.filter(chunk.contains).map { $0 - chunkStart } }
            let chunkRoots = roots.map { Root(node: $0.node, keys: $0.keys.filter(chunk.contains).map { $0 - chunkStart }) }
            body(chunk, mustSet(in: graph, keyCount: chunk.count, gen: chunkGen, roots: chunkRoots))
            chunkStart += chunkKeys
        } while chunkStart < keyCount
    }

    /// Shortest paths from roots, as a parent per node: the witnesses behind an analysis's answer.
    public struct Paths: Sendable {
        /// `-1`: no path; `-2`: the node is where the path starts; else the previous node on the path.
        let parent: [Int32]
        /// The node each path starts at.
        let origin: [Int32]

        /// Whether the node has a path.
        public func hasPath(to node: Int) -> Bool { parent[node] != -1 }

        /// The nodes of a shortest path from its first node to `node`, both included; nil when there is none.
        public func path(to node: Int) -> [Int]? {
            guard parent[node] != -1 else { return nil }
            var path = [node]
            var current = node
            while parent[current] >= 0 {
                current = Int(parent[current])
                path.append(current)
            }
            return path.reversed()
        }

        /// A shortest path to `node`, walking at most `limit` nodes back from it: the path's first node, its last
        /// nodes in order, and whether those are the whole path. Nil when there is none.
        public func tail(to node: Int, limit: Int) -> (first: Int, nodes: [Int], complete: Bool)? {
            guard parent[node] != -1 else { return nil }
            var nodes = [node]
            var current = node
            while parent[current] >= 0 && nodes.count < limit {
                current = Int(parent[current])
                nodes.append(current)
            }
            return (Int(origin[node]), nodes.reversed(), parent[current] < 0)
        }
    }

    /// For one key, the shortest paths along which the key may be unset: a path starts at a root whose keys lack
    /// `key` and passes only through nodes whose `gen` lacks it. A node has a path exactly when `mustSet` says
    /// `key` is not set before it (for a reachable node).
    public static func unsetPaths(in graph: Graph, key: Int, gen: [[Int]], roots: [Root]) -> Paths {
        let n = graph.nodeCount
        var blocks = [Bool](repeating: false, count: n)
        for (node, keys) in gen.enumerated() where node < n && keys.contains(key) { blocks[node] = true }
        let sources = roots.filter { !$0.keys.contains(key) }.map(\.node)
        return breadthFirst(graph.forward, from: sources, expand: { !blocks[$0] }, enter: { _ in true })
    }

    /// For one node `avoided`, the shortest paths from the roots that never pass through it.
    public static func pathsAvoiding(_ avoided: Int, in graph: Graph, roots: [Int]) -> Paths {
        breadthFirst(graph.forward, from: roots, expand: { _ in true }, enter: { $0 != avoided })
    }

    /// The dominator tree of the nodes reachable from `roots`, under a virtual root with an edge to each root.
    public struct Dominators: Sendable {
        /// Each node's immediate dominator: `-2` when only the virtual root dominates it (a root, or a node that
        /// separate paths from two roots reach), `-1` when unreachable.
        let idom: [Int32]
        let pre: [Int32]
        let post: [Int32]

        /// Whether a path from a root leads to `node`.
        public func isReachable(_ node: Int) -> Bool { idom[node] != -1 }

        /// The immediate dominator of `node`; nil when only the virtual root dominates it and when unreachable.
        public func immediateDominator(of node: Int) -> Int? { idom[node] >= 0 ? Int(idom[node]) : nil }

        /// Whether every path from a root to `node` passes through `dominator` (a node dominates itself); false
        /// when either is unreachable.
        public func dominates(_ dominator: Int, _ node: Int) -> Bool {
            guard idom[dominator] != -1, idom[node] != -1 else { return false }
            return pre[dominator] <= pre[node] && post[node] <= post[dominator]
        }
    }

    /// Dominators of the nodes reachable from `roots` (Lengauer–Tarjan with path compression, iterative).
    public static func dominators(in graph: Graph, roots: [Int]) -> Dominators {
        let n = graph.nodeCount
        let virtual = n
        // Depth-first numbering from the virtual root; `vertex[i]` is the node numbered i.
        var number = [Int32](repeating: -1, count: n + 1)
        var vertex: [Int] = []
        var parent: [Int32] = []
        vertex.reserveCapacity(n + 1)
        number[virtual] = 0
        vertex.append(virtual)
        parent.append(-1)
        var stack: [(node: Int, next: Int)] = [(virtual, 0)]
        let distinctRoots = roots.filter { $0 >= 0 && $0 < n }
        let rootTargets = ArraySlice(distinctRoots.map(Int32.init))
        while let (node, next) = stack.last {
            let successors = node == virtual ? rootTargets : graph.successors(of: node)
            if next < successors.count {
                stack[stack.count - 1].next += 1
                let w = Int(successors[successors.startIndex + next])
                if number[w] < 0 {
                    number[w] = Int32(vertex.count)
                    vertex.append(w)
                    parent.append(number[node])
                    stack.append((w, 0))
                }
            } else {
                stack.removeLast()
            }
        }
        let count = vertex.count
        var isRoot = [Bool](repeating: false, count: n)
        for root in distinctRoots { isRoot[root] = true }

        // Work in DFS numbers from here on.
        var semi = (0..<count).map(Int32.init)
        var label = semi
        var ancestor = [Int32](repeating: -1, count: count)
        var idomNumber = [Int32](repeating: 0, count: count)
        var bucketHead = [Int32](repeating: -1, count: count)
        var bucketNext = [Int32](repeating: -1, count: count)
        var chain: [Int32] = []

        if count > 1 {
            for w in stride(from: count - 1, through: 1, by: -1) {
                let node = vertex[w]
                for predecessor in graph.predecessors(of: node) {
                    let v = number[Int(predecessor)]
                    guard v >= 0 else { continue }
                    let u = evaluate(v, ancestor: &ancestor, label: &label, semi: semi, chain: &chain)
                    if semi[Int(u)] < semi[w] { semi[w] = semi[Int(u)] }
                }
                if isRoot[node] { semi[w] = 0 }
                let s = Int(semi[w])
                bucketNext[w] = bucketHead[s]
                bucketHead[s] = Int32(w)
                let p = parent[w]
                ancestor[w] = p
                var v = bucketHead[Int(p)]
                bucketHead[Int(p)] = -1
                while v >= 0 {
                    let following = bucketNext[Int(v)]
                    let u = evaluate(v, ancestor: &ancestor, label: &label, semi: semi, chain: &chain)
                    idomNumber[Int(v)] = semi[Int(u)] < semi[Int(v)] ? u : p
                    v = following
                }
            }
            for w in 1..<count where idomNumber[w] != semi[w] {
                idomNumber[w] = idomNumber[Int(idomNumber[w])]
            }
        }

        var idom = [Int32](repeating: -1, count: n)
        var childEdges: [(Int32, Int32)] = []
        childEdges.reserveCapacity(max(count - 1, 0))
        for w in 1..<max(count, 1) {
            let d = Int(idomNumber[w])
            idom[vertex[w]] = d == 0 ? -2 : Int32(vertex[d])
            childEdges.append((Int32(d), Int32(w)))
        }
        let children = Digraph(nodeCount: max(count, 1), edges: childEdges)
        // Pre- and post-order numbers of the dominator tree, for constant-time dominance queries.
        var pre = [Int32](repeating: -1, count: n)
        var post = [Int32](repeating: -1, count: n)
        var clock: Int32 = 0
        var walk: [(Int32, Int)] = [(0, 0)]
        while let (w, next) = walk.last {
            if next == 0 && w != 0 {
                pre[vertex[Int(w)]] = clock
                clock += 1
            }
            let below = children.successors(of: Int(w))
            if next < below.count {
                walk[walk.count - 1].1 += 1
                walk.append((below[below.startIndex + next], 0))
            } else {
                if w != 0 {
                    post[vertex[Int(w)]] = clock
                    clock += 1
                }
                walk.removeLast()
            }
        }
        return Dominators(idom: idom, pre: pre, post: post)
    }

    /// Lengauer–Tarjan's EVAL with path compression: the vertex of least semidominator on `v`'s ancestor chain.
    private static func evaluate(_ v: Int32, ancestor: inout [Int32], label: inout [Int32], semi: [Int32], chain: inout [Int32]) -> Int32 {
        if ancestor[Int(v)] < 0 { return v }
        // Compress the ancestor chain above v, top first.
        chain.removeAll(keepingCapacity: true)
        var x = v
        while ancestor[Int(ancestor[Int(x)])] >= 0 {
            chain.append(x)
            x = ancestor[Int(x)]
        }
        for y in chain.reversed() {
            let a = ancestor[Int(y)]
            if semi[Int(label[Int(a)])] < semi[Int(label[Int(y)])] { label[Int(y)] = label[Int(a)] }
            ancestor[Int(y)] = ancestor[Int(a)]
        }
        return label[Int(v)]
    }

    /// For each pair, whether a path (of zero or more edges) leads from `from` to `to`. Strongly connected
    /// components are condensed once, which answers pairs within one component, and pairs whose target component
    /// comes before the source's in topological order, at once. The rest are answered 64 distinct sources per
    /// sweep of the condensed graph, each sweep limited to the components between its sources and its targets:
    /// O((nodes + edges) × ⌈distinct sources / 64⌉) at worst.
    public static func reaches(in graph: Graph, pairs: [(from: Int, to: Int)]) -> [Bool] {
        guard !pairs.isEmpty else { return [] }
        let (component, componentCount) = graph.forward.stronglyConnectedComponents()
        var answers = [Bool](repeating: false, count: pairs.count)
        // Tarjan numbers components sinks first: an edge between components goes to a lower number.
        var pending: [Int] = []
        for (index, pair) in pairs.enumerated() {
            let from = component[pair.from], to = component[pair.to]
            if from == to {
                answers[index] = true
            } else if from > to {
                pending.append(index)
            }
        }
        guard !pending.isEmpty else { return answers }

        // Nodes grouped by component.
        var start = [Int](repeating: 0, count: componentCount + 1)
        for v in 0..<graph.nodeCount { start[Int(component[v]) + 1] += 1 }
        for c in 0..<componentCount { start[c + 1] += start[c] }
        var fill = start
        var members = [Int](repeating: 0, count: graph.nodeCount)
        for v in 0..<graph.nodeCount {
            members[fill[Int(component[v])]] = v
            fill[Int(component[v])] += 1
        }
        // Distinct sources, highest component first, so that a batch's sweep spans few components.
        var slot: [Int: Int] = [:]
        var sources: [Int] = []
        for index in pending where slot[pairs[index].from] == nil {
            slot[pairs[index].from] = -1
            sources.append(pairs[index].from)
        }
        sources.sort { (component[$0], $0) > (component[$1], $1) }
        for (position, source) in sources.enumerated() { slot[source] = position }
        let batchCount = (sources.count + 63) / 64
        var batches = [[Int]](repeating: [], count: batchCount)
        for index in pending { batches[slot[pairs[index].from]! / 64].append(index) }

        var mask = [UInt64](repeating: 0, count: componentCount)
        for (batch, questions) in batches.enumerated() {
            let first = batch * 64
            let top = Int(component[sources[first]])
            let bottom = questions.map { Int(component[pairs[$0].to]) }.min()!
            for c in bottom...top { mask[c] = 0 }
            for (bit, source) in sources[first..<min(first + 64, sources.count)].enumerated() {
                mask[Int(component[source])] |= 1 << UInt64(bit)
            }
            for c in stride(from: top, through: bottom, by: -1) where mask[c] != 0 {
                for v in members[start[c]..<start[c + 1]] {
                    for w in graph.successors(of: v) {
                        let d = Int(component[Int(w)])
                        if d != c && d >= bottom { mask[d] |= mask[c] }
                    }
                }
            }
            for index in questions {
                let bit = slot[pairs[index].from]! - first
                answers[index] = mask[Int(component[pairs[index].to])] & (1 << UInt64(bit)) != 0
            }
        }
        return answers
    }

    // MARK: - Traversals

    /// The nodes reachable from `roots`, in reverse postorder of an iterative depth-first search.
    static func reversePostorder(_ graph: Digraph, from roots: [Int]) -> [Int] {
        var seen = [Bool](repeating: false, count: graph.nodeCount)
        var postorder: [Int] = []
        var stack: [(node: Int, edge: Int32)] = []
        for root in roots where !seen[root] {
            seen[root] = true
            stack.append((root, graph.offsets[root]))
            while let (node, edge) = stack.last {
                if edge < graph.offsets[node + 1] {
                    stack[stack.count - 1].edge += 1
                    let w = Int(graph.targets[Int(edge)])
                    if !seen[w] {
                        seen[w] = true
                        stack.append((w, graph.offsets[w]))
                    }
                } else {
                    postorder.append(node)
                    stack.removeLast()
                }
            }
        }
        return postorder.reversed()
    }

    /// Breadth-first search from `sources` (nodes `enter` accepts), going on from nodes `expand` accepts.
    @inline(__always)
    static func breadthFirst(_ graph: Digraph, from sources: [Int], expand: (Int) -> Bool, enter: (Int) -> Bool) -> Paths {
        let n = graph.nodeCount
        var parent = [Int32](repeating: -1, count: n)
        var origin = [Int32](repeating: -1, count: n)
        var queue = [Int32](repeating: 0, count: n)
        var tail = 0
        for source in sources where parent[source] == -1 && enter(source) {
            parent[source] = -2
            origin[source] = Int32(source)
            queue[tail] = Int32(source)
            tail += 1
        }
        graph.offsets.withUnsafeBufferPointer { offsets in
            graph.targets.withUnsafeBufferPointer { targets in
                parent.withUnsafeMutableBufferPointer { parent in
                    origin.withUnsafeMutableBufferPointer { origin in
                        var head = 0
                        while head < tail {
                            let v = Int(queue[head])
                            head += 1
                            guard expand(v) else { continue }
                            for index in Int(offsets[v])..<Int(offsets[v + 1]) {
                                let w = Int(targets[index])
                                guard parent[w] == -1 && enter(w) else { continue }
                                parent[w] = Int32(v)
                                origin[w] = origin[v]
                                queue[tail] = Int32(w)
                                tail += 1
                            }
                        }
                    }
                }
            }
        }
        return Paths(parent: parent, origin: origin)
    }
}

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

    /// One forward option and its node.
    struct Option {
        let owner: Owner
        /// The owner's target list the option is part of (for a step: its `on` lists in order, then `next`; for
        /// a slot: 0), the list itself, and the option's index there.
        let listIndex: Int
        let list: [Target]
        let index: Int
        let node: Int
    }

    let flow: Flow
    let stepCount: Int
    let ids: [String: Int]
    let startID: Int?
    /// The `"*"` handler slots: derived-event handlers, then `next`, then the other `on` handlers.
    let slotTargets: [[Target]]
    /// The `"*"` event of each slot, nil for `next`.
    let slotEvents: [String?]
    /// The slots below this index are taken on result moves (derived events and `next`).
    let resultSlotCount: Int
    /// Per step, the sorted slots its own handlers override.
    let overridden: [[Int]]
    let slotTree: SegmentCover
    let options: [Option]
    let graph: DataFlow.Graph
    /// The entries (indices in `flow.entries`) starting at each step.
    let entriesByStep: [Int: [Int]]
    /// Per step, the node its result moves leave from when its `set` runs on those moves only (else nil).
    let afterSet: [Int?]
    /// The derived events (declared with an expression).
    let derivedEvents: Set<String>
    /// Options by node.
    let optionIndex: [Int: Int]

    init(flow: Flow) {
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
        let anyOn = flow.anyStep?.on ?? []
        func addSlot(_ handler: Handler) {
            if slotByEvent[handler.event.text] == nil { slotByEvent[handler.event.text] = slotTargets.count }
            slotTargets.append(handler.targets)
            slotEvents.append(handler.event.text)
        }
        for handler in anyOn where derived.contains(handler.event.text) { addSlot(handler) }
        var nextSlot: Int?
        if let next = flow.anyStep?.next {
            nextSlot = slotTargets.count
            slotTargets.append(next)
            slotEvents.append(nil)
        }
        let resultSlotCount = slotTargets.count
        for handler in anyOn where !derived.contains(handler.event.text) { addSlot(handler) }
        let overridden: [[Int]] = steps.map { step in
            var skipped = step.on.compactMap { slotByEvent[$0.event.text] }
            if step.next != nil, let nextSlot { skipped.append(nextSlot) }
            return skipped.count > 1 ? Array(Set(skipped)).sorted() : skipped
        }
        let tree = SegmentCover(count: slotTargets.count, base: Int32(n))
        var nodeCount = n + tree.nodeSpan
        var edges: [(Int32, Int32)] = []
        tree.internalEdges(into: &edges)
        var options: [Option] = []
        func addOptions(_ list: [Target], owner: Owner, listIndex: Int, from node: Int) {
            for (index, target) in list.enumerated() {
                guard case .forward(let name) = target.move, let to = ids[name.text] else { continue }
                let optionNode = nodeCount
                nodeCount += 1
                options.append(Option(owner: owner, listIndex: listIndex, list: list, index: index, node: optionNode))
                edges.append((Int32(node), Int32(optionNode)))
                edges.append((Int32(optionNode), Int32(to)))
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
            for (listIndex, list) in Self.targetLists(of: step).enumerated() {
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
        var optionIndex: [Int: Int] = [:]
        for (index, option) in options.enumerated() { optionIndex[option.node] = index }
        self.optionIndex = optionIndex
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
        for (id, step) in flow.steps.enumerated() where step.kind != .finish && Self.targetLists(of: step).contains(where: restarts) {
            seen[id] = true
            queue.append(id)
        }
        for (slot, list) in slotTargets.enumerated() where restarts(list) && !seen[leaf(slot)] {
            seen[leaf(slot)] = true
            queue.append(leaf(slot))
        }
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for pred in graph.predecessors(of: node) where !seen[Int(pred)] {
                seen[Int(pred)] = true
                queue.append(Int(pred))
            }
        }
        return Set((0..<stepCount).filter { seen[$0] })
    }

    /// The node a derived event is evaluated from at step `id` (after its `set` when it has a result).
    func eventNode(of id: Int) -> Int { afterSet[id] ?? id }

    /// A step's target lists: its `on` handlers in order, then its `next`.
    static func targetLists(of step: Step) -> [[Target]] {
        step.on.map(\.targets) + (step.next.map { [$0] } ?? [])
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
                if let option = optionIndex[next] {
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
    static func allows(_ step: Step, _ rule: String) -> Bool {
        guard let suppression = step.suppression, let reason = suppression.reason, !reason.allSatisfy(\.isWhitespace) else { return false }
        return suppression.rules.contains { $0.text == rule }
    }
}
