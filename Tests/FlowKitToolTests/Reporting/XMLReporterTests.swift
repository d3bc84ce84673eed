import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import FlowKit
@testable import FlowKitTool

@Suite("JUnitLintReporter and CheckstyleReporter")
struct XMLReporterTests {
    func parse(_ text: String) throws -> XMLElement {
        let document = try XMLDocument(data: Data(text.utf8), options: [])
        return try #require(document.rootElement())
    }

    func attribute(_ element: XMLElement, _ name: String) -> String? {
        element.attribute(forName: name)?.stringValue
    }

    func elements(_ element: XMLElement, _ name: String) -> [XMLElement] {
        element.elements(forName: name)
    }

    /// A test case fails exactly when its file fails the run: errors always, warnings only with `--strict`; every
    /// other finding is in the test case's `system-out`, so `failures` is non-zero exactly when the exit code is 1.
    @Test(arguments: [false, true]) func junitCountsMatchTheExitCode(strict: Bool) throws {
        var report = CIReportFixture.report
        report.strict = strict
        let root = try parse(JUnitLintReporter().render(report))
        #expect(root.name == "testsuites")
        let suites = elements(root, "testsuite")
        #expect(suites.map { attribute($0, "name") } == CIReportFixture.files)
        let cases = suites.flatMap { elements($0, "testcase") }
        #expect(cases.count == CIReportFixture.files.count)
        #expect(cases.map { attribute($0, "name") } == CIReportFixture.files)
        #expect(cases.allSatisfy { attribute($0, "classname") == "flowkit.lint" })
        let failures = cases.flatMap { elements($0, "failure") }
        // checkout (error, warning) and sign-up (error) fail; payments (warnings) fails only with --strict.
        #expect(failures.count == (strict ? 3 : 2))
        #expect((failures.count > 0) == report.fails)
        #expect(cases.allSatisfy { elements($0, "failure").count <= 1 })
        #expect(cases.flatMap { elements($0, "error") }.isEmpty)
        #expect(attribute(root, "tests") == "\(cases.count)")
        #expect(attribute(root, "failures") == "\(failures.count)")
        #expect(attribute(root, "errors") == "0")
        for suite in suites {
            #expect(attribute(suite, "tests") == "\(elements(suite, "testcase").count)")
            #expect(attribute(suite, "failures") == "\(elements(suite, "testcase").flatMap { elements($0, "failure") }.count)")
        }
        // Every failing finding is a line of its file's failure; the others are in system-out.
        let failureLines = failures.flatMap { ($0.stringValue ?? "").split(separator: "\n") }
        let failing = CIReportFixture.diagnostics.filter(report.fails)
        #expect(failureLines.count == failing.map { XcodeReporter.line($0) }.joined(separator: "\n").split(separator: "\n").count)
        #expect(failures.map { attribute($0, "message") } == (strict ? ["1 error, 1 warning", "1 error", "2 warnings"] : ["1 error", "1 error"]))
        #expect(failures.map { attribute($0, "type") } == (strict ? ["dead_end, unused_event", "schema", "finish_has_transitions"] : ["dead_end", "schema"]))
        #expect(failures[1].stringValue == XcodeReporter.line(CIReportFixture.diagnostics[3]))
        let out = cases[0].elements(forName: "system-out").first?.stringValue
        let passing = strict ? [CIReportFixture.diagnostics[2]] : [CIReportFixture.diagnostics[1], CIReportFixture.diagnostics[2]]
        #expect(out == passing.map(XcodeReporter.line).joined(separator: "\n"))
    }

    @Test func junitListsFilesMissingFromTheList() throws {
        let root = try parse(JUnitLintReporter().render({ var report = CIReportFixture.report; report.files = ["flows/clean.yaml", "flows/clean.yaml"]; return report }()))
        let names = elements(root, "testsuite").map { attribute($0, "name") }
        #expect(names == ["flows/clean.yaml", "flows/checkout.yaml", "flows/my flows/sign-up.json", "flows/payments.yaml"])
    }

    @Test func junitWithNoFindingsPasses() throws {
        let root = try parse(JUnitLintReporter().render({ var report = CIReportFixture.empty; report.files = ["a.yaml", "b.yaml"]; return report }()))
        #expect(attribute(root, "tests") == "2")
        #expect(attribute(root, "failures") == "0")
        #expect(elements(root, "testsuite").flatMap { elements($0, "testcase") }.count == 2)
    }

    @Test func checkstyleCountsMatch() throws {
        let root = try parse(CheckstyleReporter().render(CIReportFixture.report))
        #expect(root.name == "checkstyle")
        #expect(attribute(root, "version") == "4.3")
        let files = elements(root, "file")
        #expect(files.map { attribute($0, "name") } == ["flows/checkout.yaml", "flows/my flows/sign-up.json", "flows/payments.yaml"])
        let errors = files.flatMap { elements($0, "error") }
        #expect(errors.count == CIReportFixture.diagnostics.count)
        for (error, diagnostic) in zip(errors, CIReportFixture.diagnostics) {
            #expect(attribute(error, "line") == "\(diagnostic.line)")
            #expect(attribute(error, "column") == "\(diagnostic.column)")
            #expect(attribute(error, "severity") == CheckstyleReporter.severity(diagnostic.severity))
            #expect(attribute(error, "message") == diagnostic.message)
            #expect(attribute(error, "source") == "flowkit." + diagnostic.rule.rawValue)
        }
        #expect(errors.map { attribute($0, "severity") }.contains("info"))
    }

    @Test func checkstyleWithNoFindingsIsEmpty() throws {
        let root = try parse(CheckstyleReporter().render(CIReportFixture.empty))
        #expect(root.name == "checkstyle")
        #expect((root.children ?? []).filter { $0.kind == .element }.isEmpty)
    }

    @Test func attributesKeepLineBreaksAndDropForbiddenCharacters() throws {
        let text = "a\nb\tc\r\"<&>'\u{1}"
        #expect(JUnitReporter.escapeAttribute(text) == "a&#10;b&#9;c&#13;&quot;&lt;&amp;&gt;&apos;")
        let root = try parse("<x a=\"\(JUnitReporter.escapeAttribute(text))\"/>")
        #expect(attribute(root, "a") == "a\nb\tc\r\"<&>'")
    }
}

@Suite("XcodeReporter")
struct XcodeReporterTests {
    @Test func isTheTextFormatWithoutItsSummary() {
        let text = TextReporter(color: false).render(CIReportFixture.report)
        let xcode = XcodeReporter().render(CIReportFixture.report)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeLast(2)  // the summary and the empty string after the final newline
        #expect(xcode == lines.joined(separator: "\n") + "\n")
        #expect(!xcode.contains("\u{1B}"))
    }

    @Test func noFindingsPrintNothing() {
        #expect(XcodeReporter().render(CIReportFixture.empty) == "")
    }
}
