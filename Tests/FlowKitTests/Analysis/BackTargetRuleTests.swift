import Testing
@testable import FlowKit

@Suite("back_target")
struct BackTargetRuleTests {
    @Test func anEntryThatSkipsTheTargetIsAWarning() {
        // The design's transfer flow: 'editTariff' starts at 'tariffs', so 'amount' is not on every path to
        // 'confirmation'; 'tariffs' is.
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: amount
            events: { editAmount: null, editTariff: null }
            entries:
              editTariff: { step: tariffs, path: "/t/{amount}" }
            state: { amount: int }
            steps:
              amount: { next: tariffs }
              tariffs: { next: confirmation }
              confirmation:
                on:
                  editAmount: ↓{ back: amount }
                  editTariff: { back: tariffs }
                next: done
              done: { kind: finish }
            """, rule: BackTargetRule.self)
        #expect(findings == [
            "warning confirmation: step 'confirmation' goes back to 'amount', which is not on every path to it (not on the path from entry 'editTariff': 'tariffs' -> 'confirmation')",
        ])
    }

    @Test func aTargetThatCannotReachTheStepIsAnError() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: a
            events: { undo: null, e: null }
            steps:
              a:
                on:
                  undo: ↓{ back: b }
                  e: ↓{ back: hidden }
                next: b
              b: { next: done }
              hidden: { next: a }
              done: { kind: finish }
            """, rule: BackTargetRule.self)
        #expect(findings == [
            "error a: step 'a' goes back to 'b', which is never on the history there: no path of forward moves leads from 'b' to 'a'",
            "error a: step 'a' goes back to 'hidden', which is never on the history there: 'hidden' is not reachable",
        ])
    }

    @Test func aRouteThroughRestartLeavesTheTargetOffTheHistory() {
        // 'x' reaches 't' only through 'r', which restarts: the history is then emptied, so 'x' is never on it.
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: s
            events: { other: null, undo: null }
            steps:
              s: { on: { other: t }, next: x }
              x: { next: r }
              r: { next: { restart: true } }
              t: { on: { undo: ↓{ back: x } }, next: done }
              done: { kind: finish }
            """, rule: BackTargetRule.self)
        #expect(findings == [
            "error t: step 't' goes back to 'x', which is never on the history there: no path of forward moves leads from 'x' to 't'",
        ])
    }

    @Test func loopsDiamondsAndSelfTargets() {
        // In the loop h -> b1 -> b2 -> h, 'b2' may go back to 'h' and to itself; 'h' going back to 'b2' is a
        // warning (the first arrival at 'h' comes straight from 's'). In the diamond s2 -> {l, r} -> j, 'j' going
        // back to 'l' is a warning, to 's2' is fine.
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: s
            state: { no: bool, yes: bool }
            events: { up: null, self: null, left: null, top: null, pick: null }
            steps:
              s: { next: h }
              h: { on: { up: ↓{ back: b2 } }, next: b1 }
              b1: { next: [{ forward: h, if: "state.no" }, b2] }
              b2: { on: { up: { back: h }, self: { back: b2 } }, next: [{ forward: h, if: "state.yes" }, s2] }
              s2: { on: { pick: r }, next: l }
              l: { next: j }
              r: { next: j }
              j: { on: { left: ↓{ back: l }, top: { back: s2 } }, next: [{ back: true, if: "state.no" }, done] }
              done: { kind: finish }
            """, rule: BackTargetRule.self)
        #expect(findings == [
            "warning h: step 'h' goes back to 'b2', which is not on every path to it (not on the path 's' -> 'h')",
            "warning j: step 'j' goes back to 'l', which is not on every path to it (not on the path 's' -> 'h' -> 'b1' -> 'b2' -> 's2' -> 'r' -> 'j')",
        ])
    }

    @Test func anEntryAtTheStepItself() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: a
            events: { edit: null }
            entries: { deep: { step: b, path: /b } }
            steps:
              a: { next: b }
              b: { on: { edit: ↓{ back: a } }, next: done }
              done: { kind: finish }
            """, rule: BackTargetRule.self)
        #expect(findings == ["warning b: step 'b' goes back to 'a', which is not on every path to it (not when entry 'deep' starts the run at 'b')"])
    }

    @Test func starHandlersAreReportedOnce() {
        // 'menu' overrides 'home'; 'a' and 'b' come before 'menu' and cannot come after it: an error, once.
        let never = markedFindings("""
            flowkit: 1
            flow: t
            start: a
            events: { home: null, open: null }
            steps:
              "*": { on: { home: ↓{ back: menu } } }
              a: { on: { open: menu }, next: b }
              b: { next: done }
              menu: { on: { home: done }, next: done }
              done: { kind: finish }
            """, rule: BackTargetRule.self)
        #expect(never == ["error *: the '*' handler for 'home' goes back to 'menu', which is never on the history at any step that uses it"])

        // 'welcome' comes before 'menu'; 'menu' itself and 'c' after it are fine: the move fails whenever 'home' is
        // raised at 'welcome', an error naming it.
        let sometimes = markedFindings("""
            flowkit: 1
            flow: t
            start: welcome
            events: { home: null }
            steps:
              "*": { on: { home: ↓{ back: menu } } }
              welcome: { next: menu }
              menu: { next: c }
              c: { next: done }
              done: { kind: finish }
            """, rule: BackTargetRule.self)
        #expect(sometimes == [
            "error welcome: the '*' handler for 'home' goes back to 'menu', which is never on the history at step 'welcome': no path of forward moves leads from 'menu' to 'welcome'",
        ])
    }

    @Test func aStarWarningSkipsStepsThatAllowTheRule() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: welcome
            events: { open: null, skip: null }
            steps:
              "*": { next: ↓{ back: menu } }
              welcome: { lint: { allow: [back_target], reason: the home button is hidden here }, on: { skip: c, open: menu } }
              menu: { on: { skip: c } }
              c: { on: { skip: done } }
              done: { kind: finish }
            """, rule: BackTargetRule.self)
        #expect(findings == [
            "warning c: the '*' 'next' goes back to 'menu', which is not on every path to step 'c' (not on the path 'welcome' -> 'c')",
        ])
    }

    @Test func backTrueWithNothingUnderItAtTheStartOrAnEntryStepIsAnError() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: a
            events: { back: null, close: null }
            entries: { deep: { step: b, path: /b } }
            steps:
              "*": { on: { back: ↓{ back: true } } }
              a: { on: { close: ↓{ back: true } }, next: b }
              b: { on: { back: done }, next: c }
              c: { next: done }
              done: { kind: finish }
            """, rule: BackTargetRule.self)
        #expect(findings == [
            "error a: the '*' handler for 'back' goes back with 'back: true' at step 'a', which can be alone on the history (it is where the run starts): there is nothing to go back to",
            "error a: step 'a' goes back with 'back: true', but it can be alone on the history (it is where the run starts): there is nothing to go back to",
        ])
    }

    @Test func aStarBackTargetThatFailsAtSomeStepIsAnErrorNamingIt() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: a
            events: { home: null }
            steps:
              "*": { on: { home: ↓{ back: menu } } }
              a: { next: b }
              b: { next: menu }
              menu: { next: c }
              c: { next: done }
              done: { kind: finish }
            """, rule: BackTargetRule.self)
        #expect(findings == [
            "error a: the '*' handler for 'home' goes back to 'menu', which is never on the history at step 'a' (and at 1 more step): no path of forward moves leads from 'menu' to 'a'",
        ])
    }

    @Test func backTrueAndCleanFlowsGiveNothing() {
        let findings = markedFindings("""
            flowkit: 1
            flow: t
            start: a
            events: { error: null, retry: null }
            steps:
              "*": { on: { error: alert } }
              a: { on: { retry: { back: a } }, next: b }
              b: { on: { retry: { back: a } }, next: done }
              alert: { next: { back: true } }
              done: { kind: finish }
            """, rule: BackTargetRule.self)
        #expect(findings.isEmpty)
    }

    @Test func aLargeChainStaysQuiet() {
        // The generated flow: every step goes back to the one before it, which dominates it.
        let document = FlowLoader.load(bytes: Array(FlowGenerator.yaml(steps: 5_000).utf8), file: "big.yaml", format: .yaml)
        #expect(BackTargetRule.check(LintContext(document: document)).isEmpty)
        #expect(MaybeUnsetRule.check(LintContext(document: document)).isEmpty)
    }
}
