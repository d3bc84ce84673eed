import Testing
@testable import FlowKit

/// Numbers a host app or a script hands to a run: those that are not finite are run errors naming the key, and
/// the rest (-0, huge ones) give defined answers.
@Suite("Engine: numbers from outside")
struct EngineNumberTests {
    static let flow = """
        flowkit: 1
        flow: t
        start: a
        state: { total: number?, count: int? }
        entries: { deep: { step: a, path: /a } }
        steps:
          a: { result: { x: number, w: int?, y: number? }, next: [{ forward: big, if: "result.x > 1" }, small] }
          shaped:
            result: { user: { age: number } }
            set: { total: result.user.age }
            next: small
          big: { kind: finish }
          small: { kind: finish }
        """

    @Test func aNaNResultComparedWithANumberIsARunErrorNamingTheKey() throws {
        for flow in try compiledTwins(Self.flow) {
            var run = try FlowRun(flow: flow)
            let error = runErrorValue { try run.complete(result: ["x": .number(.nan)]) }
            #expect(error?.message == "the result of step 'a', key 'x': expected a finite number, found nan")
            #expect(error?.step == "a")
            #expect(run.currentStep == "a" && run.path == ["a"] && run.trace.isEmpty, "the completion changes nothing")
            try run.complete(result: ["x": .number(2)])
            #expect(run.outcome == "big", "the run goes on after the error as a host's would")
        }
    }

    @Test func infinitiesInAResultAreRunErrorsNamingTheKey() throws {
        for flow in try compiledTwins(Self.flow) {
            #expect(runError { _ = try walk(flow, [(nil, ["x": .number(.infinity)])]) }
                    == "the result of step 'a', key 'x': expected a finite number, found inf")
            #expect(runError { _ = try walk(flow, [(nil, ["w": .int(1), "x": .number(-.infinity), "y": .number(.nan)])]) }
                    == "the result of step 'a', key 'x': expected a finite number, found -inf", "the first key in order is named")
        }
    }

    @Test func aNumberThatIsNotFiniteInsideAResultObjectIsNamedByItsPath() throws {
        for flow in try compiledTwins(Self.flow.replacingOccurrences(of: "start: a", with: "start: shaped")) {
            #expect(runError { _ = try walk(flow, [(nil, ["user": .object(["age": .number(.nan)])])]) }
                    == "the result of step 'shaped', key 'user.age': expected a finite number, found nan")
        }
        var deep = Value.number(.infinity)
        for _ in 0..<300 { deep = .object(["k": deep]) }
        #expect(FlowRun.firstNonFinite(in: ["a": .int(1), "b": deep])?.key == "b" + String(repeating: ".k", count: 300))
        #expect(FlowRun.firstNonFinite(in: ["a": .object(["b": .number(1e308), "c": .number(-0.0)])]) == nil)
    }

    @Test func aNumberThatIsNotFiniteInTheInitialStateIsARunErrorNamingTheKey() throws {
        for flow in try compiledTwins(Self.flow) {
            #expect(runError { _ = try FlowRun(flow: flow, start: .start(state: ["total": .number(.nan)])) }
                    == "the initial state of 'total': expected a finite number, found nan")
            #expect(runError { _ = try FlowRun(flow: flow, start: .entry("deep", params: [:], state: ["count": .number(-.infinity)])) }
                    == "the initial state of 'count': expected a finite number, found -inf")
            #expect(runError { _ = try FlowRun(flow: flow, start: .start(state: ["undeclared": .number(.infinity)])) }
                    == "the initial state of 'undeclared': expected a finite number, found inf")
        }
    }

    @Test func minusZeroAndHugeNumbersInAResultGiveDefinedAnswers() throws {
        for flow in try compiledTwins(Self.flow) {
            #expect(try walk(flow, [(nil, ["x": .number(-0.0)])]).outcome == "small")
            #expect(try walk(flow, [(nil, ["x": .number(1e308)])]).outcome == "big")
            #expect(try walk(flow, [(nil, ["x": .int(.min)])]).outcome == "small")
            #expect(try walk(flow, [(nil, ["x": .number(-Double.greatestFiniteMagnitude)])]).outcome == "small")
        }
        for flow in try compiledTwins(Self.flow.replacingOccurrences(of: "start: a", with: "start: shaped")) {
            let run = try walk(flow, start: .start(state: ["total": .number(0)]), [(nil, ["user": .object(["age": .number(-0.0)])])])
            #expect(run.trace.first?.changes == [], "-0 stored over 0 is no change")
        }
    }
}
