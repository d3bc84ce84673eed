import Foundation
import Testing
@testable import FlowKit

/// The flow in `yaml`, compiled from the YAML text and from its JSON twin (so every engine test covers both formats).
func compiledTwins(_ yaml: String, file: String = "/tmp/flowkit-engine-test.yaml") throws -> [CompiledFlow] {
    let fromYAML = FlowLoader.load(bytes: Array(yaml.utf8), file: file, format: .yaml)
    #expect(fromYAML.diagnostics.isEmpty, "\(fromYAML.diagnostics.map { "\($0.position) \($0.message)" })")
    let json = try #require(fromYAML.root).jsonText
    let fromJSON = FlowLoader.load(bytes: Array(json.utf8), file: file, format: .json)
    #expect(fromJSON.diagnostics.isEmpty)
    return [try CompiledFlow(flow: try #require(fromYAML.flow)), try CompiledFlow(flow: try #require(fromJSON.flow))]
}

/// Runs `steps` (event, result) from `start` and returns the run.
func walk(_ flow: CompiledFlow, start: RunStart = .start(state: [:]), _ steps: [(String?, [String: Value]?)], resolver: FlowResolver? = nil, maxSteps: Int = 10_000) throws -> FlowRun {
    var run = try FlowRun(flow: flow, start: start, resolver: resolver, maxSteps: maxSteps)
    for (event, result) in steps { try run.complete(event: event, result: result) }
    return run
}

/// The message of the run error `body` throws.
func runError(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as RunError {
        return error.message
    } catch {
        return "\(error)"
    }
}

@Suite("Engine: completing a step")
struct EngineCompletionTests {
    static let header = "flowkit: 1\nflow: t\n"

    @Test func setRunsWithTheResultAndSeesTheStateBeforeTheStep() throws {
        for flow in try compiledTwins(Self.header + """
            start: a
            state: { x: int, y: int }
            steps:
              a: { result: { v: int }, set: { x: result.v, y: "state.x" }, next: b }
              b: { result: { v: int }, set: { x: result.v, y: "state.x" }, next: done }
              done: { kind: finish }
            """) {
            let run = try walk(flow, start: .start(state: ["x": .int(1)]), [(nil, ["v": .int(10)]), (nil, ["v": .int(20)])])
            #expect(run.state["x"] == .int(20))
            #expect(run.state["y"] == .int(10), "assignments are simultaneous: y sees x before the step")
            #expect(run.outcome == "done")
        }
    }

    @Test func aCompletionWithOnlyAnEventDoesNotRunSet() throws {
        for flow in try compiledTwins(Self.header + """
            start: a
            state: { x: int? }
            events: { go: }
            steps:
              a: { set: { x: 1 }, on: { go: done } }
              done: { kind: finish }
            """) {
            let run = try walk(flow, [("go", nil)])
            #expect(run.state["x"] == nil)
        }
    }

    @Test func derivedEventsInDeclarationOrderAndOnlyThoseHandled() throws {
        for flow in try compiledTwins(Self.header + """
            start: a
            events:
              broken: result.missing > 1
              small: result.v < 10
              tiny: result.v < 5
            steps:
              a: { result: { v: int }, on: { tiny: t, small: s }, next: n }
              t: { kind: finish }
              s: { kind: finish }
              n: { kind: finish }
            """) {
            #expect(try walk(flow, [(nil, ["v": .int(3)])]).outcome == "s", "'small' is declared before 'tiny'")
            #expect(try walk(flow, [(nil, ["v": .int(50)])]).outcome == "n")
            #expect(try walk(flow, [(nil, ["v": .int(3)])]).trace.first?.eventKind == .derived)
        }
    }

    @Test func starHandlesDerivedEventsToo() throws {
        for flow in try compiledTwins(Self.header + """
            start: a
            events: { low: "result.v < 0" }
            steps:
              "*": { on: { low: neg } }
              a: { result: { v: int }, next: pos }
              neg: { kind: finish }
              pos: { kind: finish }
            """) {
            #expect(try walk(flow, [(nil, ["v": .int(-1)])]).outcome == "neg")
        }
    }

    @Test func explicitEventsUseTheStepsHandlerThenTheStarHandler() throws {
        for flow in try compiledTwins(Self.header + """
            start: a
            events: { e: , f: , g: }
            steps:
              "*": { on: { e: star, f: star } }
              a: { on: { e: own } }
              own: { kind: finish }
              star: { kind: finish }
            """) {
            #expect(try walk(flow, [("e", nil)]).outcome == "own")
            #expect(try walk(flow, [("f", nil)]).outcome == "star")
            #expect(runError { _ = try walk(flow, [("g", nil)]) } == "step 'a' has no transition for event 'g'")
        }
    }

    @Test func withNoEventNextThenStarNextThenStuck() throws {
        for flow in try compiledTwins(Self.header + """
            start: a
            steps:
              "*": { next: viaStar }
              a: { next: b }
              b: { title: no next of its own }
              viaStar: { kind: finish }
            """) {
            let run = try walk(flow, [(nil, nil), (nil, nil)])
            #expect(run.path == ["a", "b", "viaStar"])
        }
        for flow in try compiledTwins(Self.header + "start: a\nsteps:\n  a: { title: A }\n  b: { kind: finish }\n") {
            #expect(runError { _ = try walk(flow, [(nil, nil)]) } == "step 'a' has no transition")
        }
    }

    @Test func guardedOptionsTakeTheFirstThatHoldsAndRunItsSet() throws {
        for flow in try compiledTwins(Self.header + """
            start: a
            state: { vip: bool, fee: int? }
            steps:
              a:
                result: { vip: bool }
                set: { vip: result.vip }
                next:
                  - { forward: done, if: state.vip, set: { fee: 0 } }
                  - { forward: done, set: { fee: 5 } }
              done: { kind: finish }
            """) {
            #expect(try walk(flow, [(nil, ["vip": .bool(true)])]).state["fee"] == .int(0), "the condition sees the state updated by set")
            #expect(try walk(flow, [(nil, ["vip": .bool(false)])]).state["fee"] == .int(5))
        }
        for flow in try compiledTwins(Self.header + "start: a\nsteps:\n  a: { next: [{ forward: b, if: \"false\" }] }\n  b: { kind: finish }\n") {
            #expect(runError { _ = try walk(flow, [(nil, nil)]) }?.hasPrefix("step 'a' has no transition") == true)
        }
    }
}

@Suite("Engine: history and path")
struct EngineHistoryTests {
    static let flow = """
        flowkit: 1
        flow: t
        start: a
        state: { n: int? }
        events: { toB: , backToA: , pop: , again: , end: }
        steps:
          a: { result: { n: int }, set: { n: result.n }, on: { end: done }, next: b }
          b: { on: { backToA: { back: a }, pop: { back: true }, again: { restart: true }, toB: b }, next: c }
          c: { on: { backToA: { back: a }, pop: { back: true } }, next: done }
          done: { kind: finish }
        """

    @Test func backToAStepVisitedTwiceGoesToTheLatestVisit() throws {
        for flow in try compiledTwins(Self.flow) {
            var run = try walk(flow, [(nil, ["n": .int(1)]), ("backToA", nil), (nil, ["n": .int(2)]), ("toB", nil), (nil, nil)])
            #expect(run.path == ["a", "b", "a", "b", "b", "c"])
            try run.complete(event: "pop")
            #expect(run.currentStep == "b", "back: true pops c; the latest b is shown")
            try run.complete(event: "pop")
            #expect(run.currentStep == "b", "the earlier b (b was pushed twice)")
            try run.complete(event: "backToA")
            #expect(run.currentStep == "a")
            try run.complete(event: "end")
            #expect(run.path.last == "done")
        }
    }

    @Test func backTrueAtTheFirstStepIsAnError() throws {
        let yaml = "flowkit: 1\nflow: t\nstart: a\nevents: { pop: }\nsteps:\n  a: { on: { pop: { back: true } }, next: b }\n  b: { kind: finish }\n"
        for flow in try compiledTwins(yaml) {
            #expect(runError { _ = try walk(flow, [("pop", nil)]) } == "step 'a' is the first step of its run: 'back: true' has nowhere to go")
        }
    }

    @Test func backToAStepNotOnTheHistoryIsAnError() throws {
        let yaml = """
            flowkit: 1
            flow: t
            start: a
            events: { jump: , up: }
            entries: { deep: { step: c, path: /c } }
            steps:
              a: { on: { jump: c }, next: c }
              c: { on: { up: { back: a } }, next: done }
              done: { kind: finish }
            """
        for flow in try compiledTwins(yaml) {
            #expect(runError { _ = try walk(flow, start: .entry("deep", params: [:], state: [:]), [("up", nil)]) }
                    == "step 'c' goes back to 'a', which is not on the history")
        }
    }

    @Test func restartClearsHistoryAndState() throws {
        for flow in try compiledTwins(Self.flow) {
            var run = try walk(flow, [(nil, ["n": .int(7)]), ("again", nil)])
            #expect(run.currentStep == "a")
            #expect(run.state["n"] == nil)
            try run.complete(event: "end")
            #expect(run.path == ["a", "b", "a", "done"])
        }
    }

    @Test func theStepBoundStopsALoop() throws {
        let yaml = "flowkit: 1\nflow: t\nstart: a\nsteps:\n  a: { next: b }\n  b: { next: a }\n  done: { kind: finish }\n"
        for flow in try compiledTwins(yaml) {
            let message = runError {
                var run = try FlowRun(flow: flow, maxSteps: 100)
                while !run.isFinished { try run.complete() }
            }
            #expect(message == "the run showed more than 100 steps without finishing; does the flow loop?")
        }
    }
}

@Suite("Engine: results, state and types")
struct EngineTypeTests {
    static let flow = """
        flowkit: 1
        flow: t
        start: a
        state: { total: number, count: int, tariff: [economy, business], note: string? }
        steps:
          a:
            result: { amount: int, tariff: [economy, business], comment: string? }
            set: { total: result.amount, count: result.amount, tariff: result.tariff }
            next: b
          b: { set: { note: "state.note" }, next: done }
          done: { kind: finish }
        """

    @Test func anIntAssignedToANumberBecomesANumber() throws {
        for flow in try compiledTwins(Self.flow) {
            let run = try walk(flow, [(nil, ["amount": .int(250), "tariff": .string("economy")])])
            #expect(run.state["total"] == .number(250.0))
            #expect(run.state["count"] == .int(250))
        }
    }

    @Test func resultsAreCheckedAgainstTheDeclaredShape() throws {
        for flow in try compiledTwins(Self.flow) {
            #expect(runError { _ = try walk(flow, [(nil, ["tariff": .string("economy")])]) } == "the result of step 'a' is missing the key 'amount'")
            #expect(runError { _ = try walk(flow, [(nil, ["amount": .int(1), "tariff": .string("economy"), "amout": .int(1)])]) }
                    == "the result of step 'a' has an unknown key 'amout'; did you mean 'amount'?")
            #expect(runError { _ = try walk(flow, [(nil, ["amount": .string("x"), "tariff": .string("economy")])]) }?
                        .hasPrefix("the result of step 'a', key 'amount': ") == true)
            #expect(runError { _ = try walk(flow, [(nil, ["amount": .int(1), "tariff": .string("first")])]) }?
                        .hasPrefix("the result of step 'a', key 'tariff': ") == true)
        }
    }

    @Test func anOptionalStateKeyNeverSetReadsNull() throws {
        for flow in try compiledTwins(Self.flow) {
            let run = try walk(flow, [(nil, ["amount": .int(1), "tariff": .string("economy")])])
            #expect(run.state["note"] == nil)
        }
    }

    @Test func readingAnUnsetNonOptionalKeyIsARunErrorNamingTheStep() throws {
        let yaml = "flowkit: 1\nflow: t\nstart: a\nstate: { n: int, m: int? }\nsteps:\n  a: { next: [{ forward: b, if: \"state.n > 1\" }, b] }\n  b: { kind: finish }\n"
        for flow in try compiledTwins(yaml) {
            let error = try #require(runErrorValue { _ = try walk(flow, [(nil, nil)]) })
            #expect(error.step == "a")
            #expect(error.message.contains("'n'"))
            #expect(error.position != nil)
        }
    }
}

/// The run error `body` throws, as a value.
func runErrorValue(_ body: () throws -> Void) -> RunError? {
    do {
        try body()
        return nil
    } catch {
        return error as? RunError
    }
}

@Suite("Engine: deep links and nested flows")
struct EngineEntryAndNestingTests {
    @Test func anEntryStartsAloneOnTheHistoryWithItsParameters() throws {
        let yaml = """
            flowkit: 1
            flow: t
            start: amount
            state: { amount: int, country: string }
            events: { edit: , again: }
            entries: { editTariff: { step: tariffs, path: "/t/{amount}/tariffs" } }
            steps:
              amount: { result: { amount: int }, set: { amount: result.amount }, next: tariffs }
              tariffs: { on: { edit: { back: true }, again: { restart: true } }, next: done }
              done: { kind: finish }
            """
        for flow in try compiledTwins(yaml) {
            let start = RunStart.entry("editTariff", params: ["amount": "500"], state: ["country": .string("RU")])
            var run = try FlowRun(flow: flow, start: start)
            #expect(run.currentStep == "tariffs")
            #expect(run.state["amount"] == .int(500))
            #expect(runError { var copy = run; try copy.complete(event: "edit") }?.contains("first step") == true)
            try run.complete(event: "again")
            #expect(run.currentStep == "amount", "restart goes to start")
            #expect(run.state == ["amount": .int(500), "country": .string("RU")], "with the initial state, entry parameters included")
            #expect(runError { _ = try FlowRun(flow: flow, start: .entry("editTariff", params: [:], state: [:])) }
                    == "entry 'editTariff' needs the path parameter 'amount'")
            #expect(runError { _ = try FlowRun(flow: flow, start: .entry("editTariff", params: ["amount": "1", "x": "2"], state: [:])) }?
                        .hasPrefix("entry 'editTariff' has no path parameter 'x'") == true)
            #expect(runError { _ = try FlowRun(flow: flow, start: .entry("editTarif", params: [:], state: [:])) }
                    == "entry 'editTarif' is not defined; did you mean 'editTariff'?")
            #expect(runError { _ = try FlowRun(flow: flow, start: .entry("editTariff", params: ["amount": "lots"], state: [:])) }?
                        .hasPrefix("path parameter 'amount' of entry 'editTariff': ") == true)
        }
    }

    @Test func nestedFlowsTwoLevelsDeep() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("flowkit-nested-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            flowkit: 1
            flow: parent
            start: cart
            state: { total: int, paid: bool? , card: string? }
            events: { paid: , cancelled: }
            steps:
              cart: { result: { total: int }, set: { total: result.total }, next: pay }
              pay:
                kind: flow
                flow: sub/payment.yaml
                input: { amount: state.total }
                set: { paid: "true", card: result.card }
                on: { paid: receipt, cancelled: { back: true } }
              receipt: { kind: finish }
            """.write(toFile: folder + "/parent.yaml", atomically: true, encoding: .utf8)
        try """
            flowkit: 1
            flow: payment
            start: card
            state: { amount: int, card: string?, code: string? }
            events: { cancel: }
            steps:
              card: { result: { card: string }, set: { card: result.card }, on: { cancel: { back: true } }, next: verify }
              verify: { kind: flow, flow: verify.yaml, set: { code: result.code }, on: { ok: done }, next: failed }
              done: { kind: finish, outcome: paid }
              failed: { kind: finish, outcome: cancelled }
            """.replacingOccurrences(of: "events: { cancel: }", with: "events: { cancel: , ok: }")
            .write(toFile: folder + "/sub/payment.yaml", atomically: true, encoding: .utf8)
        try """
            flowkit: 1
            flow: verify
            start: code
            state: { code: string? }
            events: { wrong: }
            steps:
              code: { result: { code: string }, set: { code: result.code }, on: { wrong: bad }, next: good }
              good: { kind: finish, outcome: ok }
              bad: { kind: finish, outcome: failed }
            """.write(toFile: folder + "/sub/verify.yaml", atomically: true, encoding: .utf8)
        let document = try FlowLoader.load(path: folder + "/parent.yaml")
        let flow = try CompiledFlow(flow: try #require(document.flow))
        let resolver = FileFlowResolver(root: folder)
        var run = try FlowRun(flow: flow, resolver: resolver)
        try run.complete(result: ["total": .int(40)])
        #expect(run.currentStep == "pay/card")
        try run.complete(result: ["card": .string("visa")])
        #expect(run.currentStep == "pay/verify/code")
        try run.complete(result: ["code": .string("1234")])
        #expect(run.outcome == "receipt")
        #expect(run.path == ["cart", "pay/card", "pay/verify/code", "pay/verify/good", "pay/done", "receipt"])
        #expect(run.state["card"] == .string("visa"), "the parent's set reads the nested flow's final state as result")
        #expect(run.state["paid"] == .bool(true))
        #expect(run.trace.map(\.eventKind).contains(.outcome))

        var cancelled = try FlowRun(flow: flow, resolver: resolver)
        try cancelled.complete(result: ["total": .int(40)])
        #expect(runError { try cancelled.complete(event: "cancel") }?.contains("first step of its run") == true,
                "a nested flow has its own history")
    }

    @Test func nestedFlowPathsCannotLeaveTheRoot() {
        #expect(runErrorValue { _ = try FileFlowResolver.locate("../../etc/passwd", from: "/tmp/a/b/flow.yaml", root: "/tmp/a") } != nil)
        #expect(runErrorValue { _ = try FileFlowResolver.locate("/etc/passwd", from: "/tmp/a/flow.yaml", root: "/tmp/a") } != nil)
        #expect(runErrorValue { _ = try FileFlowResolver.locate("~/x.yaml", from: "/tmp/a/flow.yaml", root: "/tmp/a") } != nil)
        #expect(runErrorValue { _ = try FileFlowResolver.locate("file://x.yaml", from: "/tmp/a/flow.yaml", root: "/tmp/a") } != nil)
    }
}
