@testable import FlowKit
@testable import FlowKitTool
import FlowGen
import Foundation
import Testing

/// `GuardSpace` against brute force: on random guard lists over ints, numbers, enums, bools, text and optional
/// keys, it finds values that fail every guard exactly when a search over a wide grid of values does.
@Suite("Deciding guards")
struct GuardSpaceTests {
    static let stateTypes: [String: TypeRef] = [
        "n": TypeRef(base: .int, optional: false, position: .start), "x": TypeRef(base: .number, optional: false, position: .start),
        "f": TypeRef(base: .bool, optional: false, position: .start), "o": TypeRef(base: .int, optional: true, position: .start),
        "s": TypeRef(base: .string, optional: false, position: .start), "k": TypeRef(base: .int, optional: false, position: .start),
    ]
    static let resultTypes: [String: TypeRef] = ["v": TypeRef(base: .enumeration(["a", "b", "c"]), optional: false, position: .start)]

    /// Every value the brute force tries for each path: wider than any class the literals below make.
    static let grid: [(root: PathRoot, key: String, values: [Value?])] = [
        (.state, "n", (-6...6).map { .int(Int64($0)) }),
        (.state, "x", [-3, -1.5, -1, -0.5, 0, 0.25, 0.5, 1, 2, 3].map { .number($0) }),
        (.state, "f", [.bool(false), .bool(true)]),
        (.state, "o", [.null] + (-6...6).map { .int(Int64($0)) }),
        (.state, "s", [.string("p"), .string("q"), .string("zz")]),
        (.state, "k", [nil, .int(0), .int(5)]),
        (.result, "v", [.string("a"), .string("b"), .string("c")]),
    ]

    static func atom(_ rng: inout SplitMix64) -> String {
        let op = rng.pick(["<", "<=", ">", ">=", "==", "!="])
        // A part that reads nothing counts as a literal, with the evaluator's value.
        if rng.chance(0.1) { return rng.pick(["state.n \(op) (\(rng.int(in: -2...2)) + \(rng.int(in: -1...1)))", "(2 * \(rng.int(in: -2...2))) \(op) state.n",
                                              "(1 + \(rng.int(in: -1...1))) \(op) \(rng.int(in: -1...1))", "state.x \(op) (1.5 - 2)"]) }
        switch rng.below(9) {
        case 0: return "state.n \(op) \(rng.int(in: -3...3))"
        case 1: return "state.x \(op) \(rng.pick(["-1.5", "0", "0.5", "2"]))"
        case 2: return rng.pick(["state.f", "!state.f", "state.f == false"])
        case 3: return rng.pick(["exists(state.o)", "!exists(state.o)", "state.o == null", "state.o > \(rng.int(in: -3...3))"])
        case 4: return "state.s \(rng.pick(["==", "!="])) '\(rng.pick(["p", "q"]))'"
        case 5: return "result.v == '\(rng.pick(["a", "b", "c"]))'"
        case 6: return "result.v in [" + ["'a'", "'b'", "'c'"].filter { _ in rng.chance(0.5) }.joined(separator: ", ") + "]"
        case 7: return rng.pick(["exists(state.k)", "exists(state.k) && state.k > 2", "state.k < 3"])
        default: return "\(rng.int(in: -3...3)) \(op) state.n"
        }
    }

    static func condition(_ rng: inout SplitMix64, depth: Int = 0) -> String {
        guard depth < 2, rng.chance(0.4) else { return atom(&rng) }
        switch rng.below(3) {
        case 0: return "(\(condition(&rng, depth: depth + 1)) && \(condition(&rng, depth: depth + 1)))"
        case 1: return "(\(condition(&rng, depth: depth + 1)) || \(condition(&rng, depth: depth + 1)))"
        default: return "!(\(condition(&rng, depth: depth + 1)))"
        }
    }

    /// Whether every condition evaluates to false (none fails to evaluate) in `scope`.
    static func allFail(_ conditions: [FlowExpression], _ scope: EvaluationScope) -> Bool {
        conditions.allSatisfy { (try? $0.evaluateCondition(in: scope)) == false }
    }

    @Test func findsAFailingCombinationExactlyWhenBruteForceDoes() throws {
        var rng = SplitMix64(seed: 0x6A4D)
        var failing = 0
        var covered = 0
        for round in 0..<1_500 {
            var texts = (0..<rng.int(in: 1...3)).map { _ in Self.condition(&rng) }
            // Often a last guard that takes what the others leave (so the list is covered), or all but what one
            // of them leaves (so it may be).
            if rng.chance(0.4) {
                let others = rng.chance(0.6) || texts.count == 1 ? texts : Array(texts.dropFirst())
                texts.append("!(" + others.joined(separator: " || ") + ")")
            }
            let conditions = try texts.map { try ExpressionParser.parse($0).get() }
            let withoutResult = rng.chance(0.3)
            let space = try #require(GuardSpace(conditions: conditions.map(\.root), stateTypes: Self.stateTypes,
                                                resultTypes: Self.resultTypes, resultMayBeAbsent: withoutResult), "round \(round): \(texts)")
            let found = space.first { Self.allFail(conditions, $0) }
            // Brute force over the grid, only the paths the conditions read (the others stay unset).
            let read = Self.grid.filter { entry in texts.contains { $0.contains("\(entry.root.rawValue).\(entry.key)") } }
            var brute = false
            var indexes = [Int](repeating: 0, count: read.count)
            search: for hasResult in withoutResult ? [true, false] : [true] {
                indexes = [Int](repeating: 0, count: read.count)
                while true {
                    var state: [String: Value] = [:]
                    var result: [String: Value]? = hasResult ? [:] : nil
                    for (position, entry) in read.enumerated() {
                        guard let value = entry.values[indexes[position]] else { continue }
                        if entry.root == .state { state[entry.key] = value } else { result?[entry.key] = value }
                    }
                    if Self.allFail(conditions, EvaluationScope(state: state, stateTypes: Self.stateTypes, result: result, resultTypes: Self.resultTypes)) {
                        brute = true
                        break search
                    }
                    var position = read.count - 1
                    while position >= 0 {
                        indexes[position] += 1
                        if indexes[position] < read[position].values.count { break }
                        indexes[position] = 0
                        position -= 1
                    }
                    if position < 0 { break }
                }
            }
            #expect((found != nil) == brute, "round \(round): \(texts) (without a result: \(withoutResult)): GuardSpace \(found.map(space.describe) ?? "none"), brute force \(brute)")
            if let found {
                failing += 1
                // The combination it names does fail every guard.
                #expect(Self.allFail(conditions, space.scope(found.indexes, hasResult: found.hasResult)))
            } else {
                covered += 1
            }
        }
        #expect(failing > 300 && covered > 300, "failing \(failing), covered \(covered)")
    }

    /// Values at the edges (from a review): numbers beyond 2^53, where `p + 1` is `p`; ints beyond a number
    /// literal near 2^63; text told apart by its scalars, not by canonical equivalence.
    @Test func edgesOfTheValueClasses() throws {
        func failing(_ texts: [String], _ types: [String: TypeRef]) throws -> Bool {
            let conditions = try texts.map { try ExpressionParser.parse($0).get() }
            let space = try #require(GuardSpace(conditions: conditions.map(\.root), stateTypes: types, resultTypes: nil, resultMayBeAbsent: false))
            return space.first { Self.allFail(conditions, $0) } != nil
        }
        let x = ["x": TypeRef(base: .number, optional: false, position: .start)]
        #expect(try failing(["state.x <= 1e20"], x), "2e20 fails")
        #expect(try failing(["state.x >= -1e300"], x), "-2e300 fails")
        #expect(try failing(["state.x <= 9007199254740993"], x), "an int literal a double cannot hold")
        #expect(try !failing(["state.x <= 1e20", "state.x > 1e20"], x))
        let n = ["n": TypeRef(base: .int, optional: false, position: .start)]
        #expect(try failing(["state.n < 9.21e18"], n), "9210000000000000000 fails")
        #expect(try failing(["state.n > -9.21e18"], n))
        #expect(try !failing(["state.n < 9.3e18"], n), "every int is below 9.3e18")
        let s = ["s": TypeRef(base: .string, optional: false, position: .start)]
        #expect(try failing(["state.s == '\u{e9}'", "state.s != 'e\u{301}'"], s), "'e' + U+0301 fails both")
    }

    @Test func formsBeyondTheDecidedOnesAreNotDecided() throws {
        for text in ["state.n * 2 > 1", "state.n > state.k", "state.s < 'p'", "result.v.w == 1", "(state.f ? 1 : 2) == 1"] {
            let condition = try ExpressionParser.parse(text).get()
            #expect(GuardSpace(conditions: [condition.root], stateTypes: Self.stateTypes, resultTypes: Self.resultTypes, resultMayBeAbsent: false) == nil, "\(text)")
        }
        // A result path where no result shape is known (a step without `result`, `"*"`) is not decided either.
        let read = try ExpressionParser.parse("result.v == 'a'").get()
        #expect(GuardSpace(conditions: [read.root], stateTypes: Self.stateTypes, resultTypes: nil, resultMayBeAbsent: false) == nil)
    }

    @Test func tooManyCombinationsAreNotDecided() throws {
        // Thirteen ints each compared with three literals: 7^13 combinations.
        var types: [String: TypeRef] = [:]
        var conditions: [ExpressionNode] = []
        for index in 0..<13 {
            types["k\(index)"] = TypeRef(base: .int, optional: false, position: .start)
            conditions.append(try ExpressionParser.parse("state.k\(index) > 1 && state.k\(index) < 5 || state.k\(index) == 9").get().root)
        }
        #expect(GuardSpace(conditions: conditions, stateTypes: types, resultTypes: nil, resultMayBeAbsent: false) == nil)
    }
}

/// A flow of many distinct guarded lists costs a bounded number of evaluations, and says what it did not judge.
@Suite("Deciding guards: the budget")
struct GuardBudgetTests {
    @Test func pastTheBudgetListsAreNotJudgedAndOneFindingSaysSo() throws {
        var lines = ["flowkit: 1", "flow: big", "start: s0", "steps:"]
        let count = 400
        for i in 0..<count {
            let next = i + 1 < count ? "s\(i + 1)" : "done"
            let a = "result.v == 'a' && result.n > \(i) && result.w == 'p'"
            let b = "result.v == 'b' || result.n < -\(i) || result.m > 7"
            let c = "result.m in [1, 2, 3] && result.v != 'c'"
            lines.append("  s\(i):")
            lines.append("    result: { v: [a, b, c, d, e, f, g, h], n: int, m: int, w: [p, q, r] }")
            lines.append("    next:")
            for condition in [a, b, c, "!(\(a)) && !(\(b)) && !(\(c))"] { lines.append("      - { forward: \(next), if: \"\(condition)\" }") }
        }
        lines.append("  done: { kind: finish }")
        let document = FlowLoader.load(bytes: Array((lines.joined(separator: "\n") + "\n").utf8), file: "big.yaml")
        let findings = Linter.lint(document).filter { $0.rule == .nonExhaustiveGuards }
        // Every list is exhaustive: the only finding says how many were not judged.
        #expect(findings.count == 1, "\(findings.prefix(3).map(\.message))")
        let message = try #require(findings.first?.message)
        #expect(message.hasSuffix("guarded target lists were not judged: deciding them would take more than 1048576 evaluations of their guards in one flow"))
        #expect(findings.first?.position == SourcePosition(line: 3, column: 8))
        let unjudged = Int(message.prefix { $0.isNumber }) ?? 0
        #expect(unjudged > 0 && unjudged < count, "\(unjudged) of \(count) not judged")
    }
}
