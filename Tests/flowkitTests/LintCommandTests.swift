import FlowKit
import Foundation
import Testing

/// The sample flows that must lint clean.
let sampleFlows: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/flows")) ?? []
    return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted().map { "flows/" + $0 }
}()

/// The broken flows: each is named for the rule it shows (other files there are fixtures they use).
let brokenFlows: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/flows/broken")) ?? []
    return names.filter { Linter.rule(RuleID(rawValue: ($0 as NSString).deletingPathExtension)) != nil }.sorted().map { "flows/broken/" + $0 }
}()

@Suite("flowkit lint")
struct LintCommandTests {
    @Test func thereAreSamplesForEverySeed() {
        #expect(sampleFlows.count >= 6)
        #expect(sampleFlows.contains("flows/transfer.yaml"))
        #expect(sampleFlows.contains("flows/transfer.json"))
    }

    @Test(arguments: sampleFlows)
    func sampleLintsClean(_ path: String) throws {
        let result = try flowkit(["lint", "--strict", path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix(" checked: no findings\n"), "nested flows it names are checked too")
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: brokenFlows)
    func brokenFlowShowsItsRule(_ path: String) throws {
        let rule = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let result = try flowkit(["lint", path])
        #expect(result.stdout.contains("[\(rule)]"), "\(result.stdout)")
        let expectedStatus: Int32 = Linter.rule(RuleID(rawValue: rule))?.description.severity == .error ? 1 : 0
        #expect(result.status == expectedStatus)
    }

    @Test func everyRuleHasABrokenFlow() {
        for rule in Linter.rules.map({ $0.description.identifier }) {
            #expect(brokenFlows.contains { $0.hasPrefix("flows/broken/\(rule).") }, "no flows/broken/ file shows '\(rule)'")
        }
    }

    @Test func brokenDirectoryTextOutput() throws {
        let result = try flowkit(["lint", "flows/broken"])
        #expect(result.status == 1)
        try expectGolden(result.stdout, "lint-broken.txt")
    }

    @Test func brokenDirectoryJSONOutput() throws {
        let result = try flowkit(["lint", "flows/broken", "--format", "json"])
        #expect(result.status == 1)
        try expectGolden(result.stdout, "lint-broken.json")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let diagnostics = try #require(object?["diagnostics"] as? [[String: Any]])
        let summary = try #require(object?["summary"] as? [String: Int])
        let files = try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/flows/broken").count
        #expect(summary["files"] == files)
        #expect(summary["errors"] == diagnostics.filter { $0["severity"] as? String == "error" }.count)
        for diagnostic in diagnostics {
            #expect(Set(diagnostic.keys).isSubset(of: ["file", "line", "column", "severity", "rule", "step", "subject", "message"]))
            #expect(diagnostic["line"] is Int && diagnostic["column"] is Int && diagnostic["message"] is String)
        }
    }

    @Test func cleanJSONOutputHasTheDesignShape() throws {
        let result = try flowkit(["lint", "flows/transfer.json", "--format", "json"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect((object?["diagnostics"] as? [Any])?.isEmpty == true)
        #expect(object?["summary"] as? [String: Int] == ["files": 1, "errors": 0, "warnings": 0, "notes": 0])
    }

    @Test func directoriesAreSearchedRecursively() throws {
        let result = try flowkit(["lint", "flows/"])
        #expect(result.status == 1)
        var count = 0
        let enumerator = FileManager.default.enumerator(atPath: packageRoot + "/flows")
        while let name = enumerator?.nextObject() as? String {
            if ["json", "yaml", "yml"].contains((name as NSString).pathExtension) { count += 1 }
        }
        #expect(result.stdout.split(separator: "\n").last?.hasPrefix("\(count) files checked: ") == true, "\(result.stdout.suffix(200))")
    }

    @Test func strictFailsOnWarnings() throws {
        #expect(try flowkit(["lint", "flows/broken/unused_event.yaml"]).status == 0)
        #expect(try flowkit(["lint", "--strict", "flows/broken/unused_event.yaml"]).status == 1)
    }

    @Test func missingFileExitsTwoAndStillLintsTheRest() throws {
        let result = try flowkit(["lint", "flows/nope.yaml", "flows/transfer.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr == "flowkit: error: flows/nope.yaml: no such file or directory\n")
        // The summary says the lint is incomplete, so that it never reads as a clean lint.
        #expect(result.stdout == "1 file checked: no findings; 1 problem fails the run\n")
        let alone = try flowkit(["lint", "flows/nope.yaml", "flows/none.json"])
        #expect(alone.status == 2)
        #expect(alone.stdout == "0 files checked: no findings; 2 problems fail the run\n")
    }

    @Test func anEmptyDirectoryNamedLikeAFileIsAnError() throws {
        let directory = NSTemporaryDirectory() + "/flowkit-dir-\(UUID().uuidString).yaml"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try flowkit(["lint", directory])
        #expect(result.status == 2, "a directory named like a file is searched, and it has no flow files")
        #expect(result.stderr == "flowkit: error: \(directory): no flow files found\n")
        #expect(result.stdout == "0 files checked: no findings; 1 problem fails the run\n")
    }

    @Test func badArgumentsExitTwo() throws {
        let noPaths = try flowkit(["lint"])
        #expect(noPaths.status == 2)
        #expect(noPaths.stderr.contains("Missing expected argument"))
        let badFormat = try flowkit(["lint", "--format", "xml", "flows/transfer.yaml"])
        #expect(badFormat.status == 2)
        #expect(badFormat.stderr.contains("xml"))
        let badFlag = try flowkit(["lint", "--bogus", "flows/transfer.yaml"])
        #expect(badFlag.status == 2)
    }

    @Test func colourOnlyWhenAskedOrOnATerminal() throws {
        let plain = try flowkit(["lint", "flows/broken/dead_end.yaml"])
        #expect(!plain.stdout.contains("\u{1B}["))
        let forced = try flowkit(["lint", "--color", "always", "flows/broken/dead_end.yaml"])
        #expect(forced.stdout.contains("\u{1B}[1;31merror:\u{1B}[0m"))
        let never = try flowkit(["lint", "--color", "never", "flows/broken/dead_end.yaml"], environment: ["NO_COLOR": ""])
        #expect(!never.stdout.contains("\u{1B}["))
    }

    @Test func textFormatIsFileLineColumnSeverityMessageRule() throws {
        let result = try flowkit(["lint", "flows/broken/undefined_step.yaml"])
        #expect(result.stdout == """
            flows/broken/undefined_step.yaml:14:27: error: step 'tarifs' is not defined; did you mean 'tariffs'? [undefined_step]
            1 file checked: 1 error

            """)
    }

    @Test func scriptsAreCheckedAgainstTheirFlow() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("flowkit-scripts-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/transfer.yaml", toPath: folder + "/transfer.yaml")
        try """
            flowkit-script: 1
            flow: transfer.yaml
            scenarios:
              - name: renamed things
                start: { entry: editTarif }
                steps:
                  - amount: { result: { amount: 50 } }
                  - tarifs: { event: confirmationContinu }
                expect:
                  outcome: finished
                  state: { amout: 1 }
            """.write(toFile: folder + "/s.yaml", atomically: true, encoding: .utf8)
        let result = try flowkit(["lint", folder + "/s.yaml"])
        #expect(result.status == 1)
        let expected = [
            "s.yaml:5:21: error: entry 'editTarif' is not in the flow; did you mean 'editTariff'? [script]",
            "s.yaml:8:9: error: step 'tarifs' is not in the flow; did you mean 'tariffs'? [script]",
            "s.yaml:8:26: error: event 'confirmationContinu' is not declared in the flow; did you mean 'confirmationContinue'? [script]",
            "s.yaml:10:16: error: outcome 'finished' is not an outcome of the flow; did you mean 'finish'? [script]",
            "s.yaml:11:16: error: state key 'amout' is not declared in the flow; did you mean 'amount'? [script]",
        ]
        for line in expected { #expect(result.stdout.contains(folder + "/" + line), "missing: \(line)\n\(result.stdout)") }
        try "flowkit-script: 1\nflow: nowhere.yaml\nscenarios: []\n".write(toFile: folder + "/t.yaml", atomically: true, encoding: .utf8)
        let missing = try flowkit(["lint", folder + "/t.yaml"])
        #expect(missing.stdout.contains("t.yaml:2:7: error: the script's flow 'nowhere.yaml' cannot be read"))
    }

    @Test func theSampleScriptsLintClean() throws {
        let result = try flowkit(["lint", "--strict", "flows/scripts"])
        #expect(result.status == 0, "\(result.stdout)")
    }
}

@Suite("flowkit rules, explain, schema, --version")
struct OtherCommandTests {
    @Test func rulesListsEveryRule() throws {
        let result = try flowkit(["rules"])
        #expect(result.status == 0)
        for rule in ["syntax", "schema", "duplicate_key", "undefined_step", "undeclared_event", "unused_event",
                     "unreachable_step", "dead_end", "cannot_finish", "finish_has_transitions", "expression", "script"] {
            #expect(result.stdout.contains("\(rule) "), "\(rule) missing")
        }
        try expectGolden(result.stdout, "rules.txt")
    }

    @Test func readmeHasTheGeneratedRuleTable() throws {
        let table = try flowkit(["rules", "--format", "markdown"]).stdout
        let readme = try String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)
        #expect(readme.contains(table), "README.md's rule table is out of date: paste `flowkit rules --format markdown`")
    }

    @Test func explainPrintsTheDescriptionAndExamples() throws {
        let result = try flowkit(["explain", "cannot_finish"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("cannot_finish: Cannot finish (error)\n"))
        #expect(result.stdout.contains("Triggers on:"))
        #expect(result.stdout.contains("Does not trigger on:"))
        #expect(!result.stdout.contains("↓"))
    }

    @Test func explainUnknownRuleSuggests() throws {
        let result = try flowkit(["explain", "dead_ends"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown rule 'dead_ends'; did you mean 'dead_end'?"))
    }

    @Test func version() throws {
        let result = try flowkit(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
    }

    @Test func helpHasExamples() throws {
        for command in [["--help"], ["lint", "--help"], ["rules", "--help"], ["explain", "--help"], ["schema", "--help"]] {
            let result = try flowkit(command)
            #expect(result.status == 0)
            #expect(result.stdout.contains("Examples:") || result.stdout.contains("flowkit "), "\(command)")
        }
    }
}
