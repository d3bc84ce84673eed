import FlowGen
import Testing
@testable import FlowKit

/// On a large flow the rules run on all cores, longest first (`Linter.checkInParallel`); the findings must be the
/// ones, in the order, that running the rules one after the other on one core gives, whatever the flow.
@Suite("Rules on all cores")
struct ParallelRulesTests {
    /// A random flow past `Linter.parallelThreshold` steps, with a little of every mistake the slow rules look for:
    /// unset and mistyped reads, undefined and undeclared names, back targets not on the way, unreachable options.
    static func largeFlow(seed: UInt64) -> String {
        var rng = SplitMix64(seed: seed)
        let count = Linter.parallelThreshold + 50
        func pick(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &rng) }
        var yaml = "flowkit: 1\nflow: large\nstart: s0\nstate: { n: int, t: string, o: int? }\nevents: { go: , back: , big: \"state.n > 3\", typo: }\nsteps:\n"
        yaml += "  \"*\": { on: { big: done } }\n"
        for index in 0..<count {
            let next = index + 1 < count ? "s\(index + 1)" : "done"
            var fields: [String] = []
            switch pick(8) {
            case 0: fields.append("result: { v: int }, set: { n: result.v }")
            case 1: fields.append("set: { t: \"state.n + 1\" }")
            case 2: fields.append("on: { back: { back: s\(pick(count)) } }")
            case 3: fields.append("on: { go: missing\(pick(5)) }")
            case 4: fields.append("on: { undeclared\(pick(3)): \(next) }")
            default: break
            }
            if index == 0 {
                // Read before anything sets it.
                fields = ["next: { forward: \(next), if: \"state.n > 0\" }"]
            } else if pick(6) == 0 {
                fields.append("next: [ { forward: \(next), if: \"state.o > 1\" }, { forward: \(next) }, { forward: done } ]")
            } else {
                fields.append("next: \(next)")
            }
            yaml += "  s\(index): { \(fields.joined(separator: ", ")) }\n"
        }
        return yaml + "  done: { kind: finish }\n  island: { next: done }\n"
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func findingsAreThoseOfOneCore(seed: UInt64) throws {
        let document = FlowLoader.load(bytes: Array(Self.largeFlow(seed: seed).utf8), file: "large.yaml")
        let flow = try #require(document.flow)
        #expect(flow.steps.count >= Linter.parallelThreshold)
        let rules = Linter.rules.filter { !$0.needs.contains(.workspace) }
        let serial = rules.flatMap { $0.check(LintContext(document: document)) }
        let parallel = Linter.checkInParallel(rules, LintContext(document: document))
        #expect(parallel == serial)
        // The flow gives the slow rules something to say, so the comparison is not between empty lists.
        let fired = Set(serial.map(\.rule))
        for rule in [RuleID.maybeUnset, .typeMismatch, .undefinedStep, .undeclaredEvent, .unreachableStep] {
            #expect(fired.contains(rule), "\(rule.rawValue) found nothing")
        }
    }
}
