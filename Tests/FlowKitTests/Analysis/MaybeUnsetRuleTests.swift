import Foundation
import Testing
@testable import FlowKit

/// Runs `rule` (and the steps' suppressions, as `flowkit lint` does) on a YAML flow whose `↓` markers show where
/// its findings must point, checks the positions, and returns the findings as `severity step: message`, in file
/// order. Works whether or not the rule is registered in `Linter.rules`.
func markedFindings(_ text: String, rule: any Rule.Type, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
    let (plain, markers) = stripMarkers(text)
    let document = FlowLoader.load(bytes: Array(plain.utf8), file: "t.yaml", format: .yaml)
    let context = LintContext(document: document)
    var findings = rule.check(context)
    if let flow = document.flow { findings = Linter.applySuppressions(findings, flow: flow, context: context) }
    findings = findings.filter { $0.rule == rule.description.identifier }
        .sorted { ($0.position, $0.message) < ($1.position, $1.message) }
    #expect(findings.map(\.position) == markers.sorted(), "\(findings.map { "\($0.position) \($0.message)" })",
            sourceLocation: sourceLocation)
    return findings.map { "\($0.severity.rawValue) \($0.step ?? "-"): \($0.message)" }
}

@Suite("maybe_unset")
struct MaybeUnsetRuleTests {
    @Test func aBranchThatSkipsTheSetGivesAWitnessPath() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: a
            state: { k: int }
            events: { skip: }
            steps:
              a: { on: { skip: c }, next: b }
              b: { result: { k: int }, set: { k: result.k }, next: c }
              c: { next: { forward: done, if: "↓state.k > 1 && state.k < 9" } }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings == ["warning c: step 'c' reads 'k', which is not set on every path to it (not on the path 'a' -> 'c')"])
    }

    @Test func entryPathParametersCountAsSet() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: amount
            state: { amount: int, tariff: string }
            entries:
              editTariff: { step: tariffs, path: "/t/{amount}" }
              browse: { step: tariffs, path: /browse }
            steps:
              amount: { result: { amount: int }, set: { amount: result.amount }, next: tariffs }
              tariffs: { result: { tariff: string }, set: { tariff: result.tariff }, next: confirm }
              confirm:
                next: { forward: done, set: { tariff: "state.tariff + ↓state.amount" } }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings == [
            "warning confirm: step 'confirm' reads 'amount', which is not set on every path to it (not on the path from entry 'browse': 'tariffs' -> 'confirm')",
        ])
    }

    @Test func anEntryAtTheReadingStep() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: a
            state: { k: int }
            entries: { late: { step: b, path: /late } }
            steps:
              a: { result: { k: int }, set: { k: result.k }, next: b }
              b: { next: { forward: done, set: { k: "↓state.k + 1" } } }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings == ["warning b: step 'b' reads 'k', which is not set on every path to it (not when entry 'late' starts the run at 'b')"])
    }

    @Test func aKeySetInsideALoopIsUnsetAtItsHead() {
        // `ask` reads `count` in its own `set`, before assigning it: unset the first time round. `total` is set
        // before the loop, and `check` reads `count` after `ask` set it.
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: init
            state: { count: int, total: int }
            steps:
              init: { result: { total: int }, set: { total: result.total }, next: ask }
              ask:
                result: { n: int }
                set: { count: result.n, total: "state.total + ↓state.count" }
                next: check
              check: { next: [{ forward: ask, if: "state.count < 3" }, done] }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings == ["warning ask: step 'ask' reads 'count', which is not set on every path to it (not on the path 'init' -> 'ask')"])
    }

    @Test func backMovesAndRestartAddNoUnsetPath() {
        // `review` is an entry without `k`, and goes back to `show` and restarts: neither makes `k` unset at
        // `show`, whose every arrival by forward moves comes from `setK`.
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: setK
            state: { k: int }
            events:
              edit:
              again:
            entries: { deep: { step: review, path: /review } }
            steps:
              setK: { result: { k: int }, set: { k: result.k }, next: show }
              show: { next: { forward: review, if: "state.k > 0" } }
              review: { on: { edit: { back: show }, again: { restart: true } }, next: done }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings.isEmpty)
        // The same edit as a forward move does bring the entry's state to `show`.
        let forward = markedFindings("""
            flowkit: 1
            flow: t
            start: setK
            state: { k: int }
            events: { edit: }
            entries: { deep: { step: review, path: /review } }
            steps:
              setK: { result: { k: int }, set: { k: result.k }, next: show }
              show: { next: { forward: review, if: "↓state.k > 0" } }
              review: { on: { edit: show }, next: done }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(forward == ["warning show: step 'show' reads 'k', which is not set on every path to it (not on the path from entry 'deep': 'review' -> 'show')"])
    }

    @Test func existsGuards() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: a
            state: { k: int, o: "int?" }
            events: { e1: null, e2: null, e3: null, e4: null, e5: null, e6: null, e7: null, e8: null }
            steps:
              a:
                on:
                  e1: { forward: done, if: "exists(state.k) && state.k > 1" }
                  e2: { forward: done, if: "!exists(state.k) || state.k > 1" }
                  e3: { forward: done, if: "exists(state.k) ? state.k > 1 : false" }
                  e4: { forward: done, if: "state.o > 1 && exists(state.k) && (state.k > 2 || state.k < 0)" }
                  e5: { forward: done, if: "exists(state.k) ? false : ↓state.k > 1" }
                  e6: { forward: done, if: "exists(state.k) || ↓state.k > 1" }
                  e7: { forward: done, if: "!(exists(state.o) && exists(state.k)) || state.k > 1" }
                  e8: { forward: done, set: { k: 1 } }
                next: done
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings.count == 2)
    }

    @Test func conditionsProveKeysOnTheirMove() {
        // `b` is reached only when exists(state.k) held; `d` only when !exists(state.k) failed; `x` when it held.
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: a
            state: { k: int }
            steps:
              a: { next: [{ forward: b, if: "exists(state.k)" }, c] }
              b: { next: { forward: done, if: "state.k > 0" } }
              c: { next: [{ forward: x, if: "!exists(state.k)" }, d] }
              d: { next: { forward: done, set: { k: "state.k + 1" } } }
              x: { next: { forward: done, set: { k: "↓state.k + 1" } } }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings == ["warning x: step 'x' reads 'k', which is not set on every path to it (not on the path 'a' -> 'c' -> 'x')"])
    }

    @Test func optionalKeysUnreachableStepsAndFinishStepsNeverWarn() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: a
            state: { k: int, note: "string?" }
            steps:
              a: { next: { forward: done, if: "state.note != null" } }
              orphan: { next: { forward: done, if: "state.k > 1" } }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings.isEmpty)
    }

    @Test func sharedReadsAreReportedOnceAtTheFirstStepThatLacksTheKey() {
        // `big` is handled by "*", so every step evaluates it: 'a' lacks `total`. `help` is overridden by 'a'; 'b'
        // may complete with it before its `set` runs, and 'c' has `total`; `info` is used by 'a' too. 'a' goes to
        // 'b' by an explicit event, which evaluates no derived event (by `next`, the read of `big` at 'a' would
        // have failed first: see the next test).
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: a
            state: { total: int }
            events:
              big: "↓state.total > 10"
              help:
              info:
              go:
            steps:
              "*": { on: { big: done, help: { forward: done, if: "↓state.total > 1" }, info: { forward: done, if: "↓state.total > 2" } } }
              a: { on: { help: done, go: b } }
              b: { result: { total: int }, set: { total: result.total }, next: c }
              c: { next: done }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings == [
            "warning a: step 'a' reads 'total' in event 'big', which is not set on every path to it (not when the run starts at 'a')",
            // 'b' may complete with 'help' and no result: its `set` has not run.
            "warning b: step 'b' reads 'total' in the '*' handler for 'help', which is not set on every path to it (not on the path 'a' -> 'b')",
            "warning a: step 'a' reads 'total' in the '*' handler for 'info', which is not set on every path to it (not when the run starts at 'a')",
        ])
    }

    @Test func aStepThatAllowsTheRuleHandsSharedFindingsToTheNextStep() {
        let flow = { (allowB: Bool) in """
            flowkit: 1
            flow: t
            start: a
            state: { total: int }
            events: { go: null }
            steps:
              "*": { next: { forward: done, if: "\(allowB ? "" : "↓")state.total > 2" } }
              a: { lint: { allow: [maybe_unset], reason: the host passes a total here }, on: { go: b } }
              b: { \(allowB ? "lint: { allow: [maybe_unset], reason: same }, " : "")on: { go: c } }
              c: { result: { total: int }, set: { total: result.total }, on: { go: done } }
              done: { kind: finish }
            """ }
        #expect(markedFindings(flow(false), rule: MaybeUnsetRule.self) == [
            "warning b: step 'b' reads 'total' in the '*' 'next', which is not set on every path to it (not on the path 'a' -> 'b')",
        ])
        #expect(markedFindings(flow(true), rule: MaybeUnsetRule.self).isEmpty)
    }

    @Test func flowStepsReadInputBeforeTheirSet() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: pay
            state: { amount: int, receipt: string }
            steps:
              pay:
                kind: flow
                flow: card.yaml
                input: { total: "↓state.amount" }
                set: { receipt: result.id, amount: 1 }
                next: { forward: done, if: "state.receipt != ''" }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings == ["warning pay: step 'pay' reads 'amount', which is not set on every path to it (not when the run starts at 'pay')"])
    }

    @Test func flowsWithStructuralErrorsAreNotAnalysed() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: a
            state: { k: int }
            bogus: 1
            steps:
              a: { next: { forward: done, if: "state.k > 1" } }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings.isEmpty)
    }

    @Test func manyKeysAndALongChainInChunksOrNot() {
        // 200 keys (four words) set one per step along a chain of 200 steps; the last step reads all of them,
        // the first step reads key 150 before anyone set it.
        var text = "flowkit: 1\nflow: t\nstart: s0\nstate:\n"
        for k in 0..<200 { text += "  k\(k): int\n" }
        text += "steps:\n"
        for i in 0..<200 {
            text += "  s\(i): { result: { v: int }, set: { k\(i): result.v"
            if i == 0 { text += ", k199: \"↓state.k150\"" }
            text += " }, next: s\(i + 1) }\n"
        }
        text += "  s200:\n    next:\n      forward: done\n      set:\n"
        for k in 0..<200 { text += "        k\(k): state.k\((k + 1) % 200)\n" }
        text += "  done: { kind: finish }\n"
        let findings = markedFindings(text, rule: MaybeUnsetRule.self)
        #expect(findings == ["warning s0: step 's0' reads 'k150', which is not set on every path to it (not when the run starts at 's0')"])
        // The same answer when the analysis runs 64 keys at a time.
        let document = FlowLoader.load(bytes: Array(stripMarkers(text).text.utf8), file: "t.yaml", format: .yaml)
        let chunked = MaybeUnsetRule.check(LintContext(document: document), bitBudget: 1, pairLimit: MaybeUnsetRule.pairLimit)
        #expect(chunked.map { "warning s0: \($0.message)" } == findings)
    }

    @Test func onlyKeysThatAreReadTakePartAndTensOfThousandsOfDeclaredKeysStayCheap() {
        var text = "flowkit: 1\nflow: t\nstart: a\nstate:\n"
        for i in 0..<30_000 { text += "  k\(i): int\n" }
        text += "steps:\n  a: { result: { v: int }, set: { k7: result.v }, next: b }\n"
        text += "  b: { next: { forward: done, if: \"state.k7 > 0 && ↓state.k29999 > 0\", set: { k29999: 1 } } }\n  done: { kind: finish }\n"
        let findings = markedFindings(text, rule: MaybeUnsetRule.self)
        #expect(findings == ["warning b: step 'b' reads 'k29999', which is not set on every path to it (not on the path 'a' -> 'b')"])
    }

    @Test func pastThePairLimitTheRuleSaysSoOnceInsteadOfRunningForMinutes() {
        let text = """
            flowkit: 1
            flow: t
            start: a
            state: { x: int, y: int }
            steps:
              a: { next: { forward: done, if: "state.x > state.y" } }
              done: { kind: finish }
            """
        let document = FlowLoader.load(bytes: Array(text.utf8), file: "t.yaml", format: .yaml)
        let limited = MaybeUnsetRule.check(LintContext(document: document), bitBudget: MaybeUnsetRule.bitBudget, pairLimit: 3)
        #expect(limited.map(\.message) == [
            "the flow is too large for this check: 2 state keys read across 5 graph nodes is more than 3 key-node pairs, so reads of unset keys are not checked; split the flow",
        ])
        #expect(limited.map(\.position) == [SourcePosition(line: 3, column: 8)])
        #expect(MaybeUnsetRule.check(LintContext(document: document)).count == 2, "under the limit both reads are checked")
    }
}

/// Issue 11: `maybe_unset` follows the engine's completions and the flow's inputs.
@Suite("maybe_unset: completions and inputs")
struct MaybeUnsetCompletionTests {
    @Test func aSetRunsOnlyWithAResultSoAnExplicitEventSkipsIt() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: ask
            state: { name: string }
            events: { skip: }
            steps:
              ask: { result: { name: string }, set: { name: result.name }, on: { skip: hello }, next: hello }
              hello: { next: { forward: done, if: "↓state.name != ''" } }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings == [
            "warning hello: step 'hello' reads 'name', which is not set on every path to it (not when 'ask' completes with event 'skip', on the path 'ask' -> 'hello')",
        ])
    }

    @Test func anExplicitEventsOptionsPastAnIfThatFailsOnlyWithAResultHaveOne() {
        // 'skip' without a result takes the first option (`!exists(result.name)` holds): the second is tried only
        // with a result, so the step's `set` ran and 'name' is set at 'hello'; through the first, it may not be.
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: ask
            state: { name: string, seen: int }
            events: { skip: }
            steps:
              ask:
                result: { name: string? }
                set: { name: "exists(result.name) ? result.name : ''" }
                on: { skip: [{ forward: other, if: "!exists(result.name)" }, hello] }
                next: hello
              hello: { next: { forward: done, if: "state.name != ''" } }
              other: { next: { forward: done, if: "↓state.name != ''" } }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings == [
            "warning other: step 'other' reads 'name', which is not set on every path to it (not when 'ask' completes with event 'skip', on the path 'ask' -> 'other')",
        ])
    }

    @Test func aReadInBothBranchesOfAConditionalIsMadeOnEveryEvaluation() {
        // 'seen' is read in both branches of the `? :` of 'a''s first assignment: a run where it is unset stops
        // there, so the second assignment's read of it is not another finding. A read in one branch only proves
        // nothing: the fourth assignment's read of 'j' is one.
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: s
            state: { seen: int, j: int, n: int, m: int, k: int, l: int, ok: bool }
            inputs: [ok]
            steps:
              s: { next: [{ forward: a, if: "state.ok", set: { seen: "1", j: "2" } }, a] }
              a:
                result: { v: int }
                set:
                  n: "state.ok ? ↓state.seen + 1 : state.seen - 1"
                  m: "state.seen"
                  k: "state.ok ? ↓state.j : 2"
                  l: "↓state.j"
                next: done
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings.count == 3, "\(findings)")
    }

    @Test func derivedEventsAndNextCompleteWithAResult() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: ask
            state: { name: string }
            events: { short: "result.name == ''" }
            steps:
              ask: { result: { name: string }, set: { name: result.name }, on: { short: hello }, next: hello }
              hello: { next: { forward: done, if: "state.name != ''" } }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings.isEmpty)
    }

    @Test func aFlowStepsSetRunsOnEveryOutcome() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: pay
            state: { paid: bool }
            events: { done: null, cancelled: null }
            steps:
              pay: { kind: flow, flow: child.yaml, set: { paid: "true" }, on: { done: end, cancelled: end } }
              end: { next: { forward: fin, if: "state.paid" } }
              fin: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings.isEmpty)
    }

    @Test func aSetOfAStepWithoutResultNeverRunsAndReadsNothing() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: a
            state: { k: int, j: int }
            steps:
              a: { set: { j: "state.k" }, next: b }
              b: { next: { forward: done, if: "↓state.j > 0" } }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings == [
            "warning b: step 'b' reads 'j', which is not set on every path to it (not when 'a' completes without a result (it declares none), on the path 'a' -> 'b')",
        ])
    }

    @Test func requiredInputsAreSetAtStartButNotAtEntries() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: a
            state: { country: string, note: string? }
            inputs: [country, note]
            entries: { deep: { step: b, path: /b } }
            steps:
              a: { next: { forward: b, if: "state.country != ''" } }
              b: { next: { forward: done, if: "↓state.country == 'RU'" } }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings == [
            "warning b: step 'b' reads 'country', which is not set on every path to it (not when entry 'deep' starts the run at 'b')",
        ])
    }

    @Test func aRestartInARunBegunAtAnEntryShowsStartWithoutTheInputs() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: a
            state: { country: string }
            inputs: [country]
            events: { again: }
            entries: { deep: { step: b, path: /b } }
            steps:
              a: { next: { forward: done, if: "↓state.country != ''" } }
              b: { on: { again: { restart: true } }, next: done }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(findings == [
            "warning a: step 'a' reads 'country', which is not set on every path to it (not after a restart in a run begun at entry 'deep')",
        ])
        let withoutRestart = markedFindings("""
            flowkit: 1
            flow: t
            start: a
            state: { country: string }
            inputs: [country]
            entries: { deep: { step: b, path: /b } }
            steps:
              a: { next: { forward: done, if: "state.country != ''" } }
              b: { next: done }
              done: { kind: finish }
            """, rule: MaybeUnsetRule.self)
        #expect(withoutRestart.isEmpty)
    }
}

/// Issue 11: a `flow` step's reads of its nested flow's final state, by outcome.
@Suite("maybe_unset: nested flow results by outcome")
struct NestedOutcomeTests {
    func lint(_ parent: String, child: String) throws -> [String] {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("flowkit-outcomes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try child.write(toFile: folder + "/child.yaml", atomically: true, encoding: .utf8)
        try parent.write(toFile: folder + "/parent.yaml", atomically: true, encoding: .utf8)
        let document = try FlowLoader.load(path: folder + "/parent.yaml")
        return Linter.lint(document).filter { $0.rule == "maybe_unset" || $0.rule == "type_mismatch" }
            .map { "\($0.line):\($0.column) \($0.rule) \($0.message)" }
    }

    static let child = """
        flowkit: 1
        flow: pay
        start: card
        state: { amount: int, token: string, note: string? }
        inputs: [amount]
        events: { cancel: null }
        steps:
          card:
            result: { token: string }
            set: { token: result.token }
            on: { cancel: cancelled }
            next: done
          done: { kind: finish }
          cancelled: { kind: finish }
        """

    @Test func aKeyTheNestedFlowMayFinishWithoutIsReportedWithTheOutcome() throws {
        let findings = try lint("""
            flowkit: 1
            flow: shop
            start: pay
            state: { token: string }
            events: { done: null, cancelled: null }
            steps:
              pay:
                kind: flow
                flow: child.yaml
                input: { amount: 5 }
                set: { token: result.token }
                on:
                  done: { forward: fin, set: { token: result.token } }
                  cancelled: { forward: fin, if: "result.amount > 1 && exists(result.token) && result.token != ''" }
                next: fin
              fin: { kind: finish }
            """, child: Self.child)
        #expect(findings == [
            "11:19 maybe_unset step 'pay' reads 'result.token', which nested flow 'child.yaml' may finish without (not when it finishes with 'cancelled')",
        ])
    }

    /// A nested flow with more keys than one chunk of the analysis: past the first chunk, an outcome's keys are still
    /// those set before every finish step with that outcome (they were the union over its finish steps).
    @Test func anOutcomeOfTwoFinishStepsKeepsOnlyKeysBothSetPastTheFirstChunk() throws {
        let child = FlowLoader.load(bytes: Array("""
            flowkit: 1
            flow: pay
            start: card
            state: { k0: string, k1: string, k2: string, k3: string, k4: string, k5: string, k6: string, k7: string, k8: string, k9: string, k10: string, k11: string, k12: string, k13: string, k14: string, k15: string, k16: string, k17: string, k18: string, k19: string, k20: string, k21: string, k22: string, k23: string, k24: string, k25: string, k26: string, k27: string, k28: string, k29: string, k30: string, k31: string, k32: string, k33: string, k34: string, k35: string, k36: string, k37: string, k38: string, k39: string, k40: string, k41: string, k42: string, k43: string, k44: string, k45: string, k46: string, k47: string, k48: string, k49: string, k50: string, k51: string, k52: string, k53: string, k54: string, k55: string, k56: string, k57: string, k58: string, k59: string, k60: string, k61: string, k62: string, k63: string, k64: string, k65: string, k66: string, k67: string, k68: string, k69: string }
            events: { go: null }
            steps:
              card:
                on: { go: { forward: viaSet, set: { k0: "'a'", k69: "'a'" } } }
                next: plain
              viaSet: { kind: finish, outcome: done }
              plain: { kind: finish, outcome: done }
            """.utf8), file: "child.yaml", format: .yaml).flow
        let flow = try #require(child)
        for budget in [1, MaybeUnsetRule.bitBudget] {
            let byOutcome = NestedOutcomes.keys(of: flow, given: ["k1", "k68"], parse: { ExpressionParser.parse($0) }, bitBudget: budget)
            #expect(byOutcome == ["done": ["k1", "k68"]], "bit budget \(budget)")
        }
    }

    /// The nested flow is analysed once; each step's passed keys count as set at every outcome.
    @Test func stepsPassingDifferentInputsToOneNestedFlowAreJudgedEachByItsOwn() throws {
        let findings = try lint("""
            flowkit: 1
            flow: shop
            start: first
            state: { token: string }
            events: { done: null, cancelled: null }
            steps:
              first: { kind: flow, flow: child.yaml, input: { amount: 5, token: "'t'" }, set: { token: result.token }, next: second }
              second: { kind: flow, flow: child.yaml, input: { amount: 5 }, set: { token: result.token }, next: fin }
              fin: { kind: finish }
            """, child: Self.child)
        #expect(findings == [
            "8:79 maybe_unset step 'second' reads 'result.token', which nested flow 'child.yaml' may finish without (not when it finishes with 'cancelled')",
        ])
    }

    @Test func anOptionalChildKeyStoredInARequiredParentKeyIsMaybeNullOrAlwaysNull() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("flowkit-outcomes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.child.write(toFile: folder + "/child.yaml", atomically: true, encoding: .utf8)
        try """
            flowkit: 1
            flow: shop
            start: pay
            state: { label: string }
            events: { done: null, cancelled: null }
            steps:
              pay: { kind: flow, flow: child.yaml, input: { amount: 5, note: "'n'" }, set: { label: result.note }, on: { done: fin, cancelled: fin } }
              fin: { kind: finish }
            """.write(toFile: folder + "/parent.yaml", atomically: true, encoding: .utf8)
        let findings = Linter.lint(try FlowLoader.load(path: folder + "/parent.yaml")).map { "\($0.rule) \($0.message)" }
        #expect(findings == ["maybe_null 'result.note' may be null, and step 'pay' sets 'label', which is not optional; guard it with exists(result.note)"])
        // Not passed, 'note' is never set in the nested flow (nothing there writes it): always null.
        let never = try String(contentsOfFile: folder + "/parent.yaml", encoding: .utf8).replacingOccurrences(of: ", note: \"'n'\"", with: "")
        try never.write(toFile: folder + "/parent.yaml", atomically: true, encoding: .utf8)
        let always = Linter.lint(try FlowLoader.load(path: folder + "/parent.yaml")).map { "\($0.rule) \($0.message)" }
        #expect(always == ["type_mismatch step 'pay' sets 'label': expected a string, found null (the type is not optional): the nested flow never sets 'note' when this step starts it"])
    }

    @Test func aRequiredInputTheParentDoesNotPassIsAnError() throws {
        let findings = try lint("""
            flowkit: 1
            flow: shop
            start: pay
            events: { done: null, cancelled: null }
            steps:
              pay: { kind: flow, flow: child.yaml, on: { done: fin, cancelled: fin } }
              fin: { kind: finish }
            """, child: Self.child)
        #expect(findings == [
            "6:28 type_mismatch step 'pay' does not pass 'amount' in its 'input', and nested flow 'child.yaml' requires that input",
        ])
    }
}

/// One cause, one finding (issue 28, item 9): a read that every evaluation makes counts as setting the key for
/// what follows, so a key unset on one path is reported at its first read, naming the later ones.
@Suite("maybe_unset: one cause, one finding")
struct MaybeUnsetCascadeTests {
    static func findings(_ yaml: String) -> [Diagnostic] {
        Linter.lint(FlowLoader.load(bytes: Array(yaml.utf8), file: "t.yaml")).filter { $0.rule == .maybeUnset }
    }

    static let head = "flowkit: 1\nflow: t\nstart: a\nstate: { limit: int, total: int, x: int }\ninputs: [x]\nevents: { skip: }\nsteps:\n"
        + "  a: { result: { n: int }, set: { limit: result.n }, on: { skip: b }, next: b }\n"

    @Test func laterReadsAreNamedNotReported() {
        let found = Self.findings(Self.head + """
              b: { result: { n: int }, set: { total: "state.limit + result.n" }, next: c }
              c: { next: [{ forward: d, if: "state.limit > 3" }, d] }
              d: { next: { forward: e, set: { total: "state.limit" } } }
              e: { kind: finish }

            """)
        #expect(found.count == 1)
        #expect(found.first?.step == "b")
        #expect(found.first?.message.hasSuffix("; also read at 'c' and 'd', after a read of it that fails first") == true, "\(found.map(\.message))")
    }

    @Test func aReadThatMayBeSkippedCoversNothing() {
        // `state.x > 5 && state.limit > 3` reads 'limit' only when x > 5: the read at 'd' can still fail first.
        let found = Self.findings(Self.head + """
              b: { next: [{ forward: d, if: "state.x > 5 && state.limit > 3" }, d] }
              d: { next: { forward: e, set: { total: "state.limit" } } }
              e: { kind: finish }

            """)
        #expect(found.map(\.step) == ["b", "d"], "\(found.map(\.message))")
        #expect(found.allSatisfy { !$0.message.contains("also read at") })
    }

    @Test func anEarlierOptionsConditionCoversTheOptionsAfterIt() {
        let found = Self.findings(Self.head + """
              b: { next: [{ forward: e, if: "state.limit > 3" }, { forward: e, set: { total: "state.limit" } }] }
              e: { kind: finish }

            """)
        #expect(found.count == 1 && found.first?.position.column == 34, "\(found.map { "\($0.position) \($0.message)" })")
    }

    /// The derived events a step evaluates come before its `next` and their handlers: what they read on every
    /// evaluation is set there, or the run stopped at their read (docs/format.md, "One cause, one finding").
    static func derived(_ steps: String) -> [String] {
        findings("""
            flowkit: 1
            flow: t
            start: a
            state: { ok: bool, tier: [gold, basic], note: "string?" }
            events: { go: , flagged: "state.ok", plain: "state.tier == 'gold'", done: }
            steps:

            """ + steps + "  w: { next: { forward: z, set: { ok: \"true\", tier: \"'gold'\" } } }\n  z: { kind: finish }\n").map { "\($0.step ?? "-") \($0.position)" }
    }

    @Test func derivedEventsReadBeforeNextAndTheirHandlers() {
        // 'a' evaluates `flagged` (its own handler) before `next`: `next`'s read of 'ok' cannot fail first, nor can
        // the handler's `set`.
        #expect(Self.derived("""
              a: { on: { flagged: { forward: z, set: { note: "state.ok ? 'y' : 'n'" } } }, next: [{ forward: z, if: "state.ok" }, z] }

            """) == ["a 5:27"])
        // A handler of a later event sees the earlier ones false, and their reads: 'plain' reads 'tier' only after
        // `flagged` read 'ok'.
        #expect(Self.derived("""
              a: { on: { flagged: z, plain: { forward: z, if: "state.ok" } }, next: z }

            """) == ["a 5:27", "a 5:46"])
    }

    @Test func explicitEventsFlowStepsAndAStarNextAFlowStepUsesSeeNoDerivedEvent() throws {
        // An explicit event evaluates no derived event: its handler's read is reported.
        #expect(Self.derived("""
              a: { on: { flagged: z, go: { forward: z, if: "state.ok" } }, next: z }

            """) == ["a 5:27", "a 7:49"])
        // `"*"`'s `next` is used by 'b', a `flow` step with no `next` of its own, which evaluates no derived event.
        let child = "flowkit: 1\nflow: c\nstart: s\nsteps:\n  s: { next: f }\n  f: { kind: finish }\n"
        let parent = """
            flowkit: 1
            flow: t
            start: a
            state: { ok: bool }
            events: { flagged: "state.ok", go: }
            steps:
              "*": { on: { flagged: z }, next: { forward: z, if: "state.ok" } }
              a: { on: { go: b } }
              b: { kind: flow, flow: c.yaml, on: { f: z } }
              w: { next: { forward: z, set: { ok: "true" } } }
              z: { kind: finish }

            """
        let found = try lintFiles(["c.yaml": child, "t.yaml": parent], linting: "t.yaml").filter { $0.rule == .maybeUnset }.map { "\($0.step ?? "-") \($0.position)" }
        #expect(found.contains("a 7:55"), "\(found)")
    }

    @Test func anExplicitEventsOptionBehindAReadOfTheResultComesAfterTheStepsSet() throws {
        // 'go' may come without a result, and then 'a''s `set` does not run; but its first option reads 'result.v'
        // on every evaluation, so a move through it, or through an option after it, has a result: the `set` ran and
        // wrote 'k'. An option tried before any such read may come without one.
        func reads(_ options: String) throws -> [String] {
            let yaml = """
                flowkit: 1
                flow: t
                start: a
                state: { n: int, k: int }
                events: { go: }
                steps:
                  a:
                    result: { v: int }
                    set: { k: result.v }
                    on: { go: [\(options)] }
                    next: z
                  b: { next: { forward: z, set: { n: "state.k" } } }
                  z: { kind: finish }
                """
            return Linter.lint(FlowLoader.load(bytes: Array(yaml.utf8), file: "r.yaml")).filter { $0.rule == .maybeUnset }.compactMap(\.subject)
        }
        #expect(try reads("{ forward: b, if: \"result.v > 1\" }, { forward: b }") == [])
        #expect(try reads("{ forward: b, if: \"exists(result.v)\" }, { forward: b }") == ["k"])
    }

    @Test func aRunBegunAtANestedEntryGivesTheNestedFlowNoRequiredInput() throws {
        // The entry 'e' starts 'p''s nested flow at its entry 'deep', which demands no input: it finishes without
        // 'token', and 'p''s read of it fails there. Without the entry, a run that gets past 'p''s `input` passed it.
        let child = """
            flowkit: 1
            flow: child
            start: a
            state: { token: string }
            inputs: [token]
            entries: { deep: { step: a, path: "/deep" } }
            steps:
              a: { next: done }
              done: { kind: finish, outcome: ok }
            """
        func parent(_ entries: String) -> String {
            """
            flowkit: 1
            flow: parent
            start: p
            state: { t: string }
            \(entries)
            events: { ok: }
            steps:
              p: { kind: flow, flow: child.yaml, input: { token: "'x'" }, set: { t: result.token }, on: { ok: end } }
              end: { kind: finish }
            """
        }
        func reads(_ entries: String) throws -> [String] {
            try lintFiles(["child.yaml": child, "t.yaml": parent(entries)], linting: "t.yaml").filter { $0.rule == .maybeUnset }.compactMap(\.subject)
        }
        #expect(try reads("entries: { e: { step: p, entry: deep, path: /x } }") == [], "the input is passed at the nested entry too")
        let unpassed = { (text: String) in text.replacingOccurrences(of: "input: { token: \"'x'\" }, ", with: "") }
        let found = try lintFiles(["child.yaml": child, "t.yaml": unpassed(parent("entries: { e: { step: p, entry: deep, path: /x } }"))], linting: "t.yaml")
        #expect(found.contains { $0.rule == .maybeUnset && $0.subject == "result.token" }, "\(found.map(\.message))")
        let started = try lintFiles(["child.yaml": child, "t.yaml": unpassed(parent(""))], linting: "t.yaml")
        #expect(!started.contains { $0.rule == .maybeUnset }, "\(started.map(\.message))")
    }

    @Test func aStarHandlerOfADerivedEventSeesItsReadsUnlessAFlowStepUsesItForAnOutcome() throws {
        // `"*"` handles `flagged`, which reads 'ok'; 'b' is a `flow` step without a handler of `flagged`. Its nested
        // flow finishing only with 'f', 'b' never uses that handler: the handler's read of 'ok' comes after the
        // event's, which fails first. A nested flow that can finish 'flagged' uses it there, with nothing read.
        func found(_ finish: String) throws -> [String] {
            let child = "flowkit: 1\nflow: c\nstart: s\nsteps:\n  s: { next: \(finish) }\n  \(finish): { kind: finish }\n"
            let parent = """
                flowkit: 1
                flow: t
                start: a
                state: { ok: bool, n: int }
                events: { flagged: "state.ok", go: , f: }
                steps:
                  "*": { on: { flagged: { forward: z, set: { n: "state.ok ? 1 : 2" } } } }
                  a: { on: { go: b }, next: z }
                  b: { kind: flow, flow: c.yaml, on: { f: z }, next: z }
                  w: { next: { forward: z, set: { ok: "true" } } }
                  z: { kind: finish }

                """
            return try lintFiles(["c.yaml": child, "t.yaml": parent], linting: "t.yaml").filter { $0.rule == .maybeUnset }.map { "\($0.step ?? "-") \($0.position)" }
        }
        #expect(try found("f") == ["a 5:21"])
        #expect(try found("flagged") == ["a 5:21", "a 7:50"])
    }
}

/// One cause, one finding for reads of `result` (issue 28, item 9): after an `if` or an assignment that reads the
/// result on every evaluation, a completion without a result has stopped, so the later reads are not reported.
@Suite("Reading a result: one cause, one finding")
struct ResultReadCascadeTests {
    @Test func theFirstReadOfAMissingResultIsTheOnlyFinding() {
        let yaml = """
            flowkit: 1
            flow: rk
            start: ask
            state: { n: int, m: int }
            events: { skip: }
            steps:
              ask:
                result: { x: int }
                on:
                  skip:
                    - { forward: done, if: "result.x > 1", set: { n: result.x, m: "result.x + 1" } }
                    - done
                next: done
              done: { kind: finish }
            """
        let findings = Linter.lint(FlowLoader.load(bytes: Array(yaml.utf8), file: "rk.yaml")).filter { $0.rule == .typeMismatch }
        #expect(findings.map(\.position) == [SourcePosition(line: 11, column: 33)], "\(findings.map { "\($0.position) \($0.message)" })")
        // A read the `if` may skip covers nothing: the `if` and the first assignment are reported, not the second.
        let skipped = Linter.lint(FlowLoader.load(bytes: Array(yaml.replacingOccurrences(of: "if: \"result.x > 1\"", with: "if: \"state.n > 1 && result.x > 1\"").utf8),
                                                  file: "rk.yaml")).filter { $0.rule == .typeMismatch }
        #expect(skipped.count == 2, "\(skipped.map { "\($0.position) \($0.message)" })")
    }
}
