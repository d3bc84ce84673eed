import FlowGen
import Testing
@testable import FlowKit

/// A step keeps its fields in one copy-on-write box: on every step and target of generated flows, a value reads
/// back what it was made with, a field written and written back leaves a value equal to the original with the same
/// hash, a value whose optional fields are all cleared equals one made without them, and a write to a copy never
/// reaches the original.
struct ModelStorageTests {
    private static func hashOf<T: Hashable>(_ value: T) -> Int {
        var hasher = Hasher()
        value.hash(into: &hasher)
        return hasher.finalize()
    }

    private static func flows() -> [Flow] {
        (UInt64(0)..<120).flatMap { seed in
            BlueprintGenerator.bundle(seed: seed).files.compactMap { FlowLoader.load(bytes: Array($0.text.utf8), file: $0.name).flow }
        }
    }

    private static let otherCondition = ExpressionSource(text: "state.other == 1", position: SourcePosition(line: 9, column: 9))
    private static let otherSet = [Assignment(key: Name("other", at: .start),
                                              expression: ExpressionSource(text: "1", position: .start))]

    @Test func targetsKeepTheirFieldsAndStoreEqualValuesAlike() {
        var targets = 0
        var guarded = 0
        for flow in Self.flows() {
            for step in flow.steps + (flow.anyStep.map { [$0] } ?? []) {
                var lists: [[Target]] = []
                StepGraph.forEachTargetList(of: step) { _, list in lists.append(list) }
                for target in lists.joined() {
                    targets += 1
                    if target.condition != nil || !target.set.isEmpty { guarded += 1 }
                    let rebuilt = Target(move: target.move, condition: target.condition, set: target.set, position: target.position)
                    #expect(rebuilt == target)
                    #expect(Self.hashOf(rebuilt) == Self.hashOf(target))

                    var written = target
                    written.condition = Self.otherCondition
                    written.set = Self.otherSet
                    #expect(written.condition == Self.otherCondition && written.set == Self.otherSet)
                    #expect(written.move == target.move && written.position == target.position)
                    #expect(target.condition == rebuilt.condition && target.set == rebuilt.set, "a copy's write reached the original")
                    written.condition = target.condition
                    written.set = target.set
                    #expect(written == target)
                    #expect(Self.hashOf(written) == Self.hashOf(target))

                    // Cleared in both orders, so that each setter is the one that leaves both fields absent.
                    let plain = Target(move: target.move, position: target.position)
                    var clearedSetLast = target
                    clearedSetLast.set = Self.otherSet
                    clearedSetLast.condition = nil
                    clearedSetLast.set = []
                    var clearedConditionLast = target
                    clearedConditionLast.condition = Self.otherCondition
                    clearedConditionLast.set = []
                    clearedConditionLast.condition = nil
                    for cleared in [clearedSetLast, clearedConditionLast] {
                        #expect(cleared == plain)
                        #expect(Self.hashOf(cleared) == Self.hashOf(plain))
                    }

                    // Each field written alone leaves the other as it was.
                    var conditionAlone = target
                    conditionAlone.condition = Self.otherCondition
                    let expectedCondition = Target(move: target.move, condition: Self.otherCondition, set: target.set, position: target.position)
                    #expect(conditionAlone == expectedCondition && Self.hashOf(conditionAlone) == Self.hashOf(expectedCondition))
                    var setAlone = target
                    setAlone.set = Self.otherSet
                    let expectedSet = Target(move: target.move, condition: target.condition, set: Self.otherSet, position: target.position)
                    #expect(setAlone == expectedSet && Self.hashOf(setAlone) == Self.hashOf(expectedSet))
                    // A change in place, as an app would make it.
                    var appended = target
                    appended.set.append(contentsOf: Self.otherSet)
                    #expect(appended.set == target.set + Self.otherSet && appended.condition == target.condition)
                    #expect(target.set == rebuilt.set, "an append to a copy reached the original")
                }
            }
        }
        #expect(targets > 1_000 && guarded > 50, "the generator made \(targets) targets, \(guarded) with a condition or set")
    }

    @Test func stepsKeepTheirFieldsAndStoreEqualValuesAlike() {
        var steps = 0
        var seldom = 0
        for flow in Self.flows() {
            for step in flow.steps {
                steps += 1
                if step.description != nil || step.outcome != nil || step.flowPath != nil || !step.input.isEmpty || step.suppression != nil {
                    seldom += 1
                }
                let rebuilt = Step(name: step.name, kind: step.kind, title: step.title, description: step.description, result: step.result,
                                   set: step.set, on: step.on, next: step.next, outcome: step.outcome, flowPath: step.flowPath,
                                   flowPathPosition: step.flowPathPosition, input: step.input, suppression: step.suppression)
                #expect(rebuilt == step)
                #expect(Self.hashOf(rebuilt) == Self.hashOf(step))

                var written = step
                written.description = "written"
                written.outcome = Name("written", at: .start)
                written.flowPath = "written.json"
                written.flowPathPosition = SourcePosition(line: 7, column: 7)
                written.input = Self.otherSet
                written.suppression = Suppression(rules: [], reason: "written", position: .start)
                #expect(written.description == "written" && written.flowPath == "written.json" && written.input == Self.otherSet)
                #expect(written.name == step.name && written.next == step.next && written.on == step.on && written.set == step.set)
                #expect(step == rebuilt, "a copy's write reached the original")
                written.description = step.description
                written.outcome = step.outcome
                written.flowPath = step.flowPath
                written.flowPathPosition = step.flowPathPosition
                written.input = step.input
                written.suppression = step.suppression
                #expect(written == step)
                #expect(Self.hashOf(written) == Self.hashOf(step))

                var cleared = written
                cleared.description = nil
                cleared.outcome = nil
                cleared.flowPath = nil
                cleared.flowPathPosition = nil
                cleared.input = []
                cleared.suppression = nil
                let plain = Step(name: step.name, kind: step.kind, title: step.title, result: step.result, set: step.set, on: step.on,
                                 next: step.next)
                #expect(cleared == plain)
                #expect(Self.hashOf(cleared) == Self.hashOf(plain))

                // Each seldom field written alone leaves the others as they were.
                let writes: [(String, (inout Step) -> Void)] = [
                    ("description", { $0.description = "written" }),
                    ("outcome", { $0.outcome = Name("written", at: .start) }),
                    ("flowPath", { $0.flowPath = "written.json" }),
                    ("flowPathPosition", { $0.flowPathPosition = SourcePosition(line: 7, column: 7) }),
                    ("input", { $0.input.append(contentsOf: Self.otherSet) }),
                    ("suppression", { $0.suppression = Suppression(rules: [], reason: "written", position: .start) }),
                ]
                for (field, write) in writes {
                    var alone = step
                    write(&alone)
                    let expected = Step(name: step.name, kind: step.kind, title: step.title,
                                        description: field == "description" ? "written" : step.description, result: step.result,
                                        set: step.set, on: step.on, next: step.next,
                                        outcome: field == "outcome" ? Name("written", at: .start) : step.outcome,
                                        flowPath: field == "flowPath" ? "written.json" : step.flowPath,
                                        flowPathPosition: field == "flowPathPosition" ? SourcePosition(line: 7, column: 7) : step.flowPathPosition,
                                        input: field == "input" ? step.input + Self.otherSet : step.input,
                                        suppression: field == "suppression" ? Suppression(rules: [], reason: "written", position: .start) : step.suppression)
                    #expect(alone == expected, "writing '\(field)' alone")
                    #expect(Self.hashOf(alone) == Self.hashOf(expected), "writing '\(field)' alone")
                }
                #expect(step == rebuilt, "a copy's write reached the original")

                // A write into a target of a copy's transitions does not reach the original.
                if step.next?.isEmpty == false || step.on.first?.targets.isEmpty == false {
                    var deep = step
                    if deep.next?.isEmpty == false {
                        deep.next![0].set.append(contentsOf: Self.otherSet)
                    } else {
                        deep.on[0].targets[0].condition = Self.otherCondition
                    }
                    #expect(deep != step)
                    #expect(step == rebuilt, "a write through a copy's transitions reached the original")
                }
            }
        }
        #expect(steps > 1_000 && seldom > 50, "the generator made \(steps) steps, \(seldom) with a seldom field")
    }
}
