@testable import FlowKit
import Foundation
import Testing

/// `unhandled_outcome` asks of a `flow` step only the outcomes its nested flow can reach from where the step starts
/// it: its `start`, and the nested entries of the parent's entries into the step (issue 28, item 7).
@Suite("Outcomes a nested flow reaches from where it is entered")
struct NestedOutcomeReachTests {
    static let child = """
        flowkit: 1
        flow: child
        start: a
        events: { ok: }
        entries:
          reset: { step: r, path: "/reset" }
        steps:
          a: { on: { ok: done }, next: done }
          r: { next: resetDone }
          done: { kind: finish }
          resetDone: { kind: finish }
        """

    func lint(_ parent: String) throws -> [String] {
        let folder = NSTemporaryDirectory() + "flowkit-outcomes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.child.write(toFile: folder + "/child.yaml", atomically: true, encoding: .utf8)
        try parent.write(toFile: folder + "/parent.yaml", atomically: true, encoding: .utf8)
        let findings = Linter.lint(try FlowLoader.load(path: folder + "/parent.yaml"), workspace: LintWorkspace(roots: [folder]))
        return findings.map { "\($0.rule): \($0.message)" }
    }

    @Test func anOutcomeOnlyANestedEntryReachesIsNotRequiredOfAStepThatStartsTheChildAtItsStart() throws {
        #expect(try lint("""
            flowkit: 1
            flow: parent
            start: sub
            events: { done: }
            steps:
              sub: { kind: flow, flow: child.yaml, on: { done: end } }
              end: { kind: finish }
            """).isEmpty)
    }

    @Test func itIsRequiredWhenAnEntryOfTheParentStartsTheChildThere() throws {
        #expect(try lint("""
            flowkit: 1
            flow: parent
            start: sub
            events: { done: }
            entries:
              reset: { step: sub, entry: reset, path: "/reset" }
            steps:
              sub: { kind: flow, flow: child.yaml, on: { done: end } }
              end: { kind: finish }
            """) == ["unhandled_outcome: nested flow 'child.yaml' can finish with outcome 'resetDone', which step 'sub' neither handles nor covers with 'next'"])
    }

    @Test func reachableOutcomesFollowTheEntriesGiven() throws {
        // From its start the child finishes with 'done' only; from its entry 'reset' as well with 'resetDone'.
        let folder = NSTemporaryDirectory() + "flowkit-outcomes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.child.write(toFile: folder + "/child.yaml", atomically: true, encoding: .utf8)
        let outcomes = UnhandledOutcomeRule.reachableOutcomes(of: try #require(FlowLoader.load(path: folder + "/child.yaml").flow), from: [])
        #expect(outcomes == ["done"])
        let withEntry = UnhandledOutcomeRule.reachableOutcomes(of: try #require(FlowLoader.load(path: folder + "/child.yaml").flow), from: ["reset"])
        #expect(withEntry == ["done", "resetDone"])
    }
}
