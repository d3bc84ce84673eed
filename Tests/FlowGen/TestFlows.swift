import FlowKit
import Foundation
import Testing

/// The flow in the YAML `text`, compiled; the text must load without findings.
public func compiled(_ text: String, file: String = "/tmp/flowkit-engine-test.yaml") throws -> CompiledFlow {
    let document = FlowLoader.load(bytes: Array(text.utf8), file: file, format: .yaml)
    #expect(document.diagnostics.isEmpty, "\(document.diagnostics.map { "\($0.position) \($0.message)" })")
    return try CompiledFlow(flow: try #require(document.flow))
}
