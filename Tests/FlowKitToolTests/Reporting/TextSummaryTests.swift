import Testing
@testable import FlowKit
@testable import FlowKitTool

/// The text summary's line: the files checked and skipped, the findings by severity, and whether errors stopped part
/// of the lint (docs/format.md, "Diagnostics and exit codes").
struct TextSummaryTests {
    private static let finding = Diagnostic(file: "a.yaml", position: .start, severity: .warning, rule: .unusedEvent, message: "m")

    @Test func theSummaryCountsFilesFindingsAndProblems() {
        #expect(TextReporter.summary(LintReport(diagnostics: [], fileCount: 2)) == "2 files checked: no findings")
        #expect(TextReporter.summary(LintReport(diagnostics: [Self.finding], fileCount: 1, skippedCount: 3))
                == "1 file checked, 3 skipped (not flow files): 1 warning")
        #expect(TextReporter.summary(LintReport(diagnostics: [], fileCount: 0, problemCount: 1))
                == "0 files checked: no findings; 1 problem fails the run")
        #expect(TextReporter.summary(LintReport(diagnostics: [Self.finding, Self.finding], fileCount: 4, problemCount: 2))
                == "4 files checked: 2 warnings; 2 problems fail the run")
    }
}
