import Testing
@testable import FlowKit

/// A flow and the findings the design's graph semantics give for it, worked out by hand.
struct GraphCase: CustomTestStringConvertible, Sendable {
    let name: String
    let yaml: String
    /// `rule:step` (or `rule` for findings about no step), sorted.
    let expected: [String]

    var testDescription: String { name }
}

/// `rule:step` strings of every error and warning (notes are not part of the graph semantics).
func findingKeys(_ yaml: String) -> [String] {
    let header = "flowkit: 1\nflow: t\n"
    let document = FlowLoader.load(bytes: Array((header + yaml).utf8), file: "t.yaml", format: .yaml)
    return Linter.lint(document).filter { $0.severity != .note }.map { finding in finding.step.map { "\(finding.rule):\($0)" } ?? finding.rule.rawValue }.sorted()
}

@Suite("Graph semantics")
struct GraphSemanticsTests {
    static let cases: [GraphCase] = [
        GraphCase(name: "two orphans pointing at each other are both unreachable", yaml: """
            start: a
            steps:
              a: { next: done }
              x: { next: y }
              y: { next: x }
              done: { kind: finish }
            """, expected: ["unreachable_step:x", "unreachable_step:y"]),
        GraphCase(name: "back moves never make a step reachable", yaml: """
            start: a
            events: { e: }
            steps:
              a: { on: { e: { back: hidden } }, next: done }
              hidden: { next: a }
              done: { kind: finish }
            """, expected: ["back_target:a", "unreachable_step:hidden"]),
        GraphCase(name: "an entry makes its step reachable", yaml: """
            start: a
            entries: { deep: { step: x, path: /x } }
            steps:
              a: { next: done }
              x: { next: done }
              done: { kind: finish }
            """, expected: []),
        GraphCase(name: "guarded options and star handlers are edges", yaml: """
            start: a
            state: { ok: bool }
            events: { error: }
            steps:
              "*": { on: { error: alert } }
              a: { result: { ok: bool }, next: [{ forward: b, if: "result.ok" }, c] }
              b: { next: done }
              c: { next: done }
              alert: { next: { back: true } }
              done: { kind: finish }
            """, expected: []),
        GraphCase(name: "an option never taken is no edge", yaml: """
            start: a
            state: { ok: bool }
            inputs: [ok]
            events: { error: , late: "state.ok && !state.ok" }
            steps:
              "*": { on: { error: alert, late: d } }
              a: { result: { n: int }, next: [{ forward: b, if: "result.n > 3" }, { forward: e, if: "result.n > 5" }, c] }
              b: { next: done }
              c: { next: done }
              d: { next: done }
              e: { next: done }
              alert: { next: { back: true } }
              done: { kind: finish }
            """, expected: ["unreachable_option:*", "unreachable_option:a", "unreachable_step:d", "unreachable_step:e"]),
        GraphCase(name: "an overridden star handler is no edge of that step", yaml: """
            start: a
            events: { error: }
            steps:
              "*": { on: { error: c } }
              a: { on: { error: done }, next: done }
              c: { next: done }
              done: { kind: finish }
            """, expected: ["unreachable_step:c"]),
        GraphCase(name: "a finish step's own transitions are not edges", yaml: """
            start: a
            steps:
              a: { next: done }
              done: { kind: finish, next: orphan }
              orphan: { next: done }
            """, expected: ["finish_has_transitions:done", "unreachable_step:orphan"]),
        GraphCase(name: "the design's transfer flow: the alert is a detour; only the deep link's back move is flagged", yaml: """
            start: amount
            state: { amount: int, tariff: [economy, business] }
            events:
              invalidAmount: result.amount < 100
              error:
              confirmationContinue:
              confirmationEditAmount:
              confirmationEditTariff:
            entries:
              editTariff: { step: tariffs, path: "/transfer/{amount}/tariffs" }
            steps:
              "*": { on: { error: alert } }
              amount: { result: { amount: int }, set: { amount: result.amount }, on: { invalidAmount: invalidAmount }, next: tariffs }
              invalidAmount: { next: { back: amount } }
              tariffs: { result: { tariff: [economy, business] }, set: { tariff: result.tariff }, next: confirmation }
              confirmation:
                on:
                  confirmationContinue: success
                  confirmationEditAmount: { back: amount }
                  confirmationEditTariff: { back: tariffs }
              success: { next: finish }
              alert: { next: { back: true } }
              finish: { kind: finish }
            """, expected: ["back_target:confirmation"]),
        GraphCase(name: "a dead end is a dead end, not a closed group", yaml: """
            start: a
            steps:
              a: { next: b }
              b: { title: B }
            """, expected: ["dead_end:b"]),
        GraphCase(name: "star next gives every step a transition", yaml: """
            start: a
            steps:
              "*": { next: done }
              a: { title: A }
              done: { kind: finish }
            """, expected: []),
        GraphCase(name: "a loop with no way out is one finding at its first step in file order", yaml: """
            start: a
            steps:
              a: { next: c }
              b: { next: c }
              c: { next: b }
              done: { kind: finish }
            """, expected: ["cannot_finish:b", "unreachable_step:done"]),
        GraphCase(name: "two separate closed groups give two findings", yaml: """
            start: a
            events: { left: , right: }
            steps:
              a: { on: { left: b, right: d } }
              b: { next: c }
              c: { next: b }
              d: { next: d }
            """, expected: ["cannot_finish:b", "cannot_finish:d"]),
        GraphCase(name: "back X edges count as ways out and as loops", yaml: """
            start: amount
            events: { edit: }
            steps:
              amount: { next: confirm }
              confirm: { on: { edit: { back: amount } }, next: { back: amount } }
            """, expected: ["cannot_finish:amount"]),
        GraphCase(name: "a back to an unreachable step is no way out", yaml: """
            start: a
            events: { e: }
            steps:
              a: { next: b }
              b: { on: { e: { back: ghost } }, next: a }
              ghost: { next: done }
              done: { kind: finish }
            """, expected: ["back_target:b", "cannot_finish:a", "unreachable_step:done", "unreachable_step:ghost"]),
        GraphCase(name: "an edge to an undefined step counts as a way out", yaml: """
            start: a
            events: { e: }
            steps:
              a: { next: b }
              b: { on: { e: typo }, next: a }
            """, expected: ["undefined_step:b"]),
        GraphCase(name: "edges into a detour are no way out", yaml: """
            start: a
            events: { help: }
            steps:
              a: { next: b }
              b: { on: { help: info }, next: a }
              info: { next: { back: true } }
              done: { kind: finish }
            """, expected: ["cannot_finish:a", "unreachable_step:done"]),
        GraphCase(name: "a star alert pointing at itself is a detour and never reported", yaml: """
            start: a
            events: { error: }
            steps:
              "*": { on: { error: alert } }
              a: { next: done }
              alert: { next: { back: true } }
              done: { kind: finish }
            """, expected: []),
        GraphCase(name: "a loop of steps without back: true is not a detour", yaml: """
            start: a
            events: { go: }
            steps:
              a: { on: { go: x }, next: done }
              x: { next: y }
              y: { next: x }
              done: { kind: finish }
            """, expected: ["cannot_finish:x"]),
        GraphCase(name: "a step mixing back: true with other exits can go back to who forwarded to it", yaml: """
            start: a
            events: { cancel: , finishNow: , again: }
            steps:
              a: { on: { finishNow: done }, next: b }
              b: { on: { cancel: { back: true } }, next: c }
              c: { next: d }
              d: { on: { again: { back: b } }, next: c }
              done: { kind: finish }
            """, expected: []),
        GraphCase(name: "without back: true the same loop is closed", yaml: """
            start: a
            events: { finishNow: , again: }
            steps:
              a: { on: { finishNow: done }, next: b }
              b: { next: c }
              c: { next: d }
              d: { on: { again: { back: b } }, next: c }
              done: { kind: finish }
            """, expected: ["cannot_finish:b"]),
        GraphCase(name: "a mixed step reached through a star handler goes back to every step that does not override it", yaml: """
            start: a
            events: { help: , cancel: , finishNow: }
            steps:
              "*": { on: { help: helpScreen } }
              a: { on: { finishNow: done }, next: b }
              b: { next: c }
              c: { next: b }
              helpScreen: { on: { cancel: { back: true } }, next: helpScreen2 }
              helpScreen2: { next: { back: a } }
              done: { kind: finish }
            """, expected: []),
        GraphCase(name: "a star handler overridden by every step of a loop gives it no way out", yaml: """
            start: a
            events: { quit: }
            steps:
              "*": { on: { quit: done } }
              a: { on: { quit: a }, next: b }
              b: { on: { quit: b }, next: a }
              done: { kind: finish }
            """, expected: ["cannot_finish:a", "unreachable_step:done"]),
        GraphCase(name: "a star handler not overridden everywhere is a way out", yaml: """
            start: a
            events: { quit: }
            steps:
              "*": { on: { quit: done } }
              a: { on: { quit: a }, next: b }
              b: { next: a }
              done: { kind: finish }
            """, expected: []),
        GraphCase(name: "restart is an edge to start", yaml: """
            start: a
            events: { again: }
            steps:
              a: { next: b }
              b: { on: { again: { restart: true } }, next: done }
              done: { kind: finish }
            """, expected: []),
        GraphCase(name: "an undefined start gives undefined_step alone", yaml: """
            start: nowhere
            steps:
              a: { next: b }
              b: { next: a }
            """, expected: ["undefined_step"]),
        GraphCase(name: "a start whose only exits are detours cannot finish", yaml: """
            start: a
            events: { help: }
            steps:
              a: { on: { help: info } }
              info: { next: { back: true } }
            """, expected: ["cannot_finish:a"]),
        GraphCase(name: "a step with back: true and a loop to itself is a detour", yaml: """
            start: a
            events: { retry: , oops: }
            steps:
              a: { on: { oops: alert }, next: done }
              alert: { on: { retry: alert }, next: { back: true } }
              done: { kind: finish }
            """, expected: []),
        GraphCase(name: "a star handler going back to an unreachable step is no way out", yaml: """
            start: a
            events: { e: }
            steps:
              "*": { on: { e: { back: b } } }
              a: { next: a }
              b: { kind: finish }
            """, expected: ["back_target:*", "cannot_finish:a", "unreachable_step:b"]),
        GraphCase(name: "a star handler into a detour is no way out", yaml: """
            start: a
            events: { e: , h: }
            steps:
              "*": { on: { e: { back: d } } }
              a: { on: { h: d }, next: a }
              d: { next: { back: true } }
            """, expected: ["back_target:a", "cannot_finish:a"]),
        GraphCase(name: "a star return handler that every step overrides gives no way out", yaml: """
            start: a
            events: { x: , go: }
            steps:
              "*": { on: { x: { back: true }, go: b } }
              a: { on: { go: b }, next: b }
              b: { on: { go: a }, next: a }
              done: { kind: finish }
            """, expected: ["back_target:a", "cannot_finish:a", "unreachable_step:done"]),
        GraphCase(name: "an entry step whose only exit is back: true has nothing to go back to", yaml: """
            start: a
            events: { h: }
            entries: { deep: { step: b, path: /b } }
            steps:
              a: { on: { h: b }, next: done }
              b: { next: { back: true } }
              done: { kind: finish }
            """, expected: ["back_target:b", "cannot_finish:b"]),
    ]

    @Test(arguments: cases)
    func graphCase(_ graphCase: GraphCase) {
        #expect(findingKeys(graphCase.yaml) == graphCase.expected.sorted())
    }

    @Test func aStepOnlyOptionsNeverTakenLeadToSaysSo() throws {
        let findings = try lintExample("""
            flowkit: 1
            flow: t
            start: a
            steps:
              a: { result: { n: int }, next: [{ forward: b, if: "result.n > 3" }, { forward: c, if: "result.n > 5" }, b] }
              b: { next: done }
              c: { next: done }
              orphan: { next: done }
              done: { kind: finish }
            """).filter { $0.rule == .unreachableStep }.map(\.message)
        #expect(findings == [
            "step 'c' is not reachable from 'a': every way to it takes an option that is never taken (see unreachable_option)",
            "step 'orphan' is not reachable from 'a'",
        ])
    }

    @Test func closedGroupMessageNamesEveryStepInFileOrder() {
        let yaml = "flowkit: 1\nflow: t\nstart: a\nsteps:\n  a: { next: c }\n  c: { next: b }\n  b: { next: a }\n"
        let findings = Linter.lint(FlowLoader.load(bytes: Array(yaml.utf8), file: "t.yaml", format: .yaml))
        #expect(findings.count == 1)
        #expect(findings.first?.message == "steps 'a', 'c' and 'b' can never reach a finish step: they form a loop with no way out")
        #expect(findings.first?.position == SourcePosition(line: 5, column: 3))
    }

    @Test func largeGeneratedFlowIsAnalysedWithManyStarHandlersOverridden() {
        // 3,000 steps and 3,000 "*" handlers, every step overriding one of them: explicit edges would number 9 million.
        var yaml = "flowkit: 1\nflow: big\nstart: s0\nevents:\n"
        for i in 0..<3000 { yaml += "  e\(i):\n" }
        yaml += "steps:\n  \"*\":\n    on:\n"
        for i in 0..<3000 { yaml += "      e\(i): done\n" }
        for i in 0..<3000 { yaml += "  s\(i): { on: { e\(i): s\((i + 1) % 3000) }, next: s\((i + 1) % 3000) }\n" }
        yaml += "  done: { kind: finish }\n"
        let document = FlowLoader.load(bytes: Array(yaml.utf8), file: "big.yaml", format: .yaml)
        let graph = FlowGraph(flow: document.flow!)
        #expect(graph.reachable.allSatisfy { $0 })
        #expect(graph.closedGroups.isEmpty)
        #expect(Linter.lint(document).filter { $0.severity != .note }.isEmpty)
    }
}
