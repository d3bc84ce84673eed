import FlowKit
@testable import FlowKitTool
import Foundation
import Testing

/// The frontends return what to print and write, in order, and how the command ends; they print nothing and name
/// options only as `CommandOption`s, which a front end spells.
@Suite("Frontends")
struct FrontendTests {
    /// Every `--name` outside comments in the library and the tool's core, but for the ones listed: arguments to
    /// git, the comment `generate scenarios --extend` writes into a script and the script name a run of moves has in
    /// every report (outputs the golden files keep byte for byte), and `subflow_missing`'s description, which is
    /// `flowkit explain`'s text and the README's rule table.
    static let allowed = ["\"--show-toplevel\"", "\"--absolute-git-dir\"", "\"--git-dir=\"", "\"--work-tree=\"",
                          "generate scenarios --extend for what", "script: \"--events\"", "(unless --allow-outside): absolute paths"]

    @Test func theLibraryAndTheCoreNameNoFlag() throws {
        let flag = try NSRegularExpression(pattern: #"(^|[\s'"(`])--[a-z]"#)
        var found: [String] = []
        for target in ["Sources/FlowKit", "Sources/FlowKitTool"] {
            let root = packageRoot + "/" + target
            let files = try #require(FileManager.default.enumerator(atPath: root)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
            #expect(files.count > 10)
            // The report's style sheet: CSS custom properties (`--bg`) are not options.
            for file in files where file != "Report/ReportAssets.swift" {
                let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    guard !trimmed.hasPrefix("//"), !Self.allowed.contains(where: { line.contains($0) }) else { continue }
                    let line = String(line)
                    if flag.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil { found.append("\(target)/\(file):\(number + 1): \(trimmed)") }
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test func aMessageNamesOptionsForTheFrontEndToSpell() {
        let message: CommandMessage = "give \(CommandOption.script) or \(CommandOption.events) for '\(name: "x")'"
        #expect(message.text { $0 == .script ? "-s" : "-e" } == "give -s or -e for 'x'")
        #expect(message.description == "give <script> or <events> for 'x'")
        // Text next to text is one piece: equal texts are equal messages however they were built.
        #expect(message == "give \(CommandOption.script) or \(CommandOption.events) for 'x'")
        #expect(CommandMessage("a" + "b") == "a\(verbatim: "b")")
        let nested: CommandMessage = "\(CommandOption.trace): \(message)"
        #expect(nested.text { "[\($0)]" } == "[trace]: give [script] or [events] for 'x'")
    }

    @Test func lintReturnsItsReportAndFilesInOrder() throws {
        var options = LintFrontend.Options(paths: [packageRoot + "/flows/broken/dead_end.yaml"])
        options.reports = [ReportDestination(format: .sarif, path: "out.sarif"), ReportDestination(format: .json, path: "-")]
        let outcome = try LintFrontend.run(options)
        #expect(outcome.status == .findings)
        #expect(outcome.errors.isEmpty)
        guard outcome.outputs.count == 3, case .standardOutput(let text) = outcome.outputs[0],
              case .file(let sarifPath, let sarif, nil) = outcome.outputs[1], case .file("-", let json, nil) = outcome.outputs[2] else {
            Issue.record("unexpected outputs: \(outcome.outputs)")
            return
        }
        #expect(text.contains("[dead_end]"))
        #expect(sarifPath == "out.sarif")
        #expect(String(decoding: sarif, as: UTF8.self).contains("\"ruleId\": \"dead_end\""))
        #expect(String(decoding: json, as: UTF8.self).contains("\"rule\": \"dead_end\""))
    }

    @Test func aPathThatCannotBeReadFailsAfterTheReport() throws {
        let outcome = try LintFrontend.run(LintFrontend.Options(paths: [packageRoot + "/flows/transfer.yaml", "/nonexistent/flow.yaml"]))
        #expect(outcome.status == .failure)
        #expect(outcome.errors.map(\.description) == ["/nonexistent/flow.yaml: no such file or directory"])
        #expect(outcome.outputs.count == 1)
    }

    @Test func aBaselineIsAFileWithItsNote() throws {
        var options = LintFrontend.Options(paths: [packageRoot + "/flows/broken/dead_end.yaml"])
        options.writeBaseline = "baseline.json"
        let outcome = try LintFrontend.run(options)
        #expect(outcome.status == .success)
        guard case .file("baseline.json", _, let written?)? = outcome.outputs.last else {
            Issue.record("no baseline file: \(outcome.outputs)")
            return
        }
        #expect(written.description.hasPrefix("wrote baseline.json with "))
    }

    @Test func simulateSaysWhichOptionsAreMissingAsOptions() throws {
        let error = try #require(throws: CommandError.self) {
            try SimulateFrontend.run(SimulateFrontend.Options(input: packageRoot + "/flows/transfer.yaml"))
        }
        #expect(error.isUsage)
        #expect(error.status == .failure)
        let text = try #require(error.messages.first).text { $0 == .script ? "SCRIPT-OPTION" : $0 == .events ? "MOVES-OPTION" : "?" }
        #expect(text.hasSuffix("is a flow: give SCRIPT-OPTION SCRIPT or MOVES-OPTION e1,e2"), "\(text)")
    }

    @Test func aMissedThresholdFailsWithItsErrorsAfterTheReport() throws {
        var options = SimulateFrontend.Options(input: nil)
        options.scripts = [packageRoot + "/flows/scripts/transfer.yaml"]
        options.scenario = "retry after an invalid amount"
        options.minimum = try CoverageThreshold(parsing: "transitions=90")
        options.quiet = true
        let outcome = try SimulateFrontend.run(options)
        #expect(outcome.status == .findings)
        #expect(outcome.errors.count == 1)
        #expect(outcome.errors[0].description.hasPrefix("coverage: transitions of "), "\(outcome.errors)")
        guard case .standardOutput(let text)? = outcome.outputs.first else {
            Issue.record("no report: \(outcome.outputs)")
            return
        }
        #expect(text.contains("passed"))
    }

    @Test func explainRefusesAnUnknownRuleWithASuggestion() throws {
        let error = try #require(throws: CommandError.self) { try ExplainFrontend.explain("dead_ends") }
        #expect(error.isUsage)
        #expect(error.messages.map(\.description) == ["unknown rule 'dead_ends'; did you mean 'dead_end'?; 'flowkit rules' lists them"])
        #expect(try ExplainFrontend.explain("dead_end").outputs.count == 1)
    }
}
