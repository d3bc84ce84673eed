import FlowGen
import Testing
@testable import FlowKit

/// `StepGraph`'s options on generated flows: each is the forward target it says it is, in node order, found by its
/// node, and no more of them than `forwardOptionCount` reserves.
struct StepGraphOptionTests {
    @Test func optionsAreTheirTargetsInNodeOrderAndFoundByNode() {
        var graphs = 0
        var slotOptions = 0
        for seed in UInt64(0)..<300 {
            for file in BlueprintGenerator.bundle(seed: seed).files {
                guard let flow = FlowLoader.load(bytes: Array(file.text.utf8), file: file.name).flow else { continue }
                let graph = StepGraph(flow: flow)
                graphs += 1
                let context = "\(file.name) of seed \(seed)"
                #expect(graph.options.count <= StepGraph.forwardOptionCount(of: flow, slots: graph.slotTargets), "\(context)")
                for (position, option) in graph.options.enumerated() {
                    if position > 0 { #expect(graph.options[position - 1].node < option.node, "\(context)") }
                    guard case .forward = option.list[option.index].move else {
                        Issue.record("option \(position) of \(context) is not a forward move")
                        continue
                    }
                    switch option.owner {
                    case .step(let id):
                        var lists: [[Target]] = []
                        StepGraph.forEachTargetList(of: flow.steps[id]) { _, list in lists.append(list) }
                        #expect(lists[option.listIndex] == option.list, "\(context)")
                    case .slot(let slot):
                        slotOptions += 1
                        #expect(option.listIndex == 0, "\(context)")
                        #expect(graph.slotTargets[slot] == option.list, "\(context)")
                    }
                }
                for node in 0..<graph.graph.nodeCount {
                    let expected = graph.options.firstIndex { $0.node == node }
                    #expect(graph.optionIndex(ofNode: node) == expected, "node \(node) of \(context)")
                }
            }
        }
        // The generator makes '*' handlers with forward moves, so slot owners are decoded too.
        #expect(graphs > 300)
        #expect(slotOptions > 0)
    }
}
