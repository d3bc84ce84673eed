import Testing
@testable import FlowKit

@Suite("Large flows")
struct LargeFlowTests {
    @Test(arguments: [DocumentFormat.yaml, .json])
    func tenThousandSteps(_ format: DocumentFormat) throws {
        let text = format == .yaml ? FlowGenerator.yaml(steps: 10_000) : FlowGenerator.json(steps: 10_000)
        let document = FlowLoader.load(bytes: Array(text.utf8), file: "big", format: format)
        #expect(document.diagnostics.isEmpty)
        let flow = try #require(document.flow)
        // Worked out on another core for a file this large, and the same as in order.
        #expect(text.utf8.count >= FlowLoader.parallelFingerprintBytes)
        #expect(flow.fingerprint == FlowLoader.fingerprint(Array(text.utf8)))
        #expect(flow.steps.count == 10_004)
        // Step s9999 starts on line 8 + 5 * 9999 (YAML) or 7 + 5 * 9999 (JSON), at column 3 or 5.
        let last = try #require(flow.step(named: "s9999"))
        #expect(last.name.position == (format == .yaml ? SourcePosition(line: 8 + 5 * 9999 + 3, column: 3) : SourcePosition(line: 8 + 5 * 9999, column: 5)))
        let findings = Linter.lint(document)
        #expect(findings.map { "\($0.rule):\($0.step ?? "")" } == ["unreachable_step:orphanA", "unreachable_step:orphanB"])
    }
}
