import FlowKit
import Foundation
import Testing

/// Nested flows from memory, by the name a `flow` step gives, without reading files.
public struct MemoryResolver: FlowResolver {
    public let flows: [String: CompiledFlow]

    public init(flows: [String: CompiledFlow]) {
        self.flows = flows
    }

    public func resolve(_ path: String, from parentFile: String) throws(RunError) -> CompiledFlow {
        guard let flow = flows[path] else { throw RunError("nested flow '\(path)' does not exist", kind: .nestedFlowUnavailable) }
        return flow
    }
}

/// The flow in the YAML `text`, compiled; the text must load without findings.
public func compiled(_ text: String, file: String = "/tmp/flowkit-engine-test.yaml") throws -> CompiledFlow {
    let document = FlowLoader.load(bytes: Array(text.utf8), file: file, format: .yaml)
    #expect(document.diagnostics.isEmpty, "\(document.diagnostics.map { "\($0.position) \($0.message)" })")
    return try CompiledFlow(flow: try #require(document.flow))
}
