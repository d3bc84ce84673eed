@testable import FlowKit
import FlowGen
import Foundation
import Testing

/// `shadowed_event` against the engine: on random derived events over ints, enums, bools and optional keys, an event
/// the rule reports is never raised at that step, over a grid of states and results wider than every class the
/// literals make; and every other event that can hold there alone is raised by some point of the grid.
@Suite("Shadowed events")
struct ShadowedEventRuleTests {
    static func atom(_ rng: inout SplitMix64) -> String {
        let op = rng.pick(["<", "<=", ">", ">=", "==", "!="])
        switch rng.below(5) {
        case 0: return "state.n \(op) \(rng.int(in: -2...2))"
        case 1: return "result.v == '\(rng.pick(["a", "b", "c"]))'"
        case 2: return "result.v in [" + ["'a'", "'b'", "'c'"].filter { _ in rng.chance(0.6) }.joined(separator: ", ") + "]"
        case 3: return rng.pick(["state.f", "!state.f"])
        default: return rng.pick(["exists(state.o)", "!exists(state.o)", "exists(state.o) && state.o > \(rng.int(in: -2...2))"])
        }
    }

    static func condition(_ rng: inout SplitMix64) -> String {
        switch rng.below(4) {
        case 0: return "\(atom(&rng)) && \(atom(&rng))"
        case 1: return "\(atom(&rng)) || \(atom(&rng))"
        default: return atom(&rng)
        }
    }

    static let grid: [(state: [String: Value], result: [String: Value])] = {
        var points: [(state: [String: Value], result: [String: Value])] = []
        for n in -4...4 {
            for v in ["a", "b", "c"] {
                for f in [false, true] {
                    for o: Value? in [nil, .int(-4), .int(0), .int(3)] {
                        var state: [String: Value] = ["n": .int(Int64(n)), "f": .bool(f)]
                        if let o { state["o"] = o }
                        points.append((state, ["v": .string(v)]))
                    }
                }
            }
        }
        return points
    }()

    @Test func reportedEventsAreNeverRaisedAndTheOthersAre() throws {
        var rng = SplitMix64(seed: 0xE7E7)
        var reported = 0
        var raised = 0
        for round in 0..<250 {
            let count = rng.int(in: 2...4)
            let conditions = (0..<count).map { _ in Self.condition(&rng) }
            // Often an event narrower than one before it, as apps write them.
            var events = conditions
            if rng.chance(0.6) { events.append("(\(rng.pick(conditions))) && \(Self.atom(&rng))") }
            let names = events.indices.map { "e\($0)" }
            let yaml = """
                flowkit: 1
                flow: events
                start: ask
                state: { n: int, f: bool, o: int? }
                inputs: [n, f]
                events:
                \(zip(names, events).map { "  \($0): \"\($1)\"" }.joined(separator: "\n"))
                steps:
                  ask:
                    result: { v: [a, b, c] }
                    on: { \(names.map { "\($0): done" }.joined(separator: ", ")) }
                    next: done
                  done: { kind: finish }
                """
            let document = FlowLoader.load(bytes: Array(yaml.utf8), file: "events.yaml")
            let findings = Linter.lint(document).filter { $0.rule == .shadowedEvent && $0.step == "ask" }
            let shadowed = Set(findings.compactMap(\.subject))
            let flow = try CompiledFlow(flow: try #require(document.flow))
            var raisedEvents = Set<String>()
            for point in Self.grid {
                var run = try FlowRun(flow: flow, start: .start(state: point.state))
                try run.complete(result: point.result)
                if let event = run.trace.last?.event { raisedEvents.insert(event) }
            }
            for name in shadowed {
                reported += 1
                #expect(!raisedEvents.contains(name), "round \(round): '\(name)' was raised\n\(yaml)")
            }
            // An event that holds somewhere on the grid, that the rule does not report, and whose conditions (its
            // and the earlier ones) are decided, is raised somewhere.
            let parsed = try events.map { try ExpressionParser.parse($0).get() }
            let types = try #require(document.flow).stateTypes
            for (index, name) in names.enumerated() where !shadowed.contains(name) {
                let scopes = Self.grid.map { EvaluationScope(state: $0.state, stateTypes: types, result: $0.result, resultTypes: ["v": TypeRef(base: .enumeration(["a", "b", "c"]), optional: false, position: .start)]) }
                let holdsSomewhere = scopes.contains { (try? parsed[index].evaluateCondition(in: $0)) == true }
                let earlierFail = scopes.contains { scope in parsed[..<index].contains { (try? $0.evaluateCondition(in: scope)) == nil } }
                guard holdsSomewhere, !earlierFail else { continue }
                raised += 1
                #expect(raisedEvents.contains(name), "round \(round): '\(name)' is not reported but never raised\n\(yaml)")
            }
        }
        #expect(reported > 40 && raised > 200, "reported \(reported), raised \(raised)")
    }
}
