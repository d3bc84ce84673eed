import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool
import FlowGen

/// The renames `flowkit diff` recognises (docs/format.md, "Renames"): examples on the sample flow, and the properties
/// that a rename is never made up and that a step renamed alone is found when there is enough to compare.
@Suite("Flow renames")
struct FlowRenamesTests {
    static func flow(_ text: String, file: String) throws -> Flow {
        let document = FlowLoader.load(bytes: Array(text.utf8), file: file, format: file.hasSuffix(".json") ? .json : .yaml)
        #expect(document.diagnostics.filter { $0.severity == .error }.isEmpty, "\(document.diagnostics.map(\.message))")
        return try #require(document.flow)
    }

    static func transfer() throws -> String {
        try String(contentsOfFile: packageRoot + "/flows/transfer.yaml", encoding: .utf8)
    }

    /// Two steps in a row renamed: the first is recognised by its title and references, the second, whose only
    /// reference comes from the first, in the next round.
    @Test func aChainOfRenamedStepsIsFollowed() throws {
        let text = try Self.transfer()
        let renamed = text.replacingOccurrences(of: "  tariffs:\n", with: "  chooseTariff:\n")
            .replacingOccurrences(of: "step: tariffs", with: "step: chooseTariff")
            .replacingOccurrences(of: "next: tariffs", with: "next: chooseTariff")
            .replacingOccurrences(of: "{ back: tariffs }", with: "{ back: chooseTariff }")
            .replacingOccurrences(of: "next: confirmation", with: "next: confirm")
            .replacingOccurrences(of: "  confirmation:\n", with: "  confirm:\n")
        let changes = FlowDiff.compare(old: try Self.flow(text, file: "old.yaml"), new: try Self.flow(renamed, file: "new.yaml"))
        let renames = changes.filter { $0.check == .stepRenamed }.map(\.message)
        #expect(renames == ["step 'tariffs' renamed to 'chooseTariff' (confidence 100%: same title, transitions, references and body)",
                            "step 'confirmation' renamed to 'confirm' (confidence 100%: same title, transitions and references)"])
        #expect(!changes.contains { [.stepAdded, .stepRemoved, .transitionRetargeted, .entryStepChanged, .stepUnreachable].contains($0.check) },
                "\(changes.map(\.message))")
        #expect(changes.allSatisfy { $0.level == .breaking })
    }

    /// A renamed step whose title changed too is a rename with less confidence, and the title change is reported.
    @Test func aRenameWithAnotherTitleIsLessSure() throws {
        let text = try Self.transfer()
        let renamed = text.replacingOccurrences(of: "  success:\n    title: Transfer sent", with: "  sent:\n    title: Money sent")
            .replacingOccurrences(of: "confirmationContinue: success", with: "confirmationContinue: sent")
        let changes = FlowDiff.compare(old: try Self.flow(text, file: "old.yaml"), new: try Self.flow(renamed, file: "new.yaml"))
        #expect(changes.map(\.check) == [.stepRenamed, .stepTitleChanged])
        #expect(changes.first?.message == "step 'success' renamed to 'sent' (confidence 66%: same transitions and references; title differs)")
        let renames = FlowRenames.find(old: try Self.flow(text, file: "old.yaml"), new: try Self.flow(renamed, file: "new.yaml"))
        #expect(renames.steps.map(\.confidence) == [66])
    }

    /// Two look-alike steps (nothing moves to them) both renamed: either pairing is as good, so neither is a rename.
    @Test func lookAlikesAreNotPairedAtRandom() throws {
        let old = """
            flowkit: 1
            flow: t
            start: a
            steps:
              a: { next: done }
              b: { title: Same, next: done }
              c: { title: Same, next: done }
              done: { kind: finish }
            """
        let new = old.replacingOccurrences(of: "  b: {", with: "  x: {").replacingOccurrences(of: "  c: {", with: "  y: {")
        let changes = FlowDiff.compare(old: try Self.flow(old, file: "old.yaml"), new: try Self.flow(new, file: "new.yaml"))
        #expect(!changes.contains { $0.check == .stepRenamed }, "\(changes.map(\.message))")
        #expect(changes.filter { $0.check == .stepAdded }.count == 2)
    }

    /// Renames `names` everywhere a step is named: the step, `start`, entries and every move.
    static func renaming(_ flow: FlowBlueprint, _ names: [String: String]) -> FlowBlueprint {
        func rename(_ target: TargetBlueprint) -> TargetBlueprint {
            var target = target
            switch target.move {
            case .forward(let name): target.move = .forward(names[name] ?? name)
            case .back(let name): target.move = .back(names[name] ?? name)
            case .backOne, .restart: break
            }
            return target
        }
        func rename(_ step: StepBlueprint) -> StepBlueprint {
            var step = step
            step.name = names[step.name] ?? step.name
            step.on = step.on.map { HandlerBlueprint($0.event, $0.targets.map(rename)) }
            step.next = step.next?.map(rename)
            return step
        }
        var flow = flow
        flow.start = names[flow.start] ?? flow.start
        flow.entries = flow.entries.map { EntryBlueprint(name: $0.name, step: names[$0.step] ?? $0.step, parameters: $0.parameters) }
        flow.steps = flow.steps.map(rename)
        flow.anyStep = flow.anyStep.map(rename)
        return flow
    }

    /// Properties over generated flows with one to three steps renamed (and nothing else changed): every rename
    /// reported is one that was made, at 100% (nothing else changed), and a step renamed alone is found whenever
    /// at least two of its transitions, references and body are there to compare. Outcomes renamed with a finish
    /// step (its outcome is its name) are the only other changes.
    @Test func renamesAreNeverMadeUpAndALoneRenameIsFound() throws {
        var found = 0
        var compared = 0
        for seed in UInt64(1)...300 {
            let file = BlueprintGenerator.bundle(seed: seed).main
            let document = FlowLoader.load(bytes: Array(file.text.utf8), file: file.name)
            guard let old = document.flow, document.diagnostics.allSatisfy({ $0.severity != .error }), !file.flow.steps.isEmpty else { continue }
            var rng = SplitMix64(seed: seed)
            let count = seed % 3 == 0 ? 1 : rng.int(in: 1...3)
            var names: [String: String] = [:]
            for _ in 0..<count { let step = rng.pick(file.flow.steps).name; names[step] = "renamed_" + step }
            let changed = FlowBundle.File(name: file.name, flow: Self.renaming(file.flow, names))
            let new = try Self.flow(changed.text, file: file.name)
            let changes = FlowDiff.compare(old: old, new: new)
            let renames = FlowRenames.find(old: old, new: new)
            for rename in renames.steps {
                #expect(names[rename.old.text] == rename.new.text, "seed \(seed): \(rename.old.text) → \(rename.new.text), made \(names)")
            }
            if renames.steps.count == names.count { #expect(renames.steps.allSatisfy { $0.confidence == 100 }, "seed \(seed): \(renames)") }
            #expect(changes.allSatisfy { [.stepRenamed, .outcomeRenamed, .stepAdded, .stepRemoved, .transitionRetargeted, .entryStepChanged,
                                          .startChanged, .outcomeAdded, .outcomeRemoved, .outcomeUnreachable, .outcomeNowReachable].contains($0.check) }, "seed \(seed): \(changes.map(\.message))")
            if renames.steps.count == names.count {
                #expect(changes.allSatisfy { [.stepRenamed, .outcomeRenamed].contains($0.check) }, "seed \(seed): \(changes.map(\.message))")
            }
            if names.count == 1, let (before, after) = names.first {
                let step = try #require(old.steps.first { $0.name.text == before })
                let referenced = old.steps.contains { $0.on.contains { $0.targets.contains { $0.stepName?.text == before } } || ($0.next ?? []).contains { $0.stepName?.text == before } }
                    || (old.anyStep?.on.contains { $0.targets.contains { $0.stepName?.text == before } } ?? false)
                    || old.start.text == before || old.entries.contains { $0.step.text == before }
                let body = step.result != nil || !step.set.isEmpty || step.flowPath != nil || !step.input.isEmpty || step.outcome != nil
                let things = [step.hasTransitions, referenced, body].filter { $0 }.count
                if things >= 2 && (step.hasTransitions || referenced) {
                    #expect(renames.steps.map(\.new.text) == [after], "seed \(seed): \(before) has \(things) things to compare")
                    found += 1
                }
                compared += 1
            }
        }
        print("renames: \(found) of \(compared) steps renamed alone had two things to compare, and each was found")
        #expect(compared >= 50 && found >= 25, "\(found) of \(compared) lone renames found")
    }
}
