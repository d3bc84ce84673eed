import Foundation
import Testing
@testable import FlowKit

/// Flows an app is given: checked with every rule, nested flows from the app's source (docs/format.md, "Flows in an app").
@Suite("CompiledFlow.checked and FlowSource")
struct FlowSourceTests {
    /// Flows in memory, as a server might hand them out.
    struct MemorySource: FlowSource {
        let files: [String: String]

        func flow(_ reference: String, from file: String) throws(RunError) -> (name: String, bytes: [UInt8]) {
            guard let text = files[reference] else { throw RunError("nested flow '\(reference)' does not exist on the server", kind: .nestedFlowUnavailable) }
            return (reference, Array(text.utf8))
        }
    }

    static let parent = """
        flowkit: 1
        flow: checkout
        start: pay
        state: { card: string? }
        events: { paid: , declined: }
        steps:
          pay: { kind: flow, flow: card.yaml, on: { paid: done, declined: failed }, set: { card: result.number } }
          done: { kind: finish }
          failed: { kind: finish }
        """
    static let child = """
        flowkit: 1
        flow: card
        start: number
        state: { number: string? }
        events: { decline: }
        steps:
          number: { result: { number: string }, set: { number: result.number }, on: { decline: declined }, next: paid }
          paid: { kind: finish }
          declined: { kind: finish }
        """

    @Test func aCleanFlowRunsWithItsNestedFlowsFromTheSource() throws {
        let source = MemorySource(files: ["card.yaml": Self.child])
        let checked = try CompiledFlow.checked(Array(Self.parent.utf8), name: "checkout.yaml", source: source)
        var run = try FlowRun(flow: checked.flow, resolver: checked.resolver)
        #expect(run.currentStep == "pay/number")
        try run.complete(result: ["number": .string("4242")])
        #expect(run.outcome == "done" && run.state["card"] == .string("4242"))
    }

    @Test func anErrorInTheFlowOrANestedFlowRefusesIt() throws {
        let broken = Self.child.replacingOccurrences(of: "next: paid", with: "next: payd")
        do {
            _ = try CompiledFlow.checked(Array(Self.parent.utf8), name: "checkout.yaml", source: MemorySource(files: ["card.yaml": broken]))
            Issue.record("a nested flow with an error is refused")
        } catch {
            #expect(error.errors.contains { $0.file == "card.yaml" && $0.rule == "undefined_step" }, "\(error.errors)")
            #expect(error.description.hasPrefix("card.yaml:"))
        }
        do {
            _ = try CompiledFlow.checked(Array(Self.parent.utf8), name: "checkout.yaml", source: MemorySource(files: [:]))
            Issue.record("a missing nested flow is refused")
        } catch {
            #expect(error.errors.contains { $0.rule == "subflow_missing" && $0.message.contains("does not exist on the server") }, "\(error.errors)")
        }
        let cycle = Self.child.replacingOccurrences(of: "paid: { kind: finish }", with: "paid: { kind: flow, flow: card.yaml, next: declined }")
        do {
            _ = try CompiledFlow.checked(Array(cycle.utf8), name: "card.yaml", source: MemorySource(files: ["card.yaml": cycle]))
            Issue.record("flows that nest each other are refused")
        } catch {
            #expect(error.errors.contains { $0.rule == "subflow_cycle" }, "\(error.errors)")
        }
    }

    @Test func warningsDoNotRefuseAFlowAndAreReturned() throws {
        let warned = Self.parent.replacingOccurrences(of: "events: { paid: , declined: }", with: "events: { paid: , declined: , unused: }")
        let checked = try CompiledFlow.checked(Array(warned.utf8), name: "checkout.yaml", source: MemorySource(files: ["card.yaml": Self.child]))
        #expect(checked.warnings.map(\.rule) == ["unused_event"])
    }

    @Test func aNestedFlowWithErrorsIsRefusedAtItsStepWhenRun() throws {
        let resolver = SourceFlowResolver(source: MemorySource(files: ["card.yaml": "flowkit: 1\nflow: card\nstart: a\nsteps:\n  a: { next: nowhere }\n"]))
        let document = FlowLoader.load(bytes: Array(Self.parent.utf8), file: "checkout.yaml", format: .yaml)
        #expect(throws: RunError.self) { try FlowRun(flow: try CompiledFlow(flow: try #require(document.flow)), resolver: resolver) }
    }
}
