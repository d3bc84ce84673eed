/// A directed graph over integer node ids in compressed adjacency form, with the traversals the rules need.
struct Digraph {
    /// `targets[offsets[v] ..< offsets[v + 1]]` are the successors of `v`.
    let offsets: [Int32]
    let targets: [Int32]

    var nodeCount: Int { offsets.count - 1 }

    /// Builds the graph from an edge list.
    init(nodeCount: Int, edges: [(Int32, Int32)]) {
        var offsets = [Int32](repeating: 0, count: nodeCount + 1)
        for (from, _) in edges { offsets[Int(from) + 1] += 1 }
        for v in 0..<nodeCount { offsets[v + 1] += offsets[v] }
        var fill = offsets
        var targets = [Int32](repeating: 0, count: edges.count)
        for (from, to) in edges {
            targets[Int(fill[Int(from)])] = to
            fill[Int(from)] += 1
        }
        self.offsets = offsets
        self.targets = targets
    }

    func successors(of v: Int) -> ArraySlice<Int32> {
        targets[Int(offsets[v])..<Int(offsets[v + 1])]
    }

    /// The adjacency lists read in place. An `ArraySlice` of `successors(of:)` retains the array it slices; in a
    /// loop over a large graph that other rules read on the other cores at the same time, the cores then contend for
    /// the array's reference count (`flowkit-bench rules` alone does not show it, a whole lint does).
    struct Adjacency {
        let offsets: UnsafeBufferPointer<Int32>
        let targets: UnsafeBufferPointer<Int32>

        /// The successors of `v`.
        @inline(__always)
        func successors(of v: Int) -> Slice<UnsafeBufferPointer<Int32>> {
            targets[Int(offsets[v])..<Int(offsets[v + 1])]
        }
    }

    /// `body` over the graph's adjacency lists read in place; they must not escape it.
    @inline(__always)
    func withAdjacency<R>(_ body: (Adjacency) throws -> R) rethrows -> R {
        try offsets.withUnsafeBufferPointer { offsets in
            try targets.withUnsafeBufferPointer { targets in try body(Adjacency(offsets: offsets, targets: targets)) }
        }
    }

    /// The graph with every edge turned around.
    func reversed() -> Digraph {
        var edges: [(Int32, Int32)] = []
        edges.reserveCapacity(targets.count)
        withAdjacency { adjacency in
            for v in 0..<nodeCount {
                for w in adjacency.successors(of: v) { edges.append((w, Int32(v))) }
            }
        }
        return Digraph(nodeCount: nodeCount, edges: edges)
    }

    /// Marks every node reachable from `sources` through nodes that `allowed` accepts (sources included when allowed).
    func reach(from sources: [Int], allowed: (Int) -> Bool = { _ in true }) -> [Bool] {
        var seen = [Bool](repeating: false, count: nodeCount)
        var stack: [Int] = []
        stack.reserveCapacity(nodeCount)
        for s in sources where !seen[s] && allowed(s) {
            seen[s] = true
            stack.append(s)
        }
        withAdjacency { adjacency in
            while let v = stack.popLast() {
                for w in adjacency.successors(of: v) where !seen[Int(w)] && allowed(Int(w)) {
                    seen[Int(w)] = true
                    stack.append(Int(w))
                }
            }
        }
        return seen
    }

    /// Strongly connected components (Tarjan's algorithm, iterative): the component id of every node.
    func stronglyConnectedComponents() -> (component: [Int32], count: Int) {
        let n = nodeCount
        var index = [Int32](repeating: -1, count: n)
        var low = [Int32](repeating: 0, count: n)
        var onStack = [Bool](repeating: false, count: n)
        var component = [Int32](repeating: -1, count: n)
        var stack: [Int32] = []
        stack.reserveCapacity(n)
        var callStack: [(node: Int32, edge: Int32)] = []
        callStack.reserveCapacity(n)
        var nextIndex: Int32 = 0
        var componentCount: Int32 = 0
        for root in 0..<n where index[root] < 0 {
            callStack.append((Int32(root), offsets[root]))
            index[root] = nextIndex
            low[root] = nextIndex
            nextIndex += 1
            stack.append(Int32(root))
            onStack[root] = true
            while let (node, edge) = callStack.last {
                let v = Int(node)
                if edge < offsets[v + 1] {
                    callStack[callStack.count - 1].edge += 1
                    let w = Int(targets[Int(edge)])
                    if index[w] < 0 {
                        index[w] = nextIndex
                        low[w] = nextIndex
                        nextIndex += 1
                        stack.append(Int32(w))
                        onStack[w] = true
                        callStack.append((Int32(w), offsets[w]))
                    } else if onStack[w] {
                        low[v] = min(low[v], index[w])
                    }
                } else {
                    callStack.removeLast()
                    if let parent = callStack.last {
                        low[Int(parent.node)] = min(low[Int(parent.node)], low[v])
                    }
                    if low[v] == index[v] {
                        while let w = stack.popLast() {
                            onStack[Int(w)] = false
                            component[Int(w)] = componentCount
                            if Int(w) == v { break }
                        }
                        componentCount += 1
                    }
                }
            }
        }
        return (component, Int(componentCount))
    }
}

/// A segment tree laid over `count` positions as virtual graph nodes: covering a range of positions costs a
/// logarithmic number of edges, so "every step but these few" needs no edge per step.
struct SegmentCover {
    let count: Int
    let size: Int
    /// The node id of tree index 1 (the root) is `base + 1`.
    let base: Int32

    init(count: Int, base: Int32) {
        var size = 1
        while size < max(count, 1) { size <<= 1 }
        self.count = count
        self.size = size
        self.base = base
    }

    /// How many node ids the tree takes, starting at `base`.
    var nodeSpan: Int { 2 * size }

    func node(_ treeIndex: Int) -> Int32 { base + Int32(treeIndex) }

    /// The virtual node of the leaf at `position`.
    func leaf(_ position: Int) -> Int32 { node(size + position) }

    /// Edges from each internal node to its children.
    func internalEdges(into edges: inout [(Int32, Int32)]) {
        guard size > 1 else { return }
        for treeIndex in 1..<size {
            edges.append((node(treeIndex), node(2 * treeIndex)))
            edges.append((node(treeIndex), node(2 * treeIndex + 1)))
        }
    }

    /// The tree nodes that together cover positions `lower ..< upper`.
    func cover(_ lower: Int, _ upper: Int) -> [Int32] {
        var result: [Int32] = []
        cover(lower, upper, into: &result)
        return result
    }

    /// Appends the tree nodes that together cover positions `lower ..< upper` to `result`.
    func cover(_ lower: Int, _ upper: Int, into result: inout [Int32]) {
        var l = lower + size
        var r = upper + size
        while l < r {
            if l & 1 == 1 { result.append(node(l)); l += 1 }
            if r & 1 == 1 { r -= 1; result.append(node(r)) }
            l >>= 1
            r >>= 1
        }
    }

    /// The tree nodes covering every position except the sorted, distinct `excluded` ones.
    func coverAll(except excluded: [Int]) -> [Int32] {
        cover(0, count, except: excluded)
    }

    /// The tree nodes covering positions `lower ..< upper` except the sorted, distinct `excluded` ones.
    func cover(_ lower: Int, _ upper: Int, except excluded: [Int]) -> [Int32] {
        var result: [Int32] = []
        var from = lower
        for position in excluded where position >= lower && position < upper {
            if position > from { cover(from, position, into: &result) }
            from = position + 1
        }
        if from < upper { cover(from, upper, into: &result) }
        return result
    }
}
