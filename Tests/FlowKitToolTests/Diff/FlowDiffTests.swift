import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool

/// `flowkit diff`'s comparison (docs/format.md, "Flow changes"): for every check a pair of flows that triggers it and
/// one that does not, and the properties every comparison keeps.
@Suite("Flow changes")
struct FlowDiffTests {
    static let base = """
        flowkit: 1
        flow: t
        start: ask
        state:
          country: string
          amount: int?
          name: string?
        inputs: [country]
        events:
          big: "result.amount > 100"
          help:
        entries:
          open:
            step: ask
            path: /t/{amount}
        steps:
          "*":
            on: { help: ask }
          ask:
            title: Ask
            result: { amount: int }
            set: { amount: result.amount }
            on: { big: check }
            next: done
          check:
            next:
              - { forward: done, if: "state.amount > 1000" }
              - review
          review:
            title: Review
            next: done
          login:
            kind: flow
            flow: nested/login.yaml
            next: done
          done: { kind: finish }
        """

    /// A change to the base flow: what to replace with what, the check it must trigger, and the check a
    /// neighbouring change that looks alike must not.
    struct Case: CustomStringConvertible, Sendable {
        var check: ChangeCheck
        var from: String
        var to: String
        /// Further replacements made with the first (a rename touches every use).
        var more: [[String]] = []
        var description: String { "\(check.rawValue): \(from) → \(to)" }
    }

    static let triggering: [Case] = [
        Case(check: .startChanged, from: "start: ask", to: "start: review"),
        Case(check: .stepAdded, from: "  done: { kind: finish }", to: "  extra: { next: done }\n  done: { kind: finish }"),
        Case(check: .stepRemoved, from: "  review:\n    title: Review\n    next: done\n", to: ""),
        Case(check: .stepRenamed, from: "      - review\n  review:", to: "      - reviewIt\n  reviewIt:"),
        Case(check: .stepKindChanged, from: "  review:\n    title: Review\n", to: "  review:\n    kind: action\n    title: Review\n"),
        Case(check: .stepTitleChanged, from: "title: Review", to: "title: Check it"),
        Case(check: .stepResultChanged, from: "result: { amount: int }", to: "result: { amount: number }"),
        Case(check: .transitionAdded, from: "on: { big: check }", to: "on: { big: check, help: review }"),
        Case(check: .transitionRemoved, from: "    on: { big: check }\n", to: ""),
        Case(check: .handlerRemoved, from: "  \"*\":\n    on: { help: ask }\n", to: ""),
        Case(check: .transitionRetargeted, from: "      - review", to: "      - { back: ask }"),
        Case(check: .guardChanged, from: "if: \"state.amount > 1000\"", to: "if: \"state.amount >= 1000\""),
        Case(check: .setChanged, from: "set: { amount: result.amount }", to: "set: { amount: result.amount + 1 }"),
        Case(check: .eventAdded, from: "  help:\n", to: "  help:\n  other:\n"),
        Case(check: .eventRemoved, from: "  help:\n", to: "  help:\n  other:\n"),
        Case(check: .eventRenamed, from: "  help:\n", to: "  assist:\n", more: [["on: { help: ask }", "on: { assist: ask }"]]),
        Case(check: .eventChanged, from: "big: \"result.amount > 100\"", to: "big: \"result.amount > 200\""),
        Case(check: .stateKeyAdded, from: "  name: string?", to: "  name: string?\n  note: string?"),
        Case(check: .stateKeyRemoved, from: "  name: string?\n", to: ""),
        Case(check: .stateTypeChanged, from: "  name: string?", to: "  name: string"),
        Case(check: .inputAdded, from: "inputs: [country]", to: "inputs: [country, name]"),
        Case(check: .inputRemoved, from: "inputs: [country]", to: "inputs: []"),
        Case(check: .entryAdded, from: "entries:\n", to: "entries:\n  other: { step: review, path: /o }\n"),
        Case(check: .entryRemoved, from: "entries:\n  open:\n    step: ask\n    path: /t/{amount}\n", to: "entries: {}\n"),
        Case(check: .entryPathChanged, from: "path: /t/{amount}", to: "path: /t/{name}"),
        Case(check: .entryStepChanged, from: "    step: ask\n    path", to: "    step: review\n    path"),
        Case(check: .outcomeAdded, from: "  done: { kind: finish }", to: "  done: { kind: finish }\n  quit: { kind: finish }"),
        Case(check: .outcomeRemoved, from: "  done: { kind: finish }", to: "  done: { kind: finish }\n  quit: { kind: finish }"),
        Case(check: .outcomeRenamed, from: "  done: { kind: finish }", to: "  done: { kind: finish, outcome: finished }"),
        Case(check: .nestedFlowChanged, from: "flow: nested/login.yaml", to: "flow: nested/signin.yaml"),
        Case(check: .stepUnreachable, from: "      - review", to: "      - done"),
        Case(check: .outcomeUnreachable, from: "  done: { kind: finish }", to: "  done: { kind: finish }\n  end: { kind: finish }",
             more: [["next: done", "next: end"], ["forward: done", "forward: end"]]),
        Case(check: .outcomeNowReachable, from: "  done: { kind: finish }", to: "  done: { kind: finish }\n  end: { kind: finish }",
             more: [["next: done", "next: end"], ["forward: done", "forward: end"]]),
        Case(check: .stepNowReachable, from: "    title: Review\n    next: done", to: "    title: Review\n    next: login"),
    ]

    /// Changes that look like a check's but are not one: the check must stay silent.
    static let nonTriggering: [Case] = [
        Case(check: .guardChanged, from: "if: \"state.amount > 1000\"", to: "if: \"(state.amount)>1000\""),
        Case(check: .eventChanged, from: "big: \"result.amount > 100\"", to: "big: \"result.amount>100\""),
        Case(check: .setChanged, from: "set: { amount: result.amount }", to: "set: { amount: (result.amount) }"),
        Case(check: .stepResultChanged, from: "result: { amount: int }", to: "result:\n      amount: int"),
        Case(check: .stepAdded, from: "  review:\n    title: Review\n    next: done\n", to: ""),
        Case(check: .entryPathChanged, from: "    step: ask\n    path", to: "    step: review\n    path"),
        Case(check: .transitionRetargeted, from: "      - review", to: "      - review\n      - done"),
        Case(check: .stepUnreachable, from: "title: Review", to: "title: Check"),
        Case(check: .outcomeRemoved, from: "  done: { kind: finish }", to: "  done: { kind: finish, outcome: done }"),
        Case(check: .stepRemoved, from: "  done: { kind: finish }", to: "  extra: { next: done }\n  done: { kind: finish }"),
        // Removed and added, but not alike: another file, other transitions, nothing moves to either.
        Case(check: .stepRenamed, from: "  login:\n    kind: flow\n    flow: nested/login.yaml\n    next: done\n",
             to: "  other:\n    kind: flow\n    flow: nested/other.yaml\n    next: review\n"),
        // The same title only: one thing of three agrees.
        Case(check: .stepRenamed, from: "  review:\n    title: Review\n    next: done\n", to: "  review2:\n    title: Review\n    next: login\n",
             more: [["      - review\n", "      - { back: ask }\n"]]),
        // The event goes too: `event_removed` says so, not one change per step that handled it.
        Case(check: .handlerRemoved, from: "  help:\n", to: "", more: [["on: { help: ask }", "next: done"]]),
        // Handled by the same step, but on another target.
        Case(check: .eventRenamed, from: "  help:\n", to: "  assist:\n", more: [["on: { help: ask }", "on: { assist: check }"]]),
    ]

    static func flow(_ text: String, file: String = "t.yaml") throws -> Flow {
        let document = FlowLoader.load(bytes: Array(text.utf8), file: file, format: .yaml)
        #expect(document.diagnostics.filter { $0.severity == .error }.isEmpty, "\(document.diagnostics.map(\.message))\n\(text)")
        return try #require(document.flow)
    }

    static func changed(_ change: Case) throws -> String {
        #expect(base.contains(change.from), "the base flow holds \(change.from)")
        var text = base.replacingOccurrences(of: change.from, with: change.to)
        for pair in change.more {
            #expect(text.contains(pair[0]), "the changed flow holds \(pair[0])")
            text = text.replacingOccurrences(of: pair[0], with: pair[1])
        }
        return text
    }

    @Test(arguments: triggering)
    func eachCheckFires(_ change: Case) throws {
        // Removed-type checks read the pair the other way round (the base is the new file).
        let reversed = [.eventRemoved, .outcomeRemoved, .outcomeNowReachable].contains(change.check)
        let old = try Self.flow(reversed ? Self.changed(change) : Self.base, file: "old.yaml")
        let new = try Self.flow(reversed ? Self.base : Self.changed(change), file: "new.yaml")
        let changes = FlowDiff.compare(old: old, new: new)
        let found = try #require(changes.first { $0.check == change.check }, "\(changes.map(\.message))")
        if change.check != .inputAdded { #expect(found.level == change.check.level) }
        // A place in each file where the thing is: the old one unless it was added, the new one unless removed.
        #expect((found.old == nil) == [.stepAdded, .transitionAdded, .eventAdded, .stateKeyAdded, .inputAdded, .entryAdded, .outcomeAdded].contains(change.check))
        #expect((found.new == nil) == [.stepRemoved, .transitionRemoved, .eventRemoved, .stateKeyRemoved, .inputRemoved, .entryRemoved, .outcomeRemoved].contains(change.check))
        #expect(found.old.map { $0.file == "old.yaml" && $0.line >= 1 } ?? true)
        #expect(found.new.map { $0.file == "new.yaml" && $0.line >= 1 } ?? true)
    }

    @Test(arguments: nonTriggering)
    func lookAlikesDoNotFire(_ change: Case) throws {
        let changes = FlowDiff.compare(old: try Self.flow(Self.base), new: try Self.flow(Self.changed(change)))
        #expect(!changes.contains { $0.check == change.check }, "\(changes.map(\.message))")
    }

    @Test func everyCheckHasATriggeringPairAndEveryCheckIsListed() {
        // `scenario_changed` needs scripts: KnownScenarioTests has its pairs.
        #expect(Set(Self.triggering.map(\.check)).union([.scenarioChanged]) == Set(ChangeCheck.allCases))
    }

    /// Issue 29: a step that no longer handles an explicit event, by its own handler or by `"*"`'s, is breaking;
    /// removing a step's own handler that `"*"` still covers is not, and a `"*"` handler gives one change.
    @Test func removingAHandlerAStepUsedIsBreaking() throws {
        let flow = """
            flowkit: 1
            flow: h
            start: a
            events: { cancel: , help: , retry: }
            steps:
              "*":
                on: { cancel: quit, help: a }
              a:
                on: { retry: a, help: b }
                next: b
              b:
                next: c
              c:
                on: { cancel: a }
                next: done
              done: { kind: finish }
              quit: { kind: finish }
            """
        func changes(_ pairs: [(String, String)]) throws -> [FlowChange] {
            var text = flow
            for (from, to) in pairs {
                #expect(text.contains(from))
                text = text.replacingOccurrences(of: from, with: to)
            }
            return FlowDiff.compare(old: try Self.flow(flow, file: "old.yaml"), new: try Self.flow(text, file: "new.yaml")).filter { $0.check == .handlerRemoved }
        }
        // The `"*"` handler of cancel: used by a and b (c has its own).
        let star = try changes([("on: { cancel: quit, help: a }", "on: { help: a }")])
        #expect(star.map(\.message) == ["the \"*\" handler of event 'cancel' was removed: steps 'a', 'b', which used it, no longer handle it"])
        #expect(star.first?.level == .breaking && star.first?.old?.line == 7 && star.first?.new?.file == "new.yaml")
        // A step's own handler with nothing behind it.
        let own = try changes([("on: { retry: a, help: b }", "on: { help: b }")])
        #expect(own.map(\.message) == ["step 'a' no longer handles event 'retry': an app or script that raises it there fails"])
        // A step's own handler that `"*"` still covers: handled still, nothing breaks.
        #expect(try changes([("on: { retry: a, help: b }", "on: { retry: a }")]).isEmpty)
        // The `"*"` handler of an event every step handles itself: no one used it.
        #expect(try changes([("on: { cancel: quit, help: a }", "on: { cancel: quit }")]).map(\.message)
                == ["the \"*\" handler of event 'help' was removed: steps 'b', 'c', which used it, no longer handle it"])
        // Only screens and actions in both files: a step that becomes a finish step is `step_kind_changed`.
        #expect(try changes([("  b:\n    next: c", "  b:\n    kind: finish")]).isEmpty)
    }

    @Test func aRequiredInputIsBreakingAnOptionalOneIsNot() throws {
        let required = FlowDiff.compare(old: try Self.flow(Self.base), new: try Self.flow(Self.base.replacingOccurrences(of: "inputs: [country]", with: "inputs: [country, amount]").replacingOccurrences(of: "amount: int?", with: "amount: int")))
        #expect(required.first { $0.check == .inputAdded }?.level == .breaking)
        let optional = FlowDiff.compare(old: try Self.flow(Self.base), new: try Self.flow(Self.base.replacingOccurrences(of: "inputs: [country]", with: "inputs: [country, name]")))
        #expect(optional.first { $0.check == .inputAdded }?.level == .info)
    }

    /// The same flow, and its JSON twin, have no changes.
    @Test(arguments: ["transfer", "onboarding", "profile", "signup"])
    func aFlowAndItsTwinHaveNoChanges(_ name: String) throws {
        let yaml = try #require(try FlowLoader.load(path: packageRoot + "/flows/\(name).yaml").flow)
        #expect(FlowDiff.compare(old: yaml, new: yaml).isEmpty)
        let twin = packageRoot + "/flows/\(name).json"
        if FileManager.default.fileExists(atPath: twin) {
            let json = try #require(try FlowLoader.load(path: twin).flow)
            #expect(FlowDiff.compare(old: yaml, new: json).isEmpty, "\(FlowDiff.compare(old: yaml, new: json).map(\.message))")
        }
    }

    /// Property: a change followed by its reverse gives the same changes with added and removed swapped (and the
    /// places swapped), for every change of the table and for every pair of them applied together.
    @Test func theReverseSwapsAddedAndRemoved() throws {
        func swapped(_ check: ChangeCheck) -> ChangeCheck {
            let raw = check.rawValue
            if raw.hasSuffix("_added") { return ChangeCheck(rawValue: raw.replacingOccurrences(of: "_added", with: "_removed"))! }
            if raw.hasSuffix("_removed") { return ChangeCheck(rawValue: raw.replacingOccurrences(of: "_removed", with: "_added"))! }
            if check == .stepUnreachable { return .stepNowReachable }
            if check == .stepNowReachable { return .stepUnreachable }
            if check == .outcomeUnreachable { return .outcomeNowReachable }
            if check == .outcomeNowReachable { return .outcomeUnreachable }
            return check
        }
        // `handler_removed` has no twin: a handler added breaks no one (the reverse has `transition_added`).
        func key(_ change: FlowChange, swap: Bool) -> String? {
            guard change.check != .handlerRemoved else { return nil }
            let (old, new) = swap ? (change.new, change.old) : (change.old, change.new)
            return "\(swap ? swapped(change.check) : change.check) \(old.map { "\($0.line):\($0.column)" } ?? "-") \(new.map { "\($0.line):\($0.column)" } ?? "-")"
        }
        var texts = Self.triggering.map { try? Self.changed($0) }.compactMap { $0 }
        for (first, second) in zip(Self.triggering, Self.triggering.dropFirst(3)) where !first.from.contains(second.from) && !second.from.contains(first.from) {
            texts.append(Self.base.replacingOccurrences(of: first.from, with: first.to).replacingOccurrences(of: second.from, with: second.to))
        }
        var compared = 0
        for text in texts {
            let document = FlowLoader.load(bytes: Array(text.utf8), file: "t.yaml", format: .yaml)
            guard let changed = document.flow, document.diagnostics.allSatisfy({ $0.severity != .error }) else { continue }
            let base = try Self.flow(Self.base)
            let forward = FlowDiff.compare(old: base, new: changed).compactMap { key($0, swap: false) }.sorted()
            let backward = FlowDiff.compare(old: changed, new: base).compactMap { key($0, swap: true) }.sorted()
            #expect(forward == backward, "\(text)")
            #expect(!forward.isEmpty)
            compared += 1
        }
        #expect(compared >= Self.triggering.count)
    }
}
