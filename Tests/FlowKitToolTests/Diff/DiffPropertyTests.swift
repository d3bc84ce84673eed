import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool
import FlowGen

/// Properties of `flowkit diff` over generated flows and random edits of them (renames, removed and added steps,
/// retargeted options, changed conditions, reordered lists), not only over the examples of each check.
@Suite("Flow change properties")
struct DiffPropertyTests {
    /// `flow` with a few random edits; the same seed always makes the same edits.
    static func edited(_ flow: FlowBlueprint, seed: UInt64) -> FlowBlueprint {
        var rng = SplitMix64(seed: seed)
        var flow = flow
        func allTargets(_ body: (inout TargetBlueprint) -> Void) {
            for index in flow.steps.indices {
                for handler in flow.steps[index].on.indices { for target in flow.steps[index].on[handler].targets.indices { body(&flow.steps[index].on[handler].targets[target]) } }
                if flow.steps[index].next != nil { for target in flow.steps[index].next!.indices { body(&flow.steps[index].next![target]) } }
            }
        }
        for _ in 0..<rng.int(in: 1...4) {
            guard !flow.steps.isEmpty else { break }
            switch rng.below(5) {
            case 0: // rename a step everywhere
                let name = rng.pick(flow.steps).name
                flow = FlowRenamesTests.renaming(flow, [name: name + "_x"])
            case 1: // remove a step that is not the start, sending what went there to the start
                let candidates = flow.steps.filter { $0.name != flow.start }
                guard let removed = rng.pickIfAny(candidates)?.name else { continue }
                flow.steps.removeAll { $0.name == removed }
                flow.entries.removeAll { $0.step == removed }
                let start = flow.start
                allTargets { target in
                    switch target.move {
                    case .forward(removed): target.move = .forward(start)
                    case .back(removed): target.move = .restart
                    default: break
                    }
                }
            case 2: // add a step that goes to an existing one, and an option to it
                let to = rng.pick(flow.steps).name
                let name = "added\(rng.below(1000))"
                guard !flow.steps.contains(where: { $0.name == name }) else { continue }
                flow.steps.insert(StepBlueprint(name: name, next: [TargetBlueprint(.forward(to))]), at: rng.below(flow.steps.count + 1))
                let from = rng.below(flow.steps.count)
                if flow.steps[from].name != name, !flow.steps[from].isFinish, flow.steps[from].next != nil {
                    flow.steps[from].next!.insert(TargetBlueprint(.forward(name), condition: "state.amount > \(rng.below(50))"), at: 0)
                }
            case 3: // change conditions
                allTargets { target in if target.condition != nil, rng.chance(0.5) { target.condition = "true" } }
            default: // reverse a step's own lists
                let index = rng.below(flow.steps.count)
                flow.steps[index].next?.reverse()
                for handler in flow.steps[index].on.indices { flow.steps[index].on[handler].targets.reverse() }
            }
        }
        return flow
    }

    static func load(_ blueprint: FlowBlueprint, name: String) -> Flow? {
        let text = FlowBundle.File(name: name, flow: blueprint).text
        let document = FlowLoader.load(bytes: Array(text.utf8), file: name)
        guard let flow = document.flow, document.diagnostics.allSatisfy({ $0.severity != .error }) else { return nil }
        return flow
    }

    /// For every generated flow A and random edit B of it: A against itself has no changes; B against A gives the
    /// changes of A against B with added and removed swapped (renames both ways); the picture of each direction
    /// builds, draws each step added one way as a ghost the other way, and every change's step in colour.
    @Test func aChangeAndItsReverseAgreeOnGeneratedFlows() throws {
        func swapped(_ check: ChangeCheck) -> ChangeCheck {
            let raw = check.rawValue
            if raw.hasSuffix("_added") { return ChangeCheck(rawValue: raw.replacingOccurrences(of: "_added", with: "_removed"))! }
            if raw.hasSuffix("_removed") { return ChangeCheck(rawValue: raw.replacingOccurrences(of: "_removed", with: "_added"))! }
            switch check {
            case .stepUnreachable: return .stepNowReachable
            case .stepNowReachable: return .stepUnreachable
            case .outcomeUnreachable: return .outcomeNowReachable
            case .outcomeNowReachable: return .outcomeUnreachable
            default: return check
            }
        }
        // `handler_removed` has no twin: a handler added breaks no one.
        func key(_ change: FlowChange, swap: Bool) -> String? {
            guard change.check != .handlerRemoved else { return nil }
            let (old, new) = swap ? (change.new, change.old) : (change.old, change.new)
            return "\(swap ? swapped(change.check) : change.check) \(old.map { "\($0.line):\($0.column)" } ?? "-") \(new.map { "\($0.line):\($0.column)" } ?? "-")"
        }
        var compared = 0
        var changed = 0
        var breaking = 0
        for seed in UInt64(1)...400 {
            let file = BlueprintGenerator.bundle(seed: seed).main
            guard let a = Self.load(file.flow, name: file.name) else { continue }
            #expect(FlowDiff.compare(old: a, new: a).isEmpty, "seed \(seed)")
            guard let b = Self.load(Self.edited(file.flow, seed: seed &* 31), name: file.name) else { continue }
            let forward = FlowDiff.compare(old: a, new: b)
            let backward = FlowDiff.compare(old: b, new: a)
            #expect(forward.compactMap { key($0, swap: false) }.sorted() == backward.compactMap { key($0, swap: true) }.sorted(), "seed \(seed)")
            let there = try FlowDiagram(change: a, to: b)
            let back = try FlowDiagram(change: b, to: a)
            let added = there.nodes.filter { $0.change == .added && $0.step != nil }.count
            #expect(added == back.nodes.filter { $0.change == .removed && ![.backMarker, .entry, .anyStep, .failureNote].contains($0.role) }.count, "seed \(seed)")
            // Every breaking change is in the picture, whole or focused (issue 29).
            breaking += forward.filter { $0.level == .breaking }.count
            for change in forward where change.level == .breaking {
                #expect(ChangePictureTests.shows(change, in: there), "seed \(seed): \(change.message)")
            }
            let focused = try FlowDiagram(change: a, to: b, options: DiagramOptions(radius: 0), focusOnChanges: true)
            let mermaid = MermaidWriter.write(focused)
            #expect(mermaid.contains("stateDiagram-v2") && !mermaid.contains("```"))
            for change in forward where change.level == .breaking {
                #expect(ChangePictureTests.shows(change, in: focused), "seed \(seed), focused: \(change.message)")
            }
            for node in there.nodes where [.added, .changed].contains(node.change) && node.step != nil {
                #expect(focused.nodes.contains { $0.step == node.step }, "seed \(seed): \(node.label)")
            }
            compared += 1
            if !forward.isEmpty { changed += 1 }
        }
        print("diff properties: \(compared) generated flows and edits compared, \(changed) with changes, \(breaking) breaking changes drawn")
        #expect(compared >= 100 && changed >= 80 && breaking >= 50)
    }
}
