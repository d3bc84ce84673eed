import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool

/// Entries that reach into a nested flow (docs/format.md, "Entries into nested flows").
@Suite("Entries into nested flows")
struct NestedEntryTests {
    static let parent = """
        flowkit: 1
        flow: checkout
        start: cart
        events: { signedIn: , gaveUp: }
        entries:
          reset: { step: signIn, entry: resetPassword, path: "/checkout/signin/reset/{token}" }
        steps:
          cart: { next: signIn }
          signIn: { kind: flow, flow: sign-in.yaml, on: { signedIn: paid, gaveUp: cart } }
          paid: { kind: finish }
        """
    static let child = """
        flowkit: 1
        flow: signIn
        start: email
        state: { token: string? }
        events: { cancel: }
        entries:
          resetPassword: { step: reset, path: "/reset/{token}" }
        steps:
          email: { next: password }
          password: { on: { cancel: gaveUp }, next: signedIn }
          reset: { next: password }
          signedIn: { kind: finish }
          gaveUp: { kind: finish }
        """

    private func source() -> FlowSourceTests.MemorySource {
        FlowSourceTests.MemorySource(files: ["sign-in.yaml": Self.child])
    }

    @Test func aRunBegunAtANestedEntryStartsTheNestedFlowThere() throws {
        let checked = try CompiledFlow.checked(Array(Self.parent.utf8), name: "checkout.yaml", source: source())
        #expect(checked.warnings.isEmpty, "\(checked.warnings.map(\.message))")
        var run = try FlowRun(flow: checked.flow, start: .url("https://shop.example/checkout/signin/reset/t-1?x=1", state: [:]), resolver: checked.resolver)
        #expect(run.currentStep == "signIn/reset")
        #expect(run.state["token"] == nil, "the parameter goes to the nested flow, not to the parent")
        let snapshot = run.snapshot()
        #expect(snapshot.levels.map(\.history) == [["signIn"], ["reset"]])
        #expect(snapshot.levels[1].state["token"] == .string("t-1"))
        try run.complete()
        try run.complete()
        #expect(run.outcome == "paid")
        #expect(run.path == ["signIn/reset", "signIn/password", "signIn/signedIn", "paid"])
    }

    @Test(arguments: [
        ("entry: resetPassword", "entry: resetPasword", "nested flow 'sign-in.yaml' has no entry 'resetPasword'; did you mean 'resetPassword'?"),
        ("step: signIn, entry", "step: cart, entry", "entry 'reset' reaches into step 'cart', which is not a 'flow' step; 'entry' goes with a step that runs a nested flow"),
        ("/reset/{token}\" }", "/reset/{tokn}\" }", "path parameter 'tokn' of entry 'reset' is not a parameter of the nested entry 'resetPassword'; did you mean 'token'?"),
        ("reset/{token}\" }", "reset/x-{token}\" }", "the path of entry 'reset' has a parameter inside the segment 'x-{token}'; a parameter is a whole segment, like '/items/{id}'"),
    ])
    func lintChecksTheEntry(replacing: String, with: String, message: String) throws {
        let text = Self.parent.replacingOccurrences(of: replacing, with: with)
        #expect(text != Self.parent)
        do {
            _ = try CompiledFlow.checked(Array(text.utf8), name: "checkout.yaml", source: source())
            Issue.record("refused: \(message)")
        } catch {
            #expect(error.errors.contains { $0.rule == "entry_param" && $0.message == message }, "\(error.errors.map(\.message))")
        }
    }

    @Test func theSchemaTakesAnEntryIntoANestedFlow() throws {
        let document = FlowLoader.load(bytes: Array(Self.parent.utf8), file: "checkout.yaml", format: .yaml)
        #expect(document.diagnostics.isEmpty)
        #expect(document.flow?.entries.first?.nestedEntry?.text == "resetPassword")
        #expect(FlowJSONSchema.text.contains("With a `flow` step: the entry of its nested flow to start at."))
    }
}
