import Foundation
import Testing
@testable import FlowKit

/// `rule line:column` for the findings of a YAML flow (see `lintExample`) in file order, but for unused events and keys
/// nothing sets (which the examples have).
private func places(_ yaml: String) throws -> [String] {
    try lintExample(yaml).filter { $0.rule != .unusedEvent && !($0.rule == .maybeUnset && $0.step == nil) }
        .sorted { $0.position < $1.position }.map { "\($0.rule.rawValue) \($0.position)" }
}

/// docs/format.md, "Behind a certain run error": what lies behind a run error that happens on every evaluation is
/// made by no run, so the rules that foresee run errors say nothing of it; the graph rules still follow it.
@Suite("Behind a certain run error")
struct BehindACertainRunErrorTests {
    static let head = """
        flowkit: 1
        flow: t
        start: a
        state: { n: int, k: int, tier: [gold, basic], note: string? }
        events: { go: , other: }
        steps:

        """

    @Test func anIfThatAlwaysFailsKeepsTheOptionsAfterItUntriedAndItsMoveUnmade() throws {
        // Line 8: the `if` compares a number with text, on every evaluation. The option after it is never tried (its
        // read of 'k', which nothing sets, is not reported), and 'b', which only it leads to, is no run's: its
        // `set`'s type error is not reported, nor is 'b' unreachable (the graph rules follow the move).
        let found = try places(Self.head + """
              a:
                next:
                  - { forward: b, if: "(100.0 * 2) >= 'oops'" }
                  - { forward: z, set: { n: "state.k" } }
              b: { result: { v: number }, set: { n: result.v }, next: z }
              z: { kind: finish }
              w: { next: { forward: z, set: { k: "1" } } }

            """)
        #expect(found.filter { !$0.hasPrefix("unreachable_step") } == ["type_mismatch 9:28"], "\(found)")
        #expect(!found.contains { $0.hasPrefix("unreachable_step") && $0.hasSuffix("10:") })
        #expect(!found.contains { $0.hasPrefix("unreachable_option") })
    }

    @Test func aPartEvaluationMaySkipFailsOnlySometimes() throws {
        // The right side of `&&` is evaluated only when the left holds: the option after it is still tried, and
        // `exists(…)` of a result key the step lacks is only false.
        let found = try places(Self.head + """
              a:
                next:
                  - { forward: z, if: "state.n > 1 && state.n > 'x'" }
                  - { forward: z, if: "state.tier == 'silver'" }
                  - { forward: z, set: { n: "state.k" } }
              z: { kind: finish }
              w: { next: { forward: z, set: { k: "1", n: "2" } } }

            """)
        #expect(found.contains("type_mismatch 9:43"), "\(found)")
        #expect(found.contains("type_mismatch 10:42"), "text compared with an enum is only false: \(found)")
        #expect(found.contains("maybe_unset 11:34"), "the last option is tried: \(found)")
    }

    @Test func aSetThatAlwaysFailsKeepsItsMoveUnmadeButNotTheOptionsAfterIt() throws {
        // The first option's `set` stores text in an int key: its `if` is evaluated, the run stops at the `set`,
        // the options after it are tried when its `if` fails (the list is not left without a holding option: that
        // `non_exhaustive_guards` finding stays), and 'b' is no run's.
        let found = try places(Self.head + """
              a:
                result: { v: int }
                set: { k: result.v }
                next:
                  - { forward: b, if: "state.k > 1", set: { n: "'x'" } }
                  - { forward: z, if: "state.k < 0" }
              b: { result: { v: number }, set: { n: result.v }, next: z }
              z: { kind: finish }

            """)
        #expect(found.contains("type_mismatch 11:53"), "\(found)")
        #expect(found.contains("non_exhaustive_guards 11:27"), "\(found)")
        #expect(!found.contains("type_mismatch 13:37"), "'b' is behind the failing set: \(found)")
    }

    @Test func aStepsSetThatAlwaysFailsStopsItsMovesByAResult() throws {
        // 'a''s `set` always fails: `next` and the derived event's handler (moves by a result) are never tried; an
        // explicit event may come without a result, so its handler is checked. In the `set`, the assignment after
        // the failing one, and the parts of an expression after its first failing one, are never reached.
        let found = try places(Self.head.replacingOccurrences(of: "events: { go: , other: }", with: "events: { go: , other: , big: \"state.n > 1\" }") + """
              a:
                result: { v: number }
                set: { n: "result.v + 'x' + (1 - 'y')", k: "'z'" }
                on:
                  big: { forward: z, if: "state.tier == 1" }
                  go: { forward: z, if: "state.tier == 2" }
                next: [{ forward: z, if: "state.tier == 3" }]
              z: { kind: finish }

            """)
        #expect(found == ["type_mismatch 9:16", "type_mismatch 12:30"], "\(found)")
    }

    @Test func aBackMoveNeverTakenIsNotJudged() throws {
        // The `back` option comes after an `if` that always fails: no run takes it, so `back_target` does not speak
        // (nor `unreachable_option`: one mistake, one finding).
        let found = try places(Self.head + """
              a:
                on:
                  go:
                    - { forward: z, if: "1" }
                    - { back: z }
                next: z
              z: { kind: finish }

            """)
        #expect(found == ["type_mismatch 10:30"], "\(found)")
    }

    @Test func anOptionalValueEscapesComparisonsAndOptionalKeys() throws {
        // `null == 'x'` is false, not an error, and an optional key takes null: neither `if` nor `set` always fails,
        // so the options after them are tried (the soundness property found the first: a run got to the `set`).
        let found = try places(Self.head.replacingOccurrences(of: "state: { n: int,", with: "state: { m: int?, o: string?, n: int,") + """
              a:
                next:
                  - { forward: z, if: "state.m == 'x'" }
                  - { forward: z, if: "state.k > 0", set: { o: state.m } }
                  - { forward: z, set: { o: "state.note + 'x'" } }
              z: { kind: finish }
              w: { next: { forward: z, set: { k: "1", m: "2" } } }

            """)
        #expect(found.contains { $0.hasPrefix("maybe_null 11:") }, "the last option is tried: \(found)")
    }

    @Test func aFlowStepWhoseInputAlwaysFailsNeverCompletes() throws {
        // 'child.yaml' declares no state: passing 'x' fails whenever 'a' is shown, so its nested flow never starts and
        // its handlers never run. Passing nothing, they do: the read of 'k' is reported.
        func flow(_ input: String) -> String {
            Self.head + """
                  a:
                    kind: flow
                    flow: child.yaml
                    \(input)
                    on: { done: { forward: z, set: { n: "state.k" } }, cancelled: z }
                  z: { kind: finish }
                  w: { next: { forward: z, set: { k: "1" } } }

                """
        }
        let failing = try places(flow("input: { x: \"1\" }"))
        #expect(failing.contains { $0.hasPrefix("type_mismatch 10:") } && !failing.contains { $0.hasPrefix("maybe_unset") }, "\(failing)")
        let passing = try places(flow("input: {}"))
        #expect(passing.contains { $0.hasPrefix("maybe_unset 11:") }, "\(passing)")
    }

    @Test func aDerivedEventThatAlwaysFailsStopsTheMovesThatEvaluateIt() throws {
        // 'a' has no result: `late` (read second) always fails there, so its handler and `next` are never tried;
        // `early` may hold first, and an explicit event evaluates no derived event.
        let found = try places(Self.head.replacingOccurrences(of: "events: { go: , other: }", with: "events: { go: , early: \"state.n > 1\", late: \"result.v > 1\" }") + """
              a:
                on:
                  early: { forward: z, set: { k: "state.tier == 'gold' ? 1 : 2" } }
                  late: { forward: z, set: { k: "state.note + 'x'" } }
                  go: { forward: z, set: { o: "state.note + 'y'" } }
                next: { forward: z, set: { k: "state.note + 'z'" } }
              z: { kind: finish }
              w: { next: { forward: z, set: { n: "1", tier: "'gold'" } } }

            """)
        let lines = Set(found.compactMap { place in place.split(separator: " ").last?.split(separator: ":").first.map(String.init) })
        #expect(found.contains { $0.hasPrefix("type_mismatch 5:") }, "the event's own finding: \(found)")
        #expect(lines.contains("9") && lines.contains("11") && !lines.contains("10") && !lines.contains("12"), "\(found)")
    }

    @Test func aStepEvaluatesNoDerivedEventAfterOneThatAlwaysFailsThere() throws {
        // At 'a' (no result), `late` always fails at its read of `result.v`: its read of 'k' after that, and the
        // event `after` (not a bool) that only 'a' evaluates, are evaluated by no run there. At 'b', which has a
        // result (an explicit event at 'a' leads there), both are: the read of 'k' (which no run sets) and `after`'s
        // type error are reported.
        func flow(_ more: String) -> String {
            Self.head.replacingOccurrences(of: "events: { go: , other: }", with: "events: { go: , late: \"result.v > 1 && state.k > 1\", after: \"'x'\" }") + """
                  a: { on: { late: z, after: z, go: \(more) }, next: z }
                  z: { kind: finish }
                  b: { result: { v: int }, on: { late: z, after: z }, next: z }
                  w: { next: { forward: z, set: { k: "1" } } }

                """
        }
        let alone = try places(flow("z"))
        #expect(!alone.contains { $0.hasPrefix("maybe_unset") } && !alone.contains("type_mismatch 5:62"), "\(alone)")
        let both = try places(flow("b"))
        #expect(both.contains { $0.hasPrefix("maybe_unset 5:") } && both.contains("type_mismatch 5:62"), "\(both)")
    }

    @Test func aDerivedEventStarHandlesThatAlwaysFailsStopsStarsListsAfterIt() throws {
        // `"*"` handles `big`, which always fails (an int compared with text), so every step that evaluates derived
        // events stops there: `"*"`'s handlers of `big` and `later` and its `next` are never tried, and their reads
        // of 'k' are not reported. `early`, before it, may hold first.
        let found = try places(Self.head.replacingOccurrences(of: "events: { go: , other: }",
                                                              with: "events: { go: , early: \"state.n > 1\", big: \"1 > 'x'\", later: \"state.n > 2\" }") + """
              "*":
                on:
                  early: { forward: z, set: { tier: "state.k > 1 ? 'gold' : 'basic'" } }
                  big: { forward: z, set: { n: "state.k" } }
                  later: { forward: z, set: { n: "state.k" } }
                next: { forward: z, set: { n: "state.k" } }
              a: { result: { v: int }, set: { n: result.v }, on: { go: z } }
              z: { kind: finish }
              w: { next: { forward: z, set: { k: "1" } } }

            """)
        #expect(found.filter { $0.hasPrefix("maybe_unset") }.map { String($0.prefix(15)) } == ["maybe_unset 9:4"], "\(found)")
    }

    @Test func aDerivedEventThatAlwaysHoldsPreemptsNextAndTheEventsAfterIt() throws {
        // `known` holds for every value of 'tier' (it fails only when 'tier' is unset): 'a''s handler of `later`
        // and its `next` are never tried, its own handler is. `maybe` (an optional key) can be false: no pre-emption.
        func flow(_ condition: String) -> String {
            Self.head.replacingOccurrences(of: "events: { go: , other: }", with: "events: { go: , known: \"\(condition)\", later: \"state.n > 1\" }") + """
                  a:
                    on:
                      known: { forward: z, set: { k: "state.note + 'a'" } }
                      later: { forward: z, set: { k: "state.note + 'b'" } }
                    next: { forward: z, set: { k: "state.note + 'c'" } }
                  z: { kind: finish }
                  w: { next: { forward: z, set: { n: "1", tier: "'gold'" } } }

                """
        }
        func lines(_ found: [String]) -> Set<String> {
            Set(found.filter { $0.hasPrefix("maybe_null") }.compactMap { $0.split(separator: " ").last?.split(separator: ":").first.map(String.init) })
        }
        #expect(lines(try places(flow("state.tier in ['gold', 'basic']"))) == ["9"])
        #expect(lines(try places(flow("100 != 1"))) == ["9"])
        #expect(lines(try places(flow("state.note != 'x'"))) == ["9", "10", "11"])
    }

    @Test func aFlowStepWhoseNestedFlowNeverFinishesNeverCompletes() throws {
        // 'loop.yaml' goes round for ever: 'p' never completes, so neither its `set` nor its handler runs. With a
        // nested flow that finishes, both reads of an optional key are reported.
        let children = ["loop.yaml": "flowkit: 1\nflow: loop\nstart: a\nsteps:\n  a: { next: b }\n  b: { next: a }\n  f: { kind: finish }\n",
                        "once.yaml": "flowkit: 1\nflow: once\nstart: a\nsteps:\n  a: { next: f }\n  f: { kind: finish }\n"]
        func found(_ child: String) throws -> [String] {
            let text = """
                flowkit: 1
                flow: t
                start: p
                state: { n: string, note: string?, other: string? }
                events: { f: }
                steps:
                  p: { kind: flow, flow: \(child), set: { n: "state.note + 'x'" }, on: { f: { forward: z, set: { n: "state.other + 'y'" } } } }
                  z: { kind: finish }

                """
            return try lintFiles(children.merging(["t.yaml": text]) { $1 }, linting: "t.yaml").filter { $0.rule == .maybeNull }.map { "\($0.position)" }
        }
        #expect(try found("once.yaml").count == 2)
        #expect(try found("loop.yaml").isEmpty)
    }

    /// The holes an adversarial review found (each a run that got past what lint took for always failing).
    @Test func aMixedIntAndNumberValueMayStillFitAnIntKey() throws {
        // `(c ? 1 : 2.5) * 1` is 1 when c holds: 'show' is reached, and its mistake reported.
        let found = try places("""
            flowkit: 1
            flow: t
            start: ask
            state: { i: int, note: string }
            steps:
              ask: { result: { c: bool }, set: { i: "(result.c ? 1 : 2.5) * 1" }, next: show }
              show: { next: { forward: done, set: { note: "state.i + 1" } } }
              done: { kind: finish }
            """)
        #expect(found.contains { $0.hasPrefix("type_mismatch 7:") }, "\(found)")
    }

    @Test func anExpressionUsedInTwoPlacesAlwaysFailsOnlyWhenItFailsInBoth() throws {
        // The alias reads `result.n` at 'a' (which has one) and at 'z' (which has none): only 'z''s read always fails.
        let found = try places("""
            flowkit: 1
            flow: t
            start: a
            state: { note: string }
            steps:
              a:
                result: { n: int }
                next: [{ if: &c "result.n > 1", forward: b }, { forward: z }]
              z:
                next: [{ if: *c, forward: done }, { forward: done }]
              b: { next: { forward: done, set: { note: "1" } } }
              done: { kind: finish }
            """)
        #expect(found.contains { $0.hasPrefix("type_mismatch 11:") }, "'b''s mistake: \(found)")
    }

    @Test func aNestedEntryStartsTheNestedFlowWithoutItsInputs() throws {
        // The entry 'deep' starts 'p''s nested flow at its entry 'reset', which needs no input: 'after' is reached.
        let child = """
            flowkit: 1
            flow: child
            start: a
            state: { token: string, code: string? }
            inputs: [token]
            entries: { reset: { step: a, path: "/reset/{code}" } }
            steps:
              a: { next: done }
              done: { kind: finish }
            """
        let parent = """
            flowkit: 1
            flow: parent
            start: p
            state: { n: int }
            entries: { deep: { step: p, entry: reset, path: "/p/reset/{code}" } }
            steps:
              p: { kind: flow, flow: child.yaml, next: after }
              after: { next: { forward: fin, set: { n: "'x'" } } }
              fin: { kind: finish }
            """
        let found = try lintFiles(["child.yaml": child, "parent.yaml": parent], linting: "parent.yaml")
        #expect(found.contains { $0.rule == .typeMismatch && $0.step == "after" }, "\(found.map(\.message))")
    }

    /// The rules that foresee run errors.
    static let foreseeing: Set<RuleID> = [.maybeUnset, .maybeNull, .typeMismatch, .unhandledOutcome, .backTarget, .nonExhaustiveGuards, .undeclaredState]

    /// A nested flow whose start step's `set` reads 'level', which only that `set` writes (unless the parent passes
    /// it), and which can finish 'cancelled' by an explicit event without running that `set`.
    static func nestedChild() -> String {
        """
        flowkit: 1
        flow: child
        start: a
        state: { level: int, tier: int? }
        inputs: [tier]
        events: { stop: }
        steps:
          a:
            result: { v: int }
            set: { level: "state.level + result.v" }
            on: { stop: cancelled }
            next: done
          done: { kind: finish }
          cancelled: { kind: finish }
        """
    }

    @Test func aNestedFlowFinishesOnlyWithTheOutcomesNoKeyItNeverSetsKeepsItFrom() throws {
        // Started with 'tier' only, the nested flow never sets 'level' (its one assignment reads it first), so 'a''s
        // `set` always fails and it finishes only 'cancelled': the handler of 'done' never runs (its read of 'k',
        // which nothing sets, is not reported), and no finding says 'done' is unhandled.
        func parent(_ input: String, handlers: String) -> String {
            (Self.head + """
                  p:
                    kind: flow
                    flow: child.yaml
                    input: { \(input) }
                    on: { \(handlers) }
                  z: { kind: finish }
                  w: { next: { forward: z, set: { k: "1" } } }

                """).replacingOccurrences(of: "start: a", with: "start: p").replacingOccurrences(of: "events: { go: , other: }", with: "events: { done: , cancelled: }")
        }
        func found(_ input: String, handlers: String) throws -> [Diagnostic] {
            try lintFiles(["child.yaml": Self.nestedChild(), "t.yaml": parent(input, handlers: handlers)], linting: "t.yaml")
                .filter { $0.rule != .unreachableStep }
        }
        let handlers = "done: { forward: z, set: { n: \"state.k\" } }, cancelled: z"
        let never = try found("tier: \"1\"", handlers: handlers)
        #expect(!never.contains { $0.rule == .maybeUnset }, "\(never.map(\.message))")
        #expect(try found("tier: \"1\"", handlers: "cancelled: z").filter { $0.rule == .unhandledOutcome }.isEmpty)
        // Passing 'level', the nested flow can finish 'done': both findings are back.
        let passed = try found("tier: \"1\", level: \"2\"", handlers: handlers)
        #expect(passed.contains { $0.rule == .maybeUnset && $0.subject == "k" }, "\(passed.map(\.message))")
        #expect(try found("tier: \"1\", level: \"2\"", handlers: "cancelled: z").contains { $0.rule == .unhandledOutcome && $0.subject == "done" })
    }

    @Test func aResultKeyTheNestedFlowNeverSetsAlwaysFailsToRead() throws {
        // 'level' is never in the nested flow's final state: the `flow` step's `set` fails on every completion at
        // its read (the one finding), so its handlers never run and no outcome ('done') is unhandled.
        func parent(_ input: String) -> String {
            (Self.head + """
                  p:
                    kind: flow
                    flow: child.yaml
                    input: { \(input) }
                    set: { n: "result.level" }
                    on: { cancelled: { forward: z, set: { k: "state.k + 1" } } }
                  z: { kind: finish }
                  w: { next: { forward: z, set: { k: "1" } } }

                """).replacingOccurrences(of: "start: a", with: "start: p").replacingOccurrences(of: "events: { go: , other: }", with: "events: { done: , cancelled: }")
        }
        let child = Self.nestedChild()
        let never = try lintFiles(["child.yaml": child, "t.yaml": parent("tier: \"1\"")], linting: "t.yaml").filter { Self.foreseeing.contains($0.rule) }
        #expect(never.map(\.subject) == ["result.level"], "\(never.map(\.message))")
        let passed = try lintFiles(["child.yaml": child, "t.yaml": parent("level: \"2\"")], linting: "t.yaml").filter { Self.foreseeing.contains($0.rule) }
        #expect(passed.contains { $0.subject == "k" } && passed.contains { $0.rule == .unhandledOutcome }, "\(passed.map(\.message))")
    }

    @Test func anOptionalResultKeyTheNestedFlowNeverSetsReadsNull() throws {
        // Without 'tier' passed, the nested flow never sets it (nothing writes it): `result.tier` is null on every
        // completion, so storing it in 'n' (an int) always fails, the step's handlers never run, and the read of 'k'
        // (which no run sets) in one is not reported. Passed, 'tier' may be set: a `maybe_null` warning, and the read.
        func parent(_ input: String) -> String {
            (Self.head + """
                  p:
                    kind: flow
                    flow: child.yaml
                    input: { level: "2"\(input) }
                    set: { n: "result.tier" }
                    on: { cancelled: { forward: z, set: { k: "state.k + 1" } }, done: z }
                  z: { kind: finish }
                  w: { next: { forward: z, set: { k: "1" } } }

                """).replacingOccurrences(of: "start: a", with: "start: p").replacingOccurrences(of: "events: { go: , other: }", with: "events: { done: , cancelled: }")
        }
        let child = Self.nestedChild()
        let never = try lintFiles(["child.yaml": child, "t.yaml": parent("")], linting: "t.yaml").filter { Self.foreseeing.contains($0.rule) }
        #expect(never.map(\.rule) == [.typeMismatch] && never.first?.message.contains("found null") == true, "\(never.map(\.message))")
        let passed = try lintFiles(["child.yaml": child, "t.yaml": parent(", tier: \"3\"")], linting: "t.yaml").filter { Self.foreseeing.contains($0.rule) }
        #expect(passed.contains { $0.rule == .maybeNull } && passed.contains { $0.subject == "k" }, "\(passed.map(\.message))")
    }

    @Test func aFlowStepThatPassesNoneOfSeveralRequiredInputsHasOneFinding() throws {
        // The engine stops at the first required input not passed; one finding names them all, in the nested
        // flow's `inputs` order.
        let child = """
            flowkit: 1
            flow: child
            start: a
            state: { level: int, tier: int }
            inputs: [tier, level]
            steps:
              a: { next: done }
              done: { kind: finish }
            """
        let parent = (Self.head + """
              p: { kind: flow, flow: child.yaml, next: z }
              z: { kind: finish }

            """).replacingOccurrences(of: "start: a", with: "start: p")
        let found = try lintFiles(["child.yaml": child, "t.yaml": parent], linting: "t.yaml").filter { $0.rule == .typeMismatch }
        #expect(found.map(\.message) == ["step 'p' does not pass 'tier' and 'level' in its 'input', and nested flow 'child.yaml' requires those inputs"],
                "\(found.map(\.message))")
    }

    @Test func aNestedFlowThatNoRunOfItCanFinishAsStartedKeepsItsStepFromCompleting() throws {
        // The parent's 'p' reads 'k' (which only 'w', no run's, sets) in its `set`: reported only when 'p' can
        // complete. Each child below finishes, as 'p' starts it, only when `fix` is applied.
        func parent(_ entries: String = "") -> String {
            (Self.head + """
                  p: { kind: flow, flow: child.yaml, set: { n: "state.k" }, next: z }
                  z: { kind: finish }
                  w: { next: { forward: z, set: { k: "1" } } }

                """).replacingOccurrences(of: "start: a", with: "start: p\(entries)")
        }
        func reported(_ child: String, _ parent: String) throws -> Bool {
            try lintFiles(["child.yaml": child, "t.yaml": parent], linting: "t.yaml").contains { $0.rule == .maybeUnset && $0.subject == "k" }
        }
        let children: [(String, (String) -> String)] = [
            // 'code' is written only behind the read of it that always fails first.
            ("""
            flowkit: 1
            flow: child
            start: a
            state: { code: string }
            steps:
              a: { result: { v: int }, set: { code: "state.code + 'x'" }, next: b }
              b: { result: { c: string }, set: { code: result.c }, next: done }
              done: { kind: finish }
            """, { $0.replacingOccurrences(of: "\"state.code + 'x'\"", with: "\"'x'\"") }),
            // An optional key no run sets reads null, which '+' refuses.
            ("""
            flowkit: 1
            flow: child
            start: a
            state: { token: string? }
            steps:
              a: { result: { v: int }, set: { token: "state.token + 'x'" }, next: done }
              done: { kind: finish }
            """, { $0.replacingOccurrences(of: "state.token + 'x'", with: "'x'") }),
        ]
        for (child, fix) in children {
            #expect(try !reported(child, parent()), "\(child)")
            #expect(try reported(fix(child), parent()), "\(fix(child))")
        }
        // A child that finishes only from its entry 'deep': only a parent that starts it there (its entry into 'p')
        // sees it finish.
        let deep = """
            flowkit: 1
            flow: child
            start: a
            state: { code: string }
            entries: { deep: { step: b, path: "/deep/{code}" } }
            steps:
              a: { result: { v: int }, set: { code: "state.code + 'x'" }, next: b }
              b: { next: done }
              done: { kind: finish }
            """
        #expect(try !reported(deep, parent()))
        #expect(try reported(deep, parent("\nentries: { into: { step: p, entry: deep, path: \"/p/{code}\" } }")))
    }

    @Test func aPathKnownUnsetOrNullAlwaysFailsWhereItNeedsAValue() throws {
        // In each flow, the option to 'b' needs 'note' (optional) where it is known null: after an earlier option's
        // `exists` failed, under its own `!exists` that held, or after the step's `set` stored null. So no run
        // gets to 'b', and its read of 'k' (which no run sets) is not reported; with another first option, it is.
        func flow(_ set: String, _ options: String) -> String {
            Self.head + """
                  a:
                    result: { v: int }
                    set: { \(set) }
                    next: [\(options)]
                  b: { next: { forward: z, set: { n: "state.k" } } }
                  z: { kind: finish }
                  w: { next: { forward: z, set: { k: "1" } } }

                """
        }
        let never = [
            flow("n: result.v", "{ forward: z, if: \"exists(state.note)\" }, { forward: b, if: \"state.note > 'a'\" }"),
            flow("n: result.v", "{ forward: b, if: \"!exists(state.note)\", set: { note: \"state.note + 'x'\" } }, { forward: z }"),
            flow("note: null", "{ forward: b, if: \"(state.note + 'x') == 'y'\" }, { forward: z }"),
        ]
        for text in never { #expect(try !places(text).contains { $0.hasPrefix("maybe_unset") }, "\(text)") }
        let reached = flow("n: result.v", "{ forward: z, if: \"state.n > 1\" }, { forward: b, if: \"state.note > 'a'\" }")
        #expect(try places(reached).contains { $0.hasPrefix("maybe_unset") }, "\(reached)")
    }

    @Test func aPathKnownUnsetOrNullWhereAStepBeginsHoldsAtAStepNoRunPopsBackTo() throws {
        // docs/format.md, "Known across steps": 'c' is shown only by moves that leave 'ok' unset or null, so its
        // derived event `big` always fails there: its `next` is never tried, 'b' is no run's, and b's read of 'k'
        // (which no run sets) is not reported. When 'c' can move forward to a step that is not a finish step, a
        // run can pop back to it with 'ok' set ('d' sets it as it goes back), and when a move into 'c' may set
        // 'ok', nothing is known there: then the read is reported.
        func flow(_ a: String, other: String = "z", more: String = "") -> String {
            (Self.head.replacingOccurrences(of: "note: string? }", with: "note: string?, ok: bool? }")
                .replacingOccurrences(of: "events: { go: , other: }", with: "events: { go: , other: , big: \"state.ok\" }")) + """
                  a: { on: { go: \(a) } }
                  c: { on: { big: z, other: \(other) }, next: b }
                  b: { next: { forward: z, set: { n: "state.k" } } }
                  z: { kind: finish }
                  w: { next: { forward: z, set: { k: "1" } } }
                \(more)
                """
        }
        let withheld = [
            flow("[{ forward: c, if: \"!exists(state.ok)\" }, { forward: z }]"),
            flow("[{ forward: z, if: \"state.ok != null\" }, { forward: c }]"),
            flow("{ forward: c, set: { ok: \"null\" } }"),
            flow("[{ forward: c, if: \"state.ok == null\" }, { forward: z }]"),
        ]
        for text in withheld { #expect(try !places(text).contains { $0.hasPrefix("maybe_unset") }, "\(text)") }
        let reported = [
            // A forward move out of 'c' to a step that is not a finish step: a run can pop back to it.
            flow("[{ forward: c, if: \"!exists(state.ok)\" }, { forward: z }]", other: "d",
                 more: "  d: { on: { go: { back: true, set: { ok: \"false\" } } } }\n"),
            // A way into 'c' that knows nothing of 'ok'.
            flow("[{ forward: c, if: \"!exists(state.ok)\" }, { forward: c }]"),
            // A step between that may set it.
            flow("{ forward: m, if: \"!exists(state.ok)\" }", more: "  m: { result: { v: bool }, set: { ok: result.v }, next: c }\n"),
        ]
        for text in reported { #expect(try places(text).contains { $0.hasPrefix("maybe_unset") }, "\(text)") }
    }

    @Test func aValueKnownWhereAStepBeginsDecidesItsDerivedEvents() throws {
        // docs/format.md, "Known across steps": 's' is shown only where `big` (`state.ok`) held, or by an `if` that
        // held on it, so 'ok' is true there and its own evaluation of `big` always holds: its `next` is never tried,
        // 'b' is no run's, and b's read of 'k' (which no run sets) is not reported. When 'c', above 's', sets 'ok'
        // as it goes back to it, or a way into 's' knows nothing of 'ok', the read is reported.
        func flow(_ a: String, c: String = "{ next: z }") -> String {
            (Self.head.replacingOccurrences(of: "note: string? }", with: "note: string?, ok: bool }\ninputs: [ok]")
                .replacingOccurrences(of: "events: { go: , other: }", with: "events: { go: , other: , big: \"state.ok\" }")) + """
                  "*": { on: { big: s } }
                  a: \(a)
                  s: { on: { go: c }, next: b }
                  c: \(c)
                  b: { next: { forward: z, set: { n: "state.k" } } }
                  z: { kind: finish }
                  w: { next: { forward: z, set: { k: "1" } } }

                """
        }
        let withheld = [
            flow("{ next: z }"),
            flow("{ next: [{ forward: s, if: \"state.ok\" }, z] }"),
            flow("{ next: [{ forward: z, if: \"!state.ok\" }, s] }"),
        ]
        for text in withheld { #expect(try !places(text).contains { $0.hasPrefix("maybe_unset") }, "\(text)") }
        let reported = [
            flow("{ next: z }", c: "{ on: { go: { back: true, set: { ok: \"false\" } } }, next: z }"),
            flow("{ on: { go: s }, next: z }"),
        ]
        for text in reported { #expect(try places(text).contains { $0.hasPrefix("maybe_unset") }, "\(text)") }
    }

    @Test func anExplicitEventPastASetThatAlwaysFailsComesWithoutAResult() throws {
        // 'a''s `set` always fails, so a completion by 'go' gets past it only without a result: the `if` reading
        // 'result.v' always fails, the option after it is never tried, and 'b' is no run's (its read of 'k', which
        // no run sets, is not reported). With a `set` that can run, a completion with a result gets to 'b'.
        func flow(_ set: String) -> String {
            Self.head + """
                  a:
                    result: { v: int }
                    set: { n: \(set) }
                    on: { go: [{ forward: b, if: "result.v > 1" }, { forward: b }] }
                    next: z
                  b: { next: { forward: z, set: { n: "state.k" } } }
                  z: { kind: finish }
                  w: { next: { forward: z, set: { k: "1" } } }

                """
        }
        #expect(try !places(flow("\"'x'\"")).contains { $0.hasPrefix("maybe_unset") })
        #expect(try places(flow("result.v")).contains { $0.hasPrefix("maybe_unset") })
    }

    @Test func aConditionThatHoldsOnlyWhereItFailsIsNeverTaken() throws {
        // The right side of each `&&` always fails when it is evaluated ('a' has no 'tier' in its result; text
        // compared with a number), so the `if` and the derived event `big` are false or fail: 'b' is no run's, and its
        // read of 'k' (which no run sets) is not reported. The options after them are still tried.
        let found = try places(Self.head.replacingOccurrences(of: "events: { go: , other: }",
                                                              with: "events: { go: , big: \"state.n > 1 && result.tier == 'gold'\" }") + """
              a:
                result: { v: int }
                set: { n: result.v }
                on: { big: b }
                next:
                  - { forward: b, if: "state.n > 2 && (state.n + 'x') == 'y'" }
                  - { forward: z, set: { n: "state.k" } }
              b: { next: { forward: z, set: { n: "state.k" } } }
              z: { kind: finish }
              w: { next: { forward: z, set: { k: "1" } } }

            """)
        #expect(found.filter { $0.hasPrefix("maybe_unset") }.map { String($0.prefix(14)) } == ["maybe_unset 13"], "\(found)")
        #expect(!found.contains { $0.hasPrefix("unreachable_option") }, "\(found)")
    }

    @Test func whatAConstantRulesInAndADivisionByALiteralZeroAlwaysFail() throws {
        // Each option's `if` always fails: the right side of `true && …`, the branch a constant condition picks, and
        // a division by a literal zero are evaluated on every evaluation. So 'b', which only they lead to, is no
        // run's, and its read of 'k' (which nothing sets) is not reported.
        for condition in ["true && 1", "(1 > 2) ? false : 'x'", "state.n / 0 > 1", "(state.n % 0) == 1"] {
            let found = try places(Self.head + """
                  a:
                    result: { v: int }
                    set: { n: result.v }
                    next:
                      - { forward: b, if: "\(condition)" }
                  b: { next: { forward: z, set: { n: "state.k" } } }
                  z: { kind: finish }
                  w: { next: { forward: z, set: { k: "1" } } }

                """)
            #expect(!found.contains { $0.hasPrefix("maybe_unset") }, "\(condition): \(found)")
        }
        // Without the constant, the right side of `&&` may be skipped: 'b' may be reached, and the read reported.
        let found = try places(Self.head + """
              a:
                result: { v: int }
                set: { n: result.v }
                next:
                  - { forward: b, if: "state.n > 1 && 1" }
                  - { forward: b }
              b: { next: { forward: z, set: { n: "state.k" } } }
              z: { kind: finish }
              w: { next: { forward: z, set: { k: "1" } } }

            """)
        #expect(found.contains { $0.hasPrefix("maybe_unset 13:") }, "\(found)")
        // The operands' kinds are checked before the division: text divided by zero is a type error, reported.
        let text = try places(Self.head + """
              a: { result: { v: int }, set: { n: "'oops' / 0" }, next: z }
              z: { kind: finish }

            """)
        #expect(text.contains { $0.hasPrefix("type_mismatch 7:") }, "\(text)")
    }

    @Test func readsBehindWhereAnExpressionAlwaysFailsAreNotReported() throws {
        // 'k' is read after the comparison of a number with text fails, in the same expression and in the assignment
        // after it; read before it, it is reported.
        let found = try places((Self.head + """
              s: { on: { go: b }, next: a }
              a:
                result: { v: int }
                set: { n: "(100.0 >= 'oops') ? state.k : 1", tier: "state.k > 1 ? 'gold' : 'basic'" }
                next: z
              b:
                result: { v: int }
                set: { n: "state.k + (1 > 'x' ? 1 : 2)" }
                next: z
              z: { kind: finish }
              w: { next: { forward: z, set: { k: "1" } } }

            """).replacingOccurrences(of: "start: a", with: "start: s"))
        #expect(found.filter { $0.hasPrefix("maybe_unset") } == ["maybe_unset 14:16"], "\(found)")
        // A step whose `set` always fails evaluates no derived event: 'flagged''s read of 'k' is never made there.
        let events = try places(Self.head.replacingOccurrences(of: "events: { go: , other: }", with: "events: { go: , flagged: \"state.k > 1\" }") + """
              a:
                result: { v: int }
                set: { n: "'x'" }
                on: { flagged: z }
                next: z
              z: { kind: finish }
              w: { next: { forward: z, set: { k: "1" } } }

            """)
        #expect(!events.contains { $0.hasPrefix("maybe_unset") }, "\(events)")
        // A `? :` whose condition is not a bool stops before either branch: the branch's read of 'k' is never made.
        let branch = try places(Self.head + """
              a:
                result: { v: int }
                set: { n: "(1 ? state.k : 2) + 1" }
                next: z
              z: { kind: finish }
              w: { next: { forward: z, set: { k: "1" } } }

            """)
        #expect(!branch.contains { $0.hasPrefix("maybe_unset") } && branch.contains { $0.hasPrefix("type_mismatch") }, "\(branch)")
    }

    @Test func soundnessHoldsBehindTheseRules() throws {
        // A list whose only option's `set` always fails can still fail its `if`: no option holds then, and that
        // run error is foreseen.
        let found = try places(Self.head + """
              a:
                result: { v: int }
                set: { k: result.v }
                on: { go: [{ forward: z, if: "state.k == 2", set: { n: "'x'" } }] }
                next: z
              z: { kind: finish }

            """)
        #expect(found.contains { $0.hasPrefix("non_exhaustive_guards 10:") }, "\(found)")
    }
}
