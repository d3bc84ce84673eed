import Foundation
import FlowKit
@testable import FlowKitTool
import Testing

/// A file that imports Foundation and FlowKit can name FlowKit's public types without qualifying them: none clashes
/// with Foundation's (Foundation's `Expression` is why the parsed expression, now internal, is `FlowExpression`).
/// The check is that this file compiles; the test only keeps the list in use.
@Suite("Public names")
struct PublicNamesTests {
    static let appFacing: [Any.Type] = [
        Value.self, Flow.self, Step.self, StepKind.self, Name.self, Entry.self, Field.self,
        Target.self, Handler.self, CompiledFlow.self, FlowRun.self, RunStart.self, RunError.self, RunMove.self,
        TraceEntry.self, StateChange.self, FlowResolver.self, FileFlowResolver.self, FlowLoader.self,
        LoadedDocument.self, Linter.self, Diagnostic.self, Severity.self, Script.self, Scenario.self,
        ScriptRunner.self, PlaySession.self, FlowDiagram.self, FlowKitVersion.self, Node.self, Scalar.self, CheckedFlow.self,
        FlowRejection.self, FlowSource.self, EmbeddedFlowSource.self, FlowRunner.self, RunSnapshot.self, FlowInterface.self,
        EntryPath.self, SwiftGenerator.self, SimulationTrace.self,
    ]

    @Test func appFacingTypesAreNamedWithFoundationImported() {
        #expect(Set(Self.appFacing.map { String(describing: $0) }).count == Self.appFacing.count)
    }
}
