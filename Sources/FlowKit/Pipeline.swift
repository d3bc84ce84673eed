import Foundation

/// The way a flow file's data goes, stage by stage, read from this one file (as swift-openapi-generator's
/// `GeneratorPipeline` reads): each stage takes what the one before made, and none reaches back.
///
/// ```
/// bytes ─ readDocument ─▶ document (positioned tree) ─ decodeModel ─▶ model (Flow)
///                                                                   ├─ analyse ─▶ findings (Diagnostic)
///                                                                   └─ compile ─▶ engine (CompiledFlow) ─ FlowRun ─▶ runs
/// ```
///
/// `FlowLoader` runs the first two stages, `Linter` the analysis and `CompiledFlow.checked` all of them. In the
/// tool (`FlowKitTool`), a frontend per command takes findings and runs on to reports (`Reporter`), models on to
/// diagrams (`FlowDiagram`), and two models on to changes (`FlowDiff`); the command line prints and writes what the
/// frontend returns.
package enum FlowPipeline {
    /// Text to a positioned document: the JSON or YAML reader's tree, every node with its line and column, and the
    /// readers' findings (`syntax`, `duplicate_key`), within `limits`.
    package static func readDocument(_ bytes: [UInt8], file: String, format: DocumentFormat, limits: ReaderLimits) -> ParsedDocument {
        switch format {
        case .json: return JSONReader.parse(bytes, file: file, limits: limits)
        case .yaml: return YAMLReader.parse(bytes, file: file, limits: limits)
        }
    }

    /// A document to the flow model, with the `schema` findings met on the way; nil when a required key is
    /// missing or malformed.
    package static func decodeModel(_ root: Node, file: String) -> (flow: Flow?, diagnostics: [Diagnostic]) {
        FlowDecoder.decode(root, file: file)
    }

    /// A loaded document to its findings: every rule not in `disabled`, nested flows read from `workspace`.
    package static func analyse(_ document: LoadedDocument, workspace: LintWorkspace?, disabled: Set<RuleID> = []) -> [Diagnostic] {
        Linter.lint(document, workspace: workspace, disabled: disabled)
    }

    /// A flow model to what the engine runs: expressions parsed and resolved, steps indexed.
    package static func compile(_ flow: Flow) throws(RunError) -> CompiledFlow {
        try CompiledFlow(flow: flow)
    }
}
