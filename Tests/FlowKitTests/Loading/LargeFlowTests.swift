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
        // The same flow in the other format has the same fingerprint: it is the flow's meaning, not its bytes.
        let other = format == .yaml ? FlowGenerator.json(steps: 10_000) : FlowGenerator.yaml(steps: 10_000)
        let twin = try #require(FlowLoader.load(bytes: Array(other.utf8), file: "big", format: format == .yaml ? .json : .yaml).flow)
        #expect(flow.fingerprint == twin.fingerprint && flow.fingerprint.count == 16)
        #expect(flow.steps.count == 10_004)
        // Step s9999 starts on line 8 + 5 * 9999 (YAML) or 7 + 5 * 9999 (JSON), at column 3 or 5.
        let last = try #require(flow.step(named: "s9999"))
        #expect(last.name.position == (format == .yaml ? SourcePosition(line: 8 + 5 * 9999 + 3, column: 3) : SourcePosition(line: 8 + 5 * 9999, column: 5)))
        let findings = Linter.lint(document)
        #expect(findings.map { "\($0.rule):\($0.step ?? "")" } == ["unreachable_step:orphanA", "unreachable_step:orphanB"])
    }
}
