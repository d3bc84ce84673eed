import Testing
@testable import FlowKit
@testable import FlowKitTool

@Suite("GitHubReporter")
struct GitHubReporterTests {
    @Test func escapesData() {
        #expect(GitHubReporter.escapeData("100% done\r\nnext") == "100%25 done%0D%0Anext")
        #expect(GitHubReporter.escapeData("a: b, c") == "a: b, c")
        #expect(GitHubReporter.escapeData("%0A") == "%250A")
        #expect(GitHubReporter.escapeData("café ✓ \"q\" <&>") == "café ✓ \"q\" <&>")
    }

    @Test func escapesProperties() {
        #expect(GitHubReporter.escapeProperty("a: b, c") == "a%3A b%2C c")
        #expect(GitHubReporter.escapeProperty("100%\r\n") == "100%25%0D%0A")
        #expect(GitHubReporter.escapeProperty("flows/my flows/x.yaml") == "flows/my flows/x.yaml")
        #expect(GitHubReporter.escapeProperty("::error::") == "%3A%3Aerror%3A%3A")
    }

    @Test func oneCommandPerFindingBySeverity() {
        let output = GitHubReporter().render(CIReportFixture.report)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == CIReportFixture.diagnostics.count + 1)
        #expect(lines.last == "")
        #expect(lines[0] == "::error file=flows/checkout.yaml,line=8,col=3,title=dead_end::step 'receipt' has no transition and is not a finish step")
        #expect(lines[1].hasPrefix("::warning file=flows/checkout.yaml,line=4,col=5,title=unused_event::"))
        #expect(lines[2].hasPrefix("::notice file=flows/checkout.yaml,line=12,col=7,title=unreachable_step::"))
        #expect(lines[3] == "::error file=flows/my flows/sign-up.json,line=7,col=9,title=schema::"
            + "unknown key \"nxt\" in step 'a<b> & c': 100%25 sure, really%0Asecond line: café ✓ 日本")
    }

    @Test func filePropertyIsEscaped() {
        let diagnostic = Diagnostic(file: "a,b:c.yaml", position: .start, severity: .warning, rule: "r", message: "m")
        #expect(GitHubReporter().render(LintReport(diagnostics: [diagnostic], fileCount: 1))
            == "::warning file=a%2Cb%3Ac.yaml,line=1,col=1,title=r::m\n")
    }

    @Test func noFindingsPrintNothing() {
        #expect(GitHubReporter().render(CIReportFixture.empty) == "")
    }
}
