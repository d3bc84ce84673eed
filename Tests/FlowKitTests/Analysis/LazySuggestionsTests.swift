@testable import FlowKit
import FlowGen
import Testing

/// The flow graph works out its did-you-mean suggestions only once it meets a name that no step has. Whatever the
/// names, they must be the ones `StepSuggestions` gives the whole flow, and the lint context's step graph must be
/// the one built from the repaired flow.
@Suite struct LazySuggestionsTests {
    /// `flow` with some of its names (start, entry steps, forward and back targets) replaced by a near miss of a
    /// step name, a name far from any, or left alone.
    /// Where `misnamed` may change names: each kind alone reaches the graph's suggestions by its own path.
    enum Place: CaseIterable {
        case start, entries, forward, back
    }

    static func misnamed(_ flow: Flow, at places: Set<Place>, _ generator: inout SplitMix64) -> Flow {
        var flow = flow
        let names = flow.steps.map(\.name.text)
        func rename(_ name: Name, _ place: Place) -> Name {
            guard places.contains(place) else { return name }
            switch Int.random(in: 0..<10, using: &generator) {
            case 0: return Name(String(name.text.dropLast()) + "x", at: name.position)
            case 1: return Name("zz_\(Int.random(in: 0..<1_000, using: &generator))", at: name.position)
            case 2: return Name(names.randomElement(using: &generator)! + "s", at: name.position)
            default: return name
            }
        }
        func renameTargets(_ targets: [Target]) -> [Target] {
            targets.map { target in
                var target = target
                switch target.move {
                case .forward(let name): target.move = .forward(rename(name, .forward))
                case .back(let name): target.move = .back(rename(name, .back))
                case .backOne, .restart: break
                }
                return target
            }
        }
        if places.contains(.start) {
            // Always a near miss of a step, so that there is something to suggest.
            flow.start = Name(String(flow.start.text.dropLast()) + "x", at: flow.start.position)
        }
        for index in flow.entries.indices { flow.entries[index].step = rename(flow.entries[index].step, .entries) }
        for index in flow.steps.indices {
            for handler in flow.steps[index].on.indices {
                flow.steps[index].on[handler].targets = renameTargets(flow.steps[index].on[handler].targets)
            }
            if let next = flow.steps[index].next { flow.steps[index].next = renameTargets(next) }
        }
        if flow.anyStep != nil {
            for handler in flow.anyStep!.on.indices { flow.anyStep!.on[handler].targets = renameTargets(flow.anyStep!.on[handler].targets) }
        }
        return flow
    }

    @Test func suggestionsAreTheWholeFlowsWhateverTheNames() throws {
        var generator = SplitMix64(seed: 2026)
        var withSuggestions = 0
        var without = 0
        for seed in 0..<300 {
            let file = BlueprintGenerator.bundle(seed: UInt64(seed)).files[0]
            let loaded = FlowLoader.load(bytes: Array(file.text.utf8), file: file.name, format: file.name.hasSuffix(".json") ? .json : .yaml)
            let written = try #require(loaded.flow)
            // No change, one kind of place alone, or all of them.
            let choice = seed % 6
            let places: Set<Place> = choice == 0 ? [] : choice == 5 ? Set(Place.allCases) : [Place.allCases[choice - 1]]
            let flow = Self.misnamed(written, at: places, &generator)
            let eager = StepSuggestions(flow: flow)
            let graph = FlowGraph(flow: flow)
            #expect(graph.suggestions.byName == eager.byName, "seed \(seed)")
            if eager.byName.isEmpty { without += 1 } else { withSuggestions += 1 }

            var document = loaded
            document.flow = flow
            let context = LintContext(document: document)
            // Compared as booleans: a failure would otherwise print whole flows.
            let analysedAsRepaired = context.analysisFlow == eager.repaired(flow)
            #expect(analysedAsRepaired, "seed \(seed)")
            if let stepGraph = context.stepGraph {
                let stepGraphOfRepaired = stepGraph.flow == eager.repaired(flow)
                #expect(stepGraphOfRepaired, "seed \(seed)")
            }
        }
        // Both kinds of flow are met often.
        #expect(withSuggestions > 50 && without > 50, "\(withSuggestions) with suggestions, \(without) without")
    }

    /// A flow large enough for the graphs to be built side by side, with and without a misspelt target.
    @Test(arguments: [false, true])
    func largeFlowsRepairWhatTheyMisspell(misspelt: Bool) throws {
        let count = Linter.parallelThreshold + 50
        var yaml = "flowkit: 1\nflow: big\nstart: s0\nevents: { go: }\nsteps:\n"
        for index in 0..<count - 1 {
            let target = misspelt && index == 7 ? "s\(index + 1)x" : "s\(index + 1)"
            yaml += "  s\(index): { on: { go: \(target) } }\n"
        }
        yaml += "  s\(count - 1): { kind: finish }\n"
        let document = FlowLoader.load(bytes: Array(yaml.utf8), file: "big.yaml", format: .yaml)
        let flow = try #require(document.flow)
        let eager = StepSuggestions(flow: flow)
        #expect(eager.byName.isEmpty == !misspelt)
        let context = LintContext(document: document)
        #expect(context.graph?.suggestions.byName == eager.byName)
        // Compared as booleans: a failure would otherwise print whole flows.
        let analysedAsRepaired = context.analysisFlow == eager.repaired(flow)
        #expect(analysedAsRepaired)
        let stepGraph = try #require(context.stepGraph)
        let stepGraphOfRepaired = stepGraph.flow == eager.repaired(flow)
        let stepGraphOfWritten = stepGraph.flow == flow
        #expect(stepGraphOfRepaired)
        #expect(stepGraphOfWritten == !misspelt)
    }
}
