import Testing
@testable import FlowKit

/// A graph from an edge list written as pairs.
private func graph(_ nodeCount: Int, _ edges: [(Int32, Int32)]) -> DataFlow.Graph {
    DataFlow.Graph(nodeCount: nodeCount, edges: edges)
}

/// `mustSet`'s answer for every node: the keys set before it, nil when unreachable.
private func mustSet(_ g: DataFlow.Graph, keys: Int, gen: [Int: [Int]], roots: [DataFlow.Root]) -> [[Int]?] {
    let genList = (0..<g.nodeCount).map { gen[$0] ?? [] }
    let answer = DataFlow.mustSet(in: g, keyCount: keys, gen: genList, roots: roots)
    return (0..<g.nodeCount).map { answer.keys(before: $0) }
}

/// Every node's immediate dominator (nil for "only the virtual root"), and whether it is reachable.
private func idoms(_ g: DataFlow.Graph, roots: [Int]) -> [Int?] {
    let d = DataFlow.dominators(in: g, roots: roots)
    return (0..<g.nodeCount).map { d.immediateDominator(of: $0) }
}

@Suite("Data-flow analyses on hand-built graphs")
struct DataFlowTests {
    // MARK: - Must-set

    @Test func chain() {
        // 0 -> 1 -> 2 -> 3; 0 sets key 0, 1 sets key 1, 3 sets key 2 (after it: nobody reads it).
        let g = graph(4, [(0, 1), (1, 2), (2, 3)])
        let answer = mustSet(g, keys: 3, gen: [0: [0], 1: [1], 3: [2]], roots: [.init(node: 0)])
        #expect(answer == [[], [0], [0, 1], [0, 1]])
    }

    @Test func diamond() {
        // 0 -> {1, 2} -> 3; 1 sets keys 1 and 2, 2 sets key 1: only key 1 (and 0's key 0) survive the join.
        let g = graph(4, [(0, 1), (0, 2), (1, 3), (2, 3)])
        let answer = mustSet(g, keys: 3, gen: [0: [0], 1: [1, 2], 2: [1]], roots: [.init(node: 0)])
        #expect(answer == [[], [0], [0], [0, 1]])
    }

    @Test func loopKeepsWhatIsSetBeforeIt() {
        // 0 -> 1 -> 2 -> 1 (the loop), 2 -> 3. Key 0 is set before the loop, key 1 inside it: at the loop head
        // only key 0 is set (the first time round key 1 is not); after the loop both are. The greatest fixed
        // point keeps key 0 at 1 and 2 although 1 is its own ancestor.
        let g = graph(4, [(0, 1), (1, 2), (2, 1), (2, 3)])
        let answer = mustSet(g, keys: 2, gen: [0: [0], 2: [1]], roots: [.init(node: 0)])
        #expect(answer == [[], [0], [0], [0, 1]])
    }

    @Test func backEdgeCannotAddAKeyTheFirstVisitLacks() {
        // 0 -> 1 -> 2 -> 3 -> 1: key 5 is set at 2, so the edge 3 -> 1 carries it, but the first arrival from 0
        // does not: at 1 it is unset; at 3 it is set.
        let g = graph(4, [(0, 1), (1, 2), (2, 3), (3, 1)])
        let answer = mustSet(g, keys: 6, gen: [2: [5]], roots: [.init(node: 0)])
        #expect(answer == [[], [], [], [5]])
    }

    @Test func twoEntries() {
        // Runs start at 0 (nothing set) or at 2 (key 1 set, as an entry's path parameter). 0 -> 1 -> 2 -> 3,
        // 1 sets keys 0 and 1. At 2: {0, 1} from 1 met with {1} from the entry.
        let g = graph(4, [(0, 1), (1, 2), (2, 3)])
        let answer = mustSet(g, keys: 2, gen: [1: [0, 1]], roots: [.init(node: 0), .init(node: 2, keys: [1])])
        #expect(answer == [[], [], [1], [1]])
        // A node that is the root of two starts keeps what both set.
        let twice = mustSet(g, keys: 4, gen: [:], roots: [.init(node: 2, keys: [1, 3]), .init(node: 2, keys: [1])])
        #expect(twice == [nil, nil, [1], [1]])
    }

    @Test func unreachableNodesTakeNoPart() {
        // 4 -> 3 and 4 sets nothing, but nobody reaches 4: 3 keeps what 0 -> 1 -> 3 set. 5 is isolated.
        let g = graph(6, [(0, 1), (1, 3), (4, 3)])
        let answer = mustSet(g, keys: 1, gen: [1: [0]], roots: [.init(node: 0)])
        #expect(answer == [[], [], nil, [0], nil, nil])
    }

    @Test func selfLoop() {
        // 0 -> 1 -> 1 -> 2: 1 sets key 1; its own edge back to itself does not lose key 0.
        let g = graph(3, [(0, 1), (1, 1), (1, 2)])
        let answer = mustSet(g, keys: 2, gen: [0: [0], 1: [1]], roots: [.init(node: 0)])
        #expect(answer == [[], [0], [0, 1]])
    }

    @Test func keysBeyondOneWord() {
        // 130 keys take three words: keys 64 and 129 set on both branches, key 0 on one only.
        let g = graph(4, [(0, 1), (0, 2), (1, 3), (2, 3)])
        let answer = mustSet(g, keys: 130, gen: [1: [0, 64, 129], 2: [64, 129]], roots: [.init(node: 0)])
        #expect(answer == [[], [], [], [64, 129]])
    }

    @Test func unsetPathsAreShortestWitnesses() {
        // The diamond again: key 2 is set on 0 -> 1 -> 3 but not on 0 -> 2 -> 3.
        let g = graph(4, [(0, 1), (0, 2), (1, 3), (2, 3)])
        let gen: [[Int]] = [[0], [1, 2], [1], []]
        let key2 = DataFlow.unsetPaths(in: g, key: 2, gen: gen, roots: [.init(node: 0)])
        #expect(key2.path(to: 3) == [0, 2, 3])
        #expect(key2.path(to: 0) == [0])
        // Key 0 is set by the root itself: unset only on entering it.
        let key0 = DataFlow.unsetPaths(in: g, key: 0, gen: gen, roots: [.init(node: 0)])
        #expect(key0.path(to: 0) == [0])
        #expect(key0.path(to: 3) == nil)
        // From an entry that sets key 2 at node 2 and the start at 1: only the start's path is a witness.
        let entries = DataFlow.unsetPaths(in: g, key: 2, gen: [[], [], [], []], roots: [.init(node: 1), .init(node: 2, keys: [2])])
        #expect(entries.path(to: 3) == [1, 3])
        #expect(entries.path(to: 2) == nil)
    }

    // MARK: - Dominators

    @Test func dominatorsOfAChainAndADiamond() {
        #expect(idoms(graph(3, [(0, 1), (1, 2)]), roots: [0]) == [nil, 0, 1])
        let diamond = graph(4, [(0, 1), (0, 2), (1, 3), (2, 3)])
        #expect(idoms(diamond, roots: [0]) == [nil, 0, 0, 0])
        let d = DataFlow.dominators(in: diamond, roots: [0])
        #expect(d.dominates(0, 3))
        #expect(!d.dominates(1, 3))
        #expect(d.dominates(3, 3))
        #expect(!d.dominates(3, 0))
    }

    @Test func dominatorsWithLoopsAndBackEdges() {
        // 0 -> 1 -> 2 -> 1 (back edge), 2 -> 3.
        #expect(idoms(graph(4, [(0, 1), (1, 2), (2, 1), (2, 3)]), roots: [0]) == [nil, 0, 1, 2])
        // An irreducible loop: 1 and 2 are both entered from 0, so neither dominates the other.
        #expect(idoms(graph(3, [(0, 1), (0, 2), (1, 2), (2, 1)]), roots: [0]) == [nil, 0, 0])
        // 0 -> 1 -> {2, 3} -> 4 -> 5 -> {1, 6}, 3 -> 6: 6 is reached from 3 and from 5, so 1 dominates it.
        let nested = graph(7, [(0, 1), (1, 2), (1, 3), (2, 4), (3, 4), (4, 5), (5, 1), (5, 6), (3, 6)])
        #expect(idoms(nested, roots: [0]) == [nil, 0, 1, 1, 1, 4, 1])
        // A self-loop changes nothing.
        #expect(idoms(graph(2, [(0, 0), (0, 1)]), roots: [0]) == [nil, 0])
    }

    @Test func dominatorsWithTwoRootsAndUnreachableNodes() {
        // Roots 0 and 3: 0 -> 1 -> 2, 3 -> 2. Only the virtual root dominates 2. Node 4 -> 1 is unreachable.
        let g = graph(5, [(0, 1), (1, 2), (3, 2), (4, 1)])
        let d = DataFlow.dominators(in: g, roots: [0, 3])
        #expect((0..<5).map { d.immediateDominator(of: $0) } == [nil, 0, nil, nil, nil])
        #expect((0..<5).map { d.isReachable($0) } == [true, true, true, true, false])
        #expect(d.dominates(0, 1))
        #expect(!d.dominates(0, 2))
        #expect(!d.dominates(1, 2))
        #expect(!d.dominates(4, 1))
        #expect(!d.dominates(4, 4))
    }

    @Test func dominatorsNeedingTheSemidominatorCorrection() {
        // 0 -> 1 -> 2 -> 3 -> 4, 0 -> 5 -> 3, 1 -> 4. The semidominator of 4 is 1, but 3 can be reached without
        // 1, so 4's immediate dominator is 0; 3's is 0 too.
        let g = graph(6, [(0, 1), (1, 2), (2, 3), (3, 4), (0, 5), (5, 3), (1, 4)])
        #expect(idoms(g, roots: [0]) == [nil, 0, 1, 0, 0, 0])
    }

    @Test func pathsAvoidingANode() {
        let diamond = graph(4, [(0, 1), (0, 2), (1, 3), (2, 3)])
        #expect(DataFlow.pathsAvoiding(1, in: diamond, roots: [0]).path(to: 3) == [0, 2, 3])
        #expect(DataFlow.pathsAvoiding(1, in: diamond, roots: [0]).path(to: 1) == nil)
        #expect(DataFlow.pathsAvoiding(0, in: diamond, roots: [0]).path(to: 3) == nil)
        #expect(DataFlow.pathsAvoiding(0, in: diamond, roots: [0, 2]).path(to: 3) == [2, 3])
    }

    // MARK: - Reachability

    @Test func reachesThroughComponents() {
        // 0 -> 1 <-> 2 -> 3 <- 4, and 5 alone.
        let g = graph(6, [(0, 1), (1, 2), (2, 1), (2, 3), (4, 3)])
        let pairs: [(from: Int, to: Int)] = [(0, 3), (3, 0), (2, 1), (1, 2), (4, 0), (1, 1), (5, 5), (5, 3), (4, 3)]
        #expect(DataFlow.reaches(in: g, pairs: pairs) == [true, false, true, true, false, true, true, false, true])
        #expect(DataFlow.reaches(in: g, pairs: []) == [])
    }

    @Test func reachesWithManySources() {
        // A chain of 150 nodes: 150 distinct sources take three sweeps of 64.
        let g = graph(150, (0..<149).map { (Int32($0), Int32($0 + 1)) })
        let forward = (0..<149).map { (from: $0, to: $0 + 1) }
        let backward = (0..<149).map { (from: $0 + 1, to: $0) }
        let answers = DataFlow.reaches(in: g, pairs: forward + backward + [(from: 0, to: 149)])
        #expect(answers == Array(repeating: true, count: 149) + Array(repeating: false, count: 149) + [true])
    }

    // MARK: - Against brute force on random graphs

    @Test func randomGraphsAgreeWithBruteForce() {
        var random = DataFlowRandom(seed: 7)
        for round in 0..<200 {
            let n = 1 + Int(random.next() % 12)
            let edgeCount = Int(random.next() % UInt64(3 * n + 1))
            let edges = (0..<edgeCount).map { _ in (Int32(random.next() % UInt64(n)), Int32(random.next() % UInt64(n))) }
            let g = graph(n, edges)
            let roots = Array(Set((0..<(1 + Int(random.next() % 2))).map { _ in Int(random.next() % UInt64(n)) })).sorted()
            let keys = 3
            let gen = (0..<n).map { _ in (0..<keys).filter { _ in random.next() % 3 == 0 } }
            let rootKeys = roots.map { DataFlow.Root(node: $0, keys: (0..<keys).filter { _ in random.next() % 2 == 0 }) }

            // Reachability by depth-first search, optionally avoiding one node.
            func reachable(from sources: [Int], avoiding: Int? = nil) -> Set<Int> {
                var seen: Set<Int> = []
                var stack = sources.filter { $0 != avoiding }
                while let v = stack.popLast() {
                    guard seen.insert(v).inserted else { continue }
                    for (a, b) in edges where Int(a) == v && Int(b) != avoiding { stack.append(Int(b)) }
                }
                return seen
            }
            let live = reachable(from: roots)

            // Must-set against "a path from a root that lacks the key, through nodes that do not set it".
            let must = DataFlow.mustSet(in: g, keyCount: keys, gen: gen, roots: rootKeys)
            for key in 0..<keys {
                var unset: Set<Int> = []
                var stack = rootKeys.filter { !$0.keys.contains(key) }.map(\.node)
                while let v = stack.popLast() {
                    guard unset.insert(v).inserted, !gen[v].contains(key) else { continue }
                    for (a, b) in edges where Int(a) == v { stack.append(Int(b)) }
                }
                let paths = DataFlow.unsetPaths(in: g, key: key, gen: gen, roots: rootKeys)
                for v in 0..<n {
                    #expect(must.isReachable(v) == live.contains(v), "round \(round)")
                    if live.contains(v) {
                        #expect(must.isSet(key, before: v) == !unset.contains(v), "round \(round) node \(v) key \(key)")
                    }
                    #expect(paths.hasPath(to: v) == unset.contains(v), "round \(round)")
                }
            }

            // Dominators against "removing d cuts every root's path to v".
            let d = DataFlow.dominators(in: g, roots: roots)
            for dominator in 0..<n {
                let without = reachable(from: roots, avoiding: dominator)
                for v in 0..<n {
                    let expected = live.contains(v) && live.contains(dominator) && (v == dominator || !without.contains(v))
                    #expect(d.dominates(dominator, v) == expected, "round \(round): \(dominator) dom \(v)")
                }
            }

            // Reachability questions against depth-first search.
            let pairs = (0..<n).flatMap { a in (0..<n).map { (from: a, to: $0) } }
            let answers = DataFlow.reaches(in: g, pairs: pairs)
            for (index, pair) in pairs.enumerated() {
                #expect(answers[index] == reachable(from: [pair.from]).contains(pair.to), "round \(round)")
            }
        }
    }
}

/// A small deterministic random number generator for the property tests.
private struct DataFlowRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
