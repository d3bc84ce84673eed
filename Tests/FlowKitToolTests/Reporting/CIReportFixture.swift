import Foundation
import Testing
import TestSupport
@testable import FlowKit
@testable import FlowKitTool

/// The lint report every CI output format is tested on: four files checked, three with findings (one path has a
/// space), findings of each severity, a message with characters each format must escape, and two findings that differ
/// only in their position.
enum CIReportFixture {
    /// The folder of the golden files, relative to the package root.
    static let goldenFolder = "Tests/FlowKitToolTests/Reporting/Golden"

    /// The version the SARIF log names.
    static let toolVersion = "1.2.3"

    /// A message with quotes, `<`, `&`, `%`, a comma, a colon, a line feed and non-ASCII text.
    static let trickyMessage = "unknown key \"nxt\" in step 'a<b> & c': 100% sure, really\nsecond line: café ✓ 日本"

    /// The files checked, in order: `flows/clean.yaml` has no findings.
    static let files = ["flows/checkout.yaml", "flows/my flows/sign-up.json", "flows/clean.yaml", "flows/payments.yaml"]

    static let diagnostics = [
        Diagnostic(file: "flows/checkout.yaml", position: SourcePosition(line: 8, column: 3), severity: .error,
                   rule: "dead_end", step: "receipt", message: "step 'receipt' has no transition and is not a finish step"),
        Diagnostic(file: "flows/checkout.yaml", position: SourcePosition(line: 4, column: 5), severity: .warning,
                   rule: "unused_event", message: "event 'cancel' is declared but no step handles it"),
        Diagnostic(file: "flows/checkout.yaml", position: SourcePosition(line: 12, column: 7), severity: .note,
                   rule: "unreachable_step", step: "help", message: "step 'help' is only reachable from itself"),
        trickyDiagnostic,
        Diagnostic(file: "flows/payments.yaml", position: SourcePosition(line: 10, column: 3), severity: .warning,
                   rule: "finish_has_transitions", step: "done", message: "finish step 'done' has 'next', which never runs"),
        Diagnostic(file: "flows/payments.yaml", position: SourcePosition(line: 20, column: 3), severity: .warning,
                   rule: "finish_has_transitions", step: "done", message: "finish step 'done' has 'next', which never runs"),
    ]

    /// A finding whose message is set after creation, so that it keeps its raw line feed (the initializer escapes
    /// control characters): every reporter must still escape what it prints.
    static let trickyDiagnostic: Diagnostic = {
        var diagnostic = Diagnostic(file: "flows/my flows/sign-up.json", position: SourcePosition(line: 7, column: 9), severity: .error,
                                    rule: "schema", step: "a<b> & c", message: "")
        diagnostic.message = trickyMessage
        return diagnostic
    }()

    static let report = LintReport(diagnostics: diagnostics, fileCount: files.count, files: files, toolVersion: toolVersion)

    static let empty = LintReport(diagnostics: [], fileCount: 2, files: ["flows/a.yaml", "flows/b.yaml"], toolVersion: toolVersion)

    /// The rules the golden SARIF logs describe: fixed here, so that the goldens do not change with flowkit's rules
    /// (the SARIF tests check the default, `Linter.rules`, separately).
    static let rules = [
        RuleDescription(identifier: "schema", name: "Schema", summary: "A key is unknown, missing or of the wrong type.",
                        rationale: "The format is checked first: say \"why\" <here> & 100%, then fix it.", severity: .error,
                        triggeringExamples: [], nonTriggeringExamples: []),
        RuleDescription(identifier: "unused_event", name: "Unused event", summary: "An event is declared but never handled.",
                        rationale: "Unused events are usually typos.\nRemove them or handle them.", severity: .warning,
                        triggeringExamples: [], nonTriggeringExamples: []),
        RuleDescription(identifier: "unreachable_step", name: "Unreachable step", summary: "A step cannot be reached from 'start'.",
                        rationale: "Nobody will ever see it.", severity: .note,
                        triggeringExamples: [], nonTriggeringExamples: []),
        RuleDescription(identifier: "dead_end", name: "Dead end", summary: "A step has no way out.",
                        rationale: "Users get stuck on it.", severity: .error,
                        triggeringExamples: [], nonTriggeringExamples: []),
        RuleDescription(identifier: "finish_has_transitions", name: "Finish step with transitions",
                        summary: "A finish step has transitions that never run.", rationale: "A flow ends at its finish step.",
                        severity: .warning, triggeringExamples: [], nonTriggeringExamples: []),
    ]

    /// `format`'s reporter as the tests configure it: the registry's, except that SARIF describes `rules`.
    static func reporter(_ format: LintReportFormat) -> any Reporter {
        if format == .sarif { return SARIFReporter(rules: rules) }
        return format.reporter()
    }

    /// The golden file's name for a format: `report.sarif`, `report.junit.xml`, `empty.github.txt`…
    static func goldenName(_ format: LintReportFormat, empty: Bool = false) -> String {
        let name: String
        switch format {
        case .text: name = "txt"
        case .json: name = "json"
        case .sarif: name = "sarif"
        case .github, .xcode: name = format.rawValue + ".txt"
        case .junit, .checkstyle: name = format.rawValue + ".xml"
        }
        return (empty ? "empty." : "report.") + name
    }

    /// Writes `text` to a new temporary file and returns its path.
    static func temporaryFile(_ text: String, suffix: String) throws -> String {
        let path = NSTemporaryDirectory() + "/flowkit-report-\(UUID().uuidString)\(suffix)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `python3` with `arguments` and returns its exit status and its standard output and error together.
    static func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}

@Suite("CI report formats (every Reporter)")
struct CIReporterGoldenTests {
    @Test(arguments: LintReportFormat.allCases)
    func reportMatchesGolden(_ format: LintReportFormat) throws {
        let output = CIReportFixture.reporter(format).render(CIReportFixture.report)
        try expectGolden(output, CIReportFixture.goldenName(format), in: CIReportFixture.goldenFolder)
    }

    @Test(arguments: LintReportFormat.allCases)
    func emptyReportMatchesGolden(_ format: LintReportFormat) throws {
        let output = CIReportFixture.reporter(format).render(CIReportFixture.empty)
        try expectGolden(output, CIReportFixture.goldenName(format, empty: true), in: CIReportFixture.goldenFolder)
    }

    @Test(arguments: LintReportFormat.allCases)
    func formatNameIsTheReporterIdentifier(_ format: LintReportFormat) {
        let reporter = CIReportFixture.reporter(format)
        #expect(type(of: reporter).identifier == format.rawValue)
        #expect(LintReportFormat(rawValue: format.rawValue) == format)
    }

    @Test func formatsAreTheDocumentedOnes() {
        #expect(LintReportFormat.allCases.map(\.rawValue) == ["text", "json", "sarif", "github", "junit", "xcode", "checkstyle"])
    }

    @Test func textColourIsPassedOn() {
        let coloured = LintReportFormat.text.reporter(color: true).render(CIReportFixture.report)
        #expect(coloured.contains("\u{1B}["))
    }
}
