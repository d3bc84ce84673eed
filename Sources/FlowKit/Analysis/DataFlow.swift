/// Data-flow and dominator analyses over integer graphs (the step graph they run on is in StepGraph.swift).
///
/// Every analysis here takes a `DataFlow.Graph` (nodes `0 ..< nodeCount`, directed edges) and a list of roots, and
/// is near-linear: `mustSet` costs O((nodes + edges) × ⌈keys / 64⌉) per pass and needs few passes (loop nesting
/// depth + 2 in reverse postorder); `dominators` is Lengauer–Tarjan with path compression, O(edges × log nodes);
/// `reaches` answers many reachability questions at once, 64 sources per sweep of the condensed graph.
enum DataFlow {
    /// A directed graph over nodes `0 ..< nodeCount`, with its edges in both directions.
    package struct Graph: Sendable {
        let forward: Digraph
        let backward: Digraph

        /// The number of nodes.
        package var nodeCount: Int { forward.nodeCount }

        /// Builds the graph from an edge list (parallel edges and self-loops are allowed).
        package init(nodeCount: Int, edges: [(Int32, Int32)]) {
            forward = Digraph(nodeCount: nodeCount, edges: edges)
            backward = forward.reversed()
        }

        /// The successors of `node`.
        package func successors(of node: Int) -> ArraySlice<Int32> { forward.successors(of: node) }

        /// The predecessors of `node`.
        package func predecessors(of node: Int) -> ArraySlice<Int32> { backward.successors(of: node) }

        /// `body` over the successor and predecessor lists read in place (`Digraph.Adjacency`).
        @inline(__always)
        func withAdjacency<R>(_ body: (_ forward: Digraph.Adjacency, _ backward: Digraph.Adjacency) throws -> R) rethrows -> R {
            try forward.withAdjacency { forward in try backward.withAdjacency { backward in try body(forward, backward) } }
        }
    }

    /// A root of a must-set analysis: a node where runs begin, with the keys known to be set there.
    package struct Root: Sendable {
        /// The node.
        package var node: Int
        /// The keys set when a run begins at the node.
        package var keys: [Int]

        /// Creates a root.
        package init(node: Int, keys: [Int] = []) {
            self.node = node
            self.keys = keys
        }
    }

    /// The answer of `mustSet`: for every node reachable from a root, the keys set on every path to it.
    package struct MustSet: Sendable {
        /// The number of keys analysed.
        package let keyCount: Int
        let words: Int
        let bits: [UInt64]
        let reached: [Bool]

        /// Whether a path from a root leads to `node`.
        package func isReachable(_ node: Int) -> Bool { reached[node] }

        /// Whether `key` is set on every path from a root to `node`, before the node's own keys are added; false
        /// for an unreachable node.
        package func isSet(_ key: Int, before node: Int) -> Bool {
            reached[node] && bits[node * words + key >> 6] & (1 << UInt64(key & 63)) != 0
        }

        /// The keys set on every path to `node` (before its own), ascending; nil when the node is unreachable.
        package func keys(before node: Int) -> [Int]? {
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
    package static func mustSet(in graph: Graph, keyCount: Int, gen: [[Int]], roots: [Root]) -> MustSet {
        let n = graph.nodeCount
        let words = max(1, (keyCount + 63) / 64)
        var full = [UInt64](repeating: ~0, count: words)
        if keyCount % 64 != 0 { full[words - 1] = (1 << UInt64(keyCount % 64)) - 1 }
        if keyCount == 0 { full[0] = 0 }

        var genBits = [UInt64](repeating: 0, count: n * words)
        for (node, keys) in gen.enumerated() where node < n {
            for key in keys { genBits[node * words + key >> 6] |= 1 << UInt64(key & 63) }
        }
        // Each root node's keys, `words` words from `rootSlot[node] * words` (-1: not a root): looked up for every
        // node in every sweep, so by index rather than by hashing the node.
        var rootSlot = [Int32](repeating: -1, count: n)
        var rootBits: [UInt64] = []
        for root in roots {
            var keys = [UInt64](repeating: 0, count: words)
            for key in root.keys { keys[key >> 6] |= 1 << UInt64(key & 63) }
            if rootSlot[root.node] >= 0 {
                let base = Int(rootSlot[root.node]) * words
                for w in 0..<words { rootBits[base + w] &= keys[w] }
            } else {
                rootSlot[root.node] = Int32(rootBits.count / words)
                rootBits += keys
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
        graph.backward.withAdjacency { backward in
            while changed {
                changed = false
                for node in order {
                    if rootSlot[node] >= 0 {
                        let base = Int(rootSlot[node]) * words
                        for w in 0..<words { fresh[w] = rootBits[base + w] }
                    } else {
                        for w in 0..<words { fresh[w] = full[w] }
                    }
                    for pred in backward.successors(of: node) where reached[Int(pred)] {
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
        }
        return MustSet(keyCount: keyCount, words: words, bits: bits, reached: reached)
    }

    /// `mustSet` over the keys in chunks, so that about `bitBudget` bits of state at most are kept at once (at least
    /// 64 keys a chunk). `body` gets each chunk's range of keys and its answer, where key `k` of the range is
    /// `k - range.lowerBound`; it runs at least once (with an empty range when there are no keys, for reachability).
    package static func mustSetInChunks(in graph: Graph, keyCount: Int, gen: [[Int]], roots: [Root], bitBudget: Int,
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
    package struct Paths: Sendable {
        /// `-1`: no path; `-2`: the node is where the path starts; else the previous node on the path.
        let parent: [Int32]
        /// The node each path starts at.
        let origin: [Int32]

        /// Whether the node has a path.
        package func hasPath(to node: Int) -> Bool { parent[node] != -1 }

        /// The nodes of a shortest path from its first node to `node`, both included; nil when there is none.
        package func path(to node: Int) -> [Int]? {
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
        package func tail(to node: Int, limit: Int) -> (first: Int, nodes: [Int], complete: Bool)? {
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
    package static func unsetPaths(in graph: Graph, key: Int, gen: [[Int]], roots: [Root]) -> Paths {
        let n = graph.nodeCount
        var blocks = [Bool](repeating: false, count: n)
        for (node, keys) in gen.enumerated() where node < n && keys.contains(key) { blocks[node] = true }
        let sources = roots.filter { !$0.keys.contains(key) }.map(\.node)
        return breadthFirst(graph.forward, from: sources, expand: { !blocks[$0] }, enter: { _ in true })
    }

    /// For one node `avoided`, the shortest paths from the roots that never pass through it.
    package static func pathsAvoiding(_ avoided: Int, in graph: Graph, roots: [Int]) -> Paths {
        breadthFirst(graph.forward, from: roots, expand: { _ in true }, enter: { $0 != avoided })
    }

    /// The dominator tree of the nodes reachable from `roots`, under a virtual root with an edge to each root.
    package struct Dominators: Sendable {
        /// Each node's immediate dominator: `-2` when only the virtual root dominates it (a root, or a node that
        /// separate paths from two roots reach), `-1` when unreachable.
        let idom: [Int32]
        let pre: [Int32]
        let post: [Int32]

        /// Whether a path from a root leads to `node`.
        package func isReachable(_ node: Int) -> Bool { idom[node] != -1 }

        /// The immediate dominator of `node`; nil when only the virtual root dominates it and when unreachable.
        package func immediateDominator(of node: Int) -> Int? { idom[node] >= 0 ? Int(idom[node]) : nil }

        /// Whether every path from a root to `node` passes through `dominator` (a node dominates itself); false
        /// when either is unreachable.
        package func dominates(_ dominator: Int, _ node: Int) -> Bool {
            guard idom[dominator] != -1, idom[node] != -1 else { return false }
            return pre[dominator] <= pre[node] && post[node] <= post[dominator]
        }
    }

    /// Dominators of the nodes reachable from `roots` (Lengauer–Tarjan with path compression, iterative).
    package static func dominators(in graph: Graph, roots: [Int]) -> Dominators {
        graph.withAdjacency { forward, backward in dominators(nodeCount: graph.nodeCount, forward: forward, backward: backward, roots: roots) }
    }

    /// `dominators(in:roots:)` over the graph's lists read in place.
    private static func dominators(nodeCount n: Int, forward: Digraph.Adjacency, backward: Digraph.Adjacency, roots: [Int]) -> Dominators {
        let virtual = n
        // Depth-first numbering from the virtual root; `vertex[i]` is the node numbered i.
        var number = [Int32](repeating: -1, count: n + 1)
        var vertex: [Int] = []
        var parent: [Int32] = []
        vertex.reserveCapacity(n + 1)
        parent.reserveCapacity(n + 1)
        number[virtual] = 0
        vertex.append(virtual)
        parent.append(-1)
        var stack: [(node: Int, next: Int)] = []
        stack.reserveCapacity(n + 1)
        stack.append((virtual, 0))
        let distinctRoots = roots.filter { $0 >= 0 && $0 < n }
        while let (node, next) = stack.last {
            let successors = node == virtual ? nil : forward.successors(of: node)
            if next < successors?.count ?? distinctRoots.count {
                stack[stack.count - 1].next += 1
                let w = successors.map { Int($0[$0.startIndex + next]) } ?? distinctRoots[next]
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
                for predecessor in backward.successors(of: node) {
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
        children.withAdjacency { children in
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
    package static func reaches(in graph: Graph, pairs: [(from: Int, to: Int)]) -> [Bool] {
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
            graph.forward.withAdjacency { forward in
                for c in stride(from: top, through: bottom, by: -1) where mask[c] != 0 {
                    for v in members[start[c]..<start[c + 1]] {
                        for w in forward.successors(of: v) {
                            let d = Int(component[Int(w)])
                            if d != c && d >= bottom { mask[d] |= mask[c] }
                        }
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
        // Each node is pushed at most once: capacity for all of them (touched only as far as the search goes) spares
        // a deep search the copies, and the freed buffers, of growing by doubling.
        var postorder: [Int] = []
        postorder.reserveCapacity(graph.nodeCount)
        var stack: [(node: Int, edge: Int32)] = []
        stack.reserveCapacity(graph.nodeCount)
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
