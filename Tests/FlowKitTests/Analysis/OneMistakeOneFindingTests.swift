import Foundation
import Testing
import FlowGen
@testable import FlowKit

/// `rule: message` for every finding of a YAML flow linted in a folder beside `child.yaml` (see `lintExample`).
private func findings(_ yaml: String) throws -> [String] {
    try lintExample(yaml).map { "\($0.rule): \($0.message)" }
}

@Suite("One mistake, one finding")
struct OneMistakeOneFindingTests {
    @Test func aMisspeltTargetGivesOnlyItsUndefinedStepFinding() throws {
        let result = try findings("""
            flowkit: 1
            flow: transfer
            start: amount
            steps:
              amount: { next: tarifs }
              tariffs: { next: confirm }
              confirm: { next: success }
              success: { next: done }
              done: { kind: finish }
            """)
        #expect(result == ["undefined_step: step 'tarifs' is not defined; did you mean 'tariffs'?"])
    }

    @Test func aStepNoRunReachesGivesOnlyItsUnreachableFinding() throws {
        // 'dead' and 'sub' hold a mistake of each rule that foresees a run error, "*" has a list only they use,
        // and event 'late' is evaluated only there; 'note' is read only there and set nowhere. No run reaches them,
        // so only unreachable_step speaks; an entry that reaches 'dead' brings every finding back. (Mistakes that always
        // fail sit in their own explicit events' lists, and 'late' fails only when its left side holds: behind a
        // mistake that always fails, a run meets nothing else.)
        func flow(entries: String) -> String {
            """
            flowkit: 1
            flow: dead
            start: a
            state: { count: int, note: string, age: int? }
            events: { go: , late: "result.n > 1 && result.n + 'x' == 1" , quit: , done: , more: }
            \(entries)
            steps:
              "*": { on: { go: { forward: done, if: "state.age > 1" } } }
              a: { on: { go: done }, next: done }
              dead:
                result: { n: int, kind: [x, y] }
                set: { age: "state.note == 'a' ? 1 : state.age" }
                on: { late: done, quit: { back: a }, go: { forward: done, set: { count: "result.n + 'one'" } }, more: { forward: done, set: { nope: "1" } } }
                next: [{ forward: sub, if: "result.kind == 'x'" }, { forward: done, if: "state.age + 1 > 2" }]
              sub: { kind: flow, flow: child.yaml, on: { done: done } }
              done: { kind: finish }
            """
        }
        let unreached = try findings(flow(entries: "")).filter { !$0.hasPrefix("shadowed_handler:") }
        #expect(unreached == ["unreachable_step: step 'dead' is not reachable from 'a'", "unreachable_step: step 'sub' is not reachable from 'a'"])
        let reached = try lintExample(flow(entries: "entries: { deep: { step: dead, path: /dead } }"))
        let rules = Set(reached.map(\.rule))
        for rule in [RuleID.typeMismatch, .undeclaredState, .maybeNull, .maybeUnset, .backTarget, .nonExhaustiveGuards, .unhandledOutcome] {
            #expect(rules.contains(rule), "\(rule) does not speak once 'dead' is reachable: \(reached.map { "\($0.rule): \($0.message)" })")
        }
        #expect(!rules.contains(.unreachableStep))
    }

    @Test func aReadInAStarListOrEventIsJudgedAtTheStepsARunReaches() throws {
        // The data-flow graph follows the option never taken to 'x'; the read of 'k' in "*"'s list must still be
        // reported, at 'b', the step a run reaches (review of issue 31's change: it was lost).
        let star = try findings("""
            flowkit: 1
            flow: t
            start: a
            state: { k: int, n: int }
            inputs: [n]
            steps:
              "*":
                next:
                  - { forward: done, if: "state.k > 0" }
                  - done
              a:
                next:
                  - { forward: x, if: "state.n > 5 && state.n < 3" }
                  - { forward: b, set: { n: 1 } }
              x: {}
              b: {}
              done: { kind: finish }
            """)
        #expect(star.contains { $0.hasPrefix("maybe_unset: 'k' is never set") && $0.contains("(read at 'b')") }, "\(star)")
        // A nested flow's outcome reached only through an option never taken is no outcome a run finishes with.
        let folder = NSTemporaryDirectory() + "flowkit-outcome-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "flowkit: 1\nflow: c\nstart: q\nstate: { n: int }\nsteps:\n  q: { result: { n: int }, next: [{ forward: bad, if: \"result.n > 5 && result.n < 3\" }, ok] }\n  ok: { kind: finish }\n  bad: { kind: finish }\n"
            .write(toFile: folder + "/child.yaml", atomically: false, encoding: .utf8)
        try "flowkit: 1\nflow: p\nstart: s\nevents: { ok: }\nsteps:\n  s: { kind: flow, flow: child.yaml, on: { ok: done } }\n  done: { kind: finish }\n"
            .write(toFile: folder + "/parent.yaml", atomically: false, encoding: .utf8)
        let parent = try FlowLoader.load(path: folder + "/parent.yaml")
        #expect(Linter.lint(parent, workspace: LintWorkspace(roots: [folder])).filter { $0.rule == .unhandledOutcome }.isEmpty)
    }

    @Test func noPathThroughAnOptionNeverTakenLeavesAKeyUnset() throws {
        // The only path to 'c' that skips 'b' (which sets 'k') takes an option never taken: no run reads 'k' unset.
        let result = try findings("""
            flowkit: 1
            flow: t
            start: a
            state: { k: int, n: int }
            inputs: [n]
            steps:
              a:
                next:
                  - { forward: c, if: "state.n > 5 && state.n < 3" }
                  - { forward: b, set: { k: 1 } }
              b: { next: c }
              c: { result: { v: int }, set: { n: "state.k + 1" }, next: done }
              done: { kind: finish }
            """)
        #expect(result == ["unreachable_option: this option of next in step 'a' is never taken: its 'if' never holds"])
    }

    @Test func aMisspeltTargetNeverMakesALoopOrATrap() throws {
        // Were 'tarifs' followed as an edge to 'tariffs', 'amount' and 'tariffs' would loop with no way out.
        let result = try findings("""
            flowkit: 1
            flow: loop
            start: amount
            steps:
              amount: { next: tarifs }
              tariffs: { next: amount }
              done: { kind: finish }
            """)
        #expect(result == ["undefined_step: step 'tarifs' is not defined; did you mean 'tariffs'?", "unreachable_step: step 'done' is not reachable from 'amount'"])
    }

    @Test func aMisspeltStarTargetOrEntryStepGivesOneFinding() throws {
        let star = try findings("""
            flowkit: 1
            flow: star
            start: amount
            events: { error: }
            steps:
              "*": { on: { error: alrt } }
              amount: { next: done }
              alert: { next: { back: true } }
              done: { kind: finish }
            """)
        #expect(star == ["undefined_step: step 'alrt' is not defined; did you mean 'alert'?"])
        let entry = try findings("""
            flowkit: 1
            flow: deeplink
            start: amount
            entries:
              editTariff: { step: tarifs, path: /tariffs }
            steps:
              amount: { next: done }
              tariffs: { next: confirm }
              confirm: { next: done }
              done: { kind: finish }
            """)
        #expect(entry == ["undefined_step: the step of entry 'editTariff', 'tarifs' is not defined; did you mean 'tariffs'?"])
    }

    @Test func aNameWithNoSuggestionLeadsNowhere() throws {
        let result = try findings("""
            flowkit: 1
            flow: transfer
            start: amount
            steps:
              amount: { next: somewhere }
              tariffs: { next: done }
              done: { kind: finish }
            """)
        #expect(result == ["undefined_step: step 'somewhere' is not defined", "unreachable_step: step 'tariffs' is not reachable from 'amount'",
                           "unreachable_step: step 'done' is not reachable from 'amount'"])
    }

    @Test func aMisspeltTargetKeepsBackTargetAsIfFixed() throws {
        // Without the repair, 'tariffs' would be unreachable and 'back: tariffs' an error that it is never on the history.
        let flow = { (target: String) in """
            flowkit: 1
            flow: transfer
            start: amount
            events: { edit: , skip: }
            steps:
              amount: { on: { skip: confirm }, next: \(target) }
              tariffs: { next: confirm }
              confirm: { on: { edit: { back: tariffs } }, next: done }
              done: { kind: finish }
            """ }
        let fixed = try findings(flow("tariffs"))
        #expect(fixed.count == 1 && fixed[0].hasPrefix("back_target: step 'confirm' goes back to 'tariffs', which is not on every path to it"))
        #expect(try findings(flow("tarifs")) == ["undefined_step: step 'tarifs' is not defined; did you mean 'tariffs'?"] + fixed)
    }

    @Test func aMisspeltTargetKeepsMaybeUnsetAsIfFixed() throws {
        let flow = { (target: String) in """
            flowkit: 1
            flow: transfer
            start: amount
            state: { amount: int }
            steps:
              amount: { result: { amount: int }, set: { amount: result.amount }, next: \(target) }
              tariffs: { next: [{ forward: done, if: "state.amount > 1" }, done] }
              done: { kind: finish }
            """ }
        #expect(try findings(flow("tariffs")).isEmpty)
        #expect(try findings(flow("tarifs")) == ["undefined_step: step 'tarifs' is not defined; did you mean 'tariffs'?"])
    }

    @Test func aMisspeltEventHandlerDoesNotMakeTheEventUnused() throws {
        let result = try findings("""
            flowkit: 1
            flow: typo
            start: a
            events: { error: }
            steps:
              a: { on: { eror: alert }, next: done }
              alert: { next: done }
              done: { kind: finish }
            """)
        #expect(result == ["undeclared_event: step 'a' handles event 'eror', which 'events' does not declare; did you mean 'error'?"])
    }

    @Test func aMisspeltTargetInANestedFlowKeepsItsOutcomes() throws {
        // 'cancelled' is reached only through the misspelt 'cancelld': the parent still hears of that outcome.
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("flowkit-typo-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "flowkit: 1\nflow: pay\nstart: a\nevents: { quit: }\nsteps:\n  a: { on: { quit: cancelld }, next: done }\n  done: { kind: finish }\n  cancelled: { kind: finish }\n"
            .write(toFile: folder + "/pay.yaml", atomically: true, encoding: .utf8)
        try "flowkit: 1\nflow: parent\nstart: pay\nevents: { done: }\nsteps:\n  pay: { kind: flow, flow: pay.yaml, on: { done: end } }\n  end: { kind: finish }\n"
            .write(toFile: folder + "/parent.yaml", atomically: true, encoding: .utf8)
        let workspace = LintWorkspace(roots: [folder])
        let parent = Linter.lint(try FlowLoader.load(path: folder + "/parent.yaml"), workspace: workspace).map { "\($0.rule): \($0.message)" }
        #expect(parent == ["unhandled_outcome: nested flow 'pay.yaml' can finish with outcome 'cancelled', which step 'pay' neither handles nor covers with 'next'"])
        let child = Linter.lint(try FlowLoader.load(path: folder + "/pay.yaml"), workspace: workspace).map { "\($0.rule): \($0.message)" }
        #expect(child == ["undefined_step: step 'cancelld' is not defined; did you mean 'cancelled'?"])
    }

    @Test func aMisspeltNestedFlowFileGivesOneFindingWithASuggestion() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("flowkit-typo-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/auth", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "flowkit: 1\nflow: signin\nstart: form\nstate: { token: string }\nsteps:\n  form: { result: { token: string }, set: { token: result.token }, next: done }\n  done: { kind: finish }\n"
            .write(toFile: folder + "/auth/signin.yaml", atomically: true, encoding: .utf8)
        try "flowkit: 1\nflow: other\nstart: done\nsteps:\n  done: { kind: finish }\n".write(toFile: folder + "/auth/x.json", atomically: true, encoding: .utf8)
        func lint(_ reference: String) throws -> [String] {
            let parent = "flowkit: 1\nflow: app\nstart: login\nstate: { token: string }\nevents: { done: }\nsteps:\n"
                + "  login: { kind: flow, flow: \(reference), set: { token: result.token }, on: { done: home } }\n"
                + "  home: { next: [{ forward: end, if: \"state.token != ''\" }, end] }\n  end: { kind: finish }\n"
            try parent.write(toFile: folder + "/app.yaml", atomically: true, encoding: .utf8)
            return Linter.lint(try FlowLoader.load(path: folder + "/app.yaml"), workspace: LintWorkspace(roots: [folder])).map { "\($0.rule): \($0.message)" }
        }
        #expect(try lint("auth/sigin.yaml") == ["subflow_missing: nested flow 'auth/sigin.yaml' does not exist; did you mean 'auth/signin.yaml'?"])
        #expect(try lint("auth/signin.yml") == ["subflow_missing: nested flow 'auth/signin.yml' does not exist; did you mean 'auth/signin.yaml'?"])
        #expect(try lint("auth/y.json") == ["subflow_missing: nested flow 'auth/y.json' does not exist"], "no silly suggestion")
        #expect(try lint("auth/signin.yaml").isEmpty)
    }

    @Test func undefinedStepExplainsThatATypoGivesOneFinding() {
        #expect(UndefinedStepRule.description.rationale.contains("A typo gives this finding alone"))
    }
}

/// Random flows for the typo property: screens named by words far apart from each other, each with a `next` that
/// leads towards a finish step (so no closed groups), random event handlers (forward, back, restart, guarded
/// options with `set`), `"*"` handlers with an alert detour, entries, state reads and writes.
struct TypoFlowGenerator {
    /// Step names, pairwise at least three edits apart and none a prefix of another.
    static let words = ["amount", "tariffs", "confirm", "receipt", "profile", "welcome", "payment", "summary", "address",
                        "shipping", "invoice", "gallery", "settings", "history", "support", "language", "calendar", "wallet"]
    static let events = ["edit", "retry", "help", "error"]

    var generator: SplitMix64

    /// A flow's YAML with each forward target (and entry step) written through `name(index, written)`, so that one
    /// of them can be changed; `forwardCount` says how many there are.
    struct Flow {
        var render: ((Int, String) -> String) -> String
        var forwardCount: Int
        var stepNames: [String]
    }

    mutating func flow() -> Flow {
        let count = Int.random(in: 3...8, using: &generator)
        let names = Array(Self.words.shuffled(using: &generator).prefix(count))
        let finishes = ["done", "cancelled"]
        let useStar = Bool.random(using: &generator)
        let allNames = names + (useStar ? ["alert"] : []) + finishes
        // Every piece is either fixed text or a forward target (by its written step name).
        enum Piece { case text(String), forward(String) }
        var pieces: [Piece] = []
        func text(_ value: String) { pieces.append(.text(value)) }
        func forward(_ name: String) { pieces.append(.forward(name)) }
        func anyStep(after index: Int) -> String {
            let later = names.indices.filter { $0 > index }.map { names[$0] } + finishes
            return later.randomElement(using: &generator)!
        }
        text("flowkit: 1\nflow: generated\nstart: \(names[0])\nstate: { n: int, flag: bool, note: string? }\n")
        text("events: { edit: , retry: , help: , error: , big: \"state.n > 3\" }\n")
        if Int.random(in: 0..<3, using: &generator) == 0 {
            text("entries:\n  deep: { step: ")
            forward(names.randomElement(using: &generator)!)
            text(", path: \"/deep/{n}\" }\n")
        }
        text("steps:\n")
        if useStar {
            text("  \"*\": { on: { error: ")
            forward("alert")
            text(" } }\n")
        }
        for (index, name) in names.enumerated() {
            text("  \(name):\n")
            if Bool.random(using: &generator) { text("    result: { n: int }\n    set: { n: result.n }\n") }
            var handlers: [String] = []
            for event in Self.events.dropLast(useStar ? 1 : 0) where Int.random(in: 0..<3, using: &generator) == 0 { handlers.append(event) }
            if Int.random(in: 0..<4, using: &generator) == 0 { handlers.append("big") }
            if !handlers.isEmpty {
                text("    on:\n")
                for event in handlers {
                    text("      \(event): ")
                    switch Int.random(in: 0..<5, using: &generator) {
                    case 0: text("{ back: \(names.randomElement(using: &generator)!) }")
                    case 1: text("{ restart: true }")
                    case 2:
                        text("{ forward: ")
                        forward(names.randomElement(using: &generator)!)
                        text(", set: { flag: \"state.n > 1\" } }")
                    default: forward(allNames.randomElement(using: &generator)!)
                    }
                    text("\n")
                }
            }
            text("    next:\n")
            if Bool.random(using: &generator) {
                text("      - forward: ")
                forward(allNames.randomElement(using: &generator)!)
                text("\n        if: \"state.n > \(Int.random(in: 0...9, using: &generator))\"\n        set: { note: \"'x'\" }\n")
            }
            text("      - ")
            forward(anyStep(after: index))
            text("\n")
        }
        if useStar { text("  alert: { next: { back: true } }\n") }
        text("  done: { kind: finish }\n  cancelled: { kind: finish }\n")
        let frozen = pieces
        let forwardCount = frozen.filter { if case .forward = $0 { return true } else { return false } }.count
        return Flow(render: { name in
            var output = ""
            var index = 0
            for piece in frozen {
                switch piece {
                case .text(let value): output += value
                case .forward(let step):
                    output += name(index, step)
                    index += 1
                }
            }
            return output
        }, forwardCount: forwardCount, stepNames: names + (useStar ? ["alert"] : []) + finishes)
    }

    /// `name` with one random edit (a substitution, deletion, insertion or swap of adjacent letters) that is an
    /// identifier, names no step, and still suggests `name` among `names`; nil when ten tries find none.
    mutating func typo(of name: String, among names: [String]) -> String? {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        for _ in 0..<10 {
            var characters = Array(name)
            let position = Int.random(in: 0..<characters.count, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: characters[position] = letters.randomElement(using: &generator)!
            case 1: characters.remove(at: position)
            case 2: characters.insert(letters.randomElement(using: &generator)!, at: position)
            default:
                guard position + 1 < characters.count else { continue }
                characters.swapAt(position, position + 1)
            }
            let written = String(characters)
            if written != name, !names.contains(written), Identifier.isValid(written),
               Suggestions.closest(to: written, in: names) == name {
                return written
            }
        }
        return nil
    }
}

@Suite("One mistake, one finding: the typo property")
struct TypoPropertyTests {
    /// `rule step message` of every finding, sorted; positions are left out because a typo shifts the columns after
    /// it on its line.
    static func signature(_ yaml: String) -> [String] {
        let document = FlowLoader.load(bytes: Array(yaml.utf8), file: "generated.yaml", format: .yaml)
        return Linter.lint(document).map { "\($0.rule) \($0.step ?? "-") \($0.message)" }.sorted()
    }

    @Test func aOneEditTypoOfAForwardTargetAddsExactlyItsUndefinedStepFinding() {
        var generator = TypoFlowGenerator(generator: SplitMix64(seed: 2026))
        var checked = 0
        for _ in 0..<300 {
            let flow = generator.flow()
            let original = flow.render { $1 }
            let chosen = Int.random(in: 0..<flow.forwardCount, using: &generator.generator)
            var intended = ""
            let written = { (index: Int, step: String) -> String in
                if index == chosen { intended = step }
                return step
            }
            _ = flow.render(written)
            guard let typo = generator.typo(of: intended, among: flow.stepNames) else { continue }
            let misspelt = flow.render { $0 == chosen ? typo : $1 }
            let before = Self.signature(original)
            let after = Self.signature(misspelt)
            #expect(!before.contains { $0.hasPrefix("syntax") || $0.hasPrefix("schema") }, "the generated flow is valid:\n\(original)")
            let added = after.filter { $0.hasPrefix("undefined_step") }
            var rest = after
            rest.removeAll { $0.hasPrefix("undefined_step") }
            #expect(added.count == 1 && added[0].hasSuffix("is not defined; did you mean '\(intended)'?"), "\(added)")
            #expect(rest == before, "the typo '\(typo)' for '\(intended)' changed other findings:\n\(original)\nbefore: \(before)\nafter: \(rest)")
            checked += 1
        }
        #expect(checked >= 250, "only \(checked) flows got a typo")
    }
}

/// A path reported null once is not null afterwards (docs/format.md, `maybe_null`): a run where it was stopped
/// there. Each finding left is the run error the engine meets; the uses after it are not reported.
@Suite("One cause, one maybe_null finding")
struct OneCauseOneNullTests {
    static let flow = """
        flowkit: 1
        flow: nulls
        start: a
        state: { ok: "bool?", x: "int?", n: int, m: int, b: bool, k: int }
        inputs: [ok, x]
        steps:
          a:
            result: { v: int }
            set:
              b: "(state.ok || false) && state.ok"
              n: "state.x + (state.x * 2)"
              m: "state.ok ? state.x : 0"
            next: c
          c:
            result: { v: int }
            set:
              b: "state.ok ? (state.x > 1) : true"
              k: "state.x + 1"
            next: done
          done: { kind: finish }
        """

    @Test func aNullIsReportedWhereTheRunFirstFailsAndNotAfter() throws {
        let nulls = try lintExample(Self.flow).filter { $0.rule == .maybeNull }.map { "\($0.position) \($0.message)" }
        #expect(nulls == [
            "10:12 'state.ok' may be null, and '||' needs a value; guard it with exists(state.ok)",
            "11:22 'state.x' may be null, and '*' needs a value; guard it with exists(state.x)",
            // In 'c', the '>' in a branch proves nothing after the '? :': 'state.x + 1' is its own finding.
            "17:11 'state.ok' may be null, and the condition of '? :' needs true or false; guard it with exists(state.ok)",
            "17:23 'state.x' may be null, and '>' needs a value; guard it with exists(state.x)",
            "18:11 'state.x' may be null, and '+' needs a value; guard it with exists(state.x)",
        ], "\(nulls)")
        // The engine agrees: a null 'ok' stops 'a' at the first read, a null 'x' at the '*'.
        for flow in try compiledTwins(Self.flow) {
            let ok = runError { _ = try walk(flow, start: .start(state: ["x": .int(1)]), [(nil, ["v": .int(1)])]) }
            #expect(ok?.contains("'||'") == true, "\(ok ?? "no error")")
            let x = runError { _ = try walk(flow, start: .start(state: ["ok": .bool(true)]), [(nil, ["v": .int(1)])]) }
            #expect(x?.contains("'*'") == true, "\(x ?? "no error")")
            let later = runError { _ = try walk(flow, start: .start(state: ["ok": .bool(false), "x": .int(1)]), [(nil, ["v": .int(1)])]) }
            #expect(later == nil, "\(later ?? "")")
        }
    }

    /// The options tried after a step's `set` on the same move see what it proved: a `result.…` path, and a state
    /// key it does not write; a key it writes is the new value's, and an explicit event's move runs no `set`.
    @Test func theOptionsAfterASetSeeWhatItProved() throws {
        let flow = """
            flowkit: 1
            flow: after
            start: a
            state: { x: "int?", n: int, m: int, w: "int?" }
            inputs: [x, w]
            events: { go: null }
            steps:
              a:
                result: { age: "int?" }
                set:
                  n: "result.age + state.x"
                  w: "state.w + 1"
                on:
                  go: { forward: done, if: "result.age > 1" }
                next:
                  - { forward: done, if: "result.age > 1 && state.x > 2", set: { m: "result.age" } }
                  - { forward: done, if: "state.w > 0" }
                  - done
              done: { kind: finish }
            """
        let nulls = try lintExample(flow).filter { $0.rule == .maybeNull }.map { "\($0.position.line):\($0.position.column)" }
        // The set's reads (lines 11, 12); 'state.w', which the set wrote (line 17). Not the first 'next' option's
        // reads of result.age and state.x (line 16), nor the explicit event's read of result.age (line 14: a
        // completion with a result ran the set; without one, the read is another run error).
        #expect(nulls == ["11:11", "11:24", "12:11", "17:31"], "\(nulls)")
    }

    @Test func theOptionsAfterAnIfSeeWhatItsEvaluationNeeded() throws {
        // The first option's `if` needs 'result.age' and 'state.x' (not in `exists`, on every evaluation): the
        // options tried after it, and its own `set`, see them not null, held or not. Not 'state.w', which only the
        // right side of its `||` may read.
        let flow = """
            flowkit: 1
            flow: after
            start: a
            state: { x: "int?", n: int, m: int, w: "int?" }
            inputs: [x, w]
            steps:
              a:
                result: { age: "int?" }
                next:
                  - { forward: done, if: "result.age > state.x || state.w > 1", set: { m: "result.age + state.x" } }
                  - { forward: done, if: "result.age > 2 && state.x > 2", set: { n: "state.w + 1" } }
                  - done
              done: { kind: finish }
            """
        let nulls = try lintExample(flow).filter { $0.rule == .maybeNull }.map { "\($0.position.line):\($0.position.column)" }
        #expect(nulls == ["10:31", "10:44", "10:55", "11:74"], "\(nulls)")
    }

    @Test func anExplicitEventsOptionsSeeTheResultPathsTheSetNeeded() throws {
        // A completion by 'go' with a result ran the `set`, which needed 'result.age' not null: its option's read of
        // it is no maybe_null finding. Without a result, the read is another run error, still reported.
        let flow = """
            flowkit: 1
            flow: after
            start: a
            state: { n: int }
            events: { go: null }
            steps:
              a:
                result: { age: "int?" }
                set: { n: "result.age + 1" }
                on: { go: { forward: done, if: "result.age > 1" } }
                next: done
              done: { kind: finish }
            """
        let found = try lintExample(flow).filter { $0.rule == .maybeNull || $0.rule == .typeMismatch }.map { "\($0.rule.rawValue) \($0.position)" }
        #expect(found == ["maybe_null 9:16", "type_mismatch 10:37"], "\(found)")
    }
}

/// What no run evaluates is not checked by the rules that foresee run errors (docs/format.md, "Options never
/// taken"): the `set` of an option never taken, and the `if` of one never tried. The `if` of an option never taken
/// because an earlier one comes first is evaluated, and checked.
@Suite("Options never taken are not checked where no run evaluates them")
struct NeverTakenPartsTests {
    @Test func onlyTheUnreachableOptionsAreReported() throws {
        // 'big' is never raised (its handler's 'if' and 'set' never run); the second 'go' option comes after one
        // without 'if' (never tried); the second 'next' option is tried when the first's 'if' fails, but never taken.
        let flow = """
            flowkit: 1
            flow: never
            start: a
            state: { name: string, count: int, vip: "bool?", tier: [gold, basic] }
            events: { go: null, big: "100.0 <= 1.5" }
            steps:
              a:
                result: { v: int }
                on:
                  big: { forward: done, if: "state.count > 1", set: { tier: "'silver'" } }
                  go:
                    - done
                    - { forward: done, if: "state.vip", set: { name: "state.name" } }
                next:
                  - { forward: done, if: "state.count > 1" }
                  - { forward: done, if: "state.count > 2", set: { name: "state.vip ? 'a' : 'b'" } }
                  - done
              done: { kind: finish }
            """
        let findings = try lintExample(flow).map { "\($0.position.line):\($0.position.column) \($0.rule.rawValue)" }
        // Not: 'silver' (type_mismatch) and 'state.count' in 'big''s handler, 'state.vip' and 'state.name' in the
        // second 'go' option, 'state.vip' in the second 'next' option's 'set'. 'count' is read where runs read it.
        #expect(findings == ["4:24 maybe_unset", "10:12 unreachable_option", "13:11 unreachable_option", "16:9 unreachable_option"], "\(findings)")
    }

    @Test func theOptionsBeforeAnIfOutsideTheDecidedFormsAreDecided() throws {
        // The first option's `if` reads nothing and is false (`100 + 1` is a literal of the decided forms): it is
        // never taken, and its `set` (a text in an int key) is not checked, though the second option's `if` is
        // outside the decided forms; the second and third are not decided.
        let flow = """
            flowkit: 1
            flow: never
            start: a
            state: { n: int }
            inputs: [n]
            steps:
              a:
                next:
                  - { forward: done, if: "(100 + 1) < 2", set: { n: "'x'" } }
                  - { forward: done, if: "state.n > state.n * state.n" }
                  - { forward: done, if: "state.n > (100 + 250)" }
                  - done
              done: { kind: finish }
            """
        let findings = try lintExample(flow).map { "\($0.position.line):\($0.position.column) \($0.rule.rawValue)" }
        #expect(findings == ["9:9 unreachable_option"], "\(findings)")
    }

    @Test func anIfThatIsAConstantConditionIsDecidedAsItsValue() throws {
        // Both sides of the first `if` are written alike: it never holds (it is not in the decided forms, but its
        // text decides it), and its `set` is not checked.
        let flow = """
            flowkit: 1
            flow: never
            start: a
            state: { n: int }
            inputs: [n]
            steps:
              a:
                next:
                  - { forward: done, if: "(state.n / state.n) != (state.n / state.n)", set: { n: "'x'" } }
                  - done
              done: { kind: finish }
            """
        let findings = try lintExample(flow).map { "\($0.position.line):\($0.position.column) \($0.rule.rawValue)" }
        #expect(findings == ["9:9 unreachable_option"], "\(findings)")
    }
}

/// A known value of a bool key rules out a part of a later expression, as a constant condition does
/// (docs/format.md, `maybe_unset`): an earlier option's failed `if: state.ok` means `state.ok ? state.city : …` in a
/// later option reads no `city`; the option's own `if` that held shows its value to its `set`.
@Suite("maybe_unset: the values earlier ifs show")
struct BoolFactsTests {
    @Test func anEnumInEveryOneOfItsValuesRulesOutTheElseBranch() throws {
        // 'mode' (an enum, not optional) is always one of its values: the else branch is never evaluated, so its
        // reads of 'total' (optional) and 'k' (set nowhere on the way) are no findings; with 'mode' a string it is.
        func flow(_ mode: String) -> String {
            """
            flowkit: 1
            flow: enums
            start: a
            state: { mode: \(mode), total: "int?", k: int, n: int }
            inputs: [mode, total]
            steps:
              a:
                result: { v: int }
                set: { n: "state.mode in ['fast', 'slow'] ? 1 : state.total + state.k" }
                next: done
              w: { next: { forward: done, set: { k: "1" } } }
              done: { kind: finish }
            """
        }
        let rules: Set<RuleID> = [.maybeNull, .maybeUnset]
        #expect(try lintExample(flow("[fast, slow]")).filter { rules.contains($0.rule) && $0.step != nil }.isEmpty)
        #expect(try lintExample(flow("string")).filter { rules.contains($0.rule) && $0.step != nil }.count == 2)
    }

    @Test func aBranchAKnownValueRulesOutReadsNothing() throws {
        let flow = """
            flowkit: 1
            flow: facts
            start: a
            state: { ok: bool, city: string, name: string }
            inputs: [ok]
            events: { edit: null }
            steps:
              a:
                result: { v: int }
                on:
                  edit:
                    - { forward: done, if: "state.ok" }
                    - { forward: done, set: { city: "state.ok ? state.city : 'x'" } }
                next:
                  - { forward: done, if: "!state.ok", set: { name: "state.ok ? state.name : 'y'" } }
                  - { forward: done, set: { name: "state.ok && state.city == 'a' ? 'b' : 'c'" } }
              done: { kind: finish }
            """
        let findings = try lintExample(flow).filter { $0.rule == .maybeUnset }.map { "\($0.position.line) \($0.subject ?? "")" }
        // Only the last option's read of 'city': there 'ok' is true (the '!state.ok' before it failed).
        #expect(findings == ["16 city"], "\(findings)")
    }
}
