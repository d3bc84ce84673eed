import FlowKit
@testable import FlowKitTool
import Foundation
import Testing

/// `flowkit simulate --coverage …` and `flowkit coverage merge` (docs/format.md, "Coverage").
@Suite("flowkit coverage")
struct CoverageCommandTests {
    @Test func simulatePrintsTheCoverageAfterTheRuns() throws {
        let result = try flowkit(["simulate", "--quiet", "--script", "flows/scripts/transfer.yaml", "--coverage"])
        #expect(result.status == 0, "\(result.stderr)")
        // The "*" error handler counts once among the transitions (taken at one step), and per step as star-steps.
        #expect(result.stdout.contains("4 passed, 0 failed\n\ncoverage of flows/transfer.yaml\n  steps           7/7  100.0%\n  transitions   10/10  100.0%\n  star-steps      1/6   16.7%\n"), "\(result.stdout)")
        #expect(result.stdout.contains("flows/transfer.yaml:48:14: * --on error--> alert at amount never taken\n"))
    }

    @Test func besideAJSONReportTheTableGoesToStandardError() throws {
        let result = try flowkit(["simulate", "--format", "json", "--script", "flows/scripts/transfer.yaml", "--coverage"])
        #expect(result.status == 0)
        #expect((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) != nil, "standard output is the JSON report alone")
        #expect(result.stderr.hasPrefix("coverage of flows/transfer.yaml\n"))
    }

    @Test func aThresholdFailsTheRunNamingWhatIsMissing() throws {
        let retry = "retry after an invalid amount"
        let below = try flowkit(["simulate", "--quiet", "--script", "flows/scripts/transfer.yaml", "--scenario", retry, "--min-coverage", "transitions=90,steps=80"])
        #expect(below.status == 1)
        #expect(below.stderr == "flowkit: error: coverage: transitions of flows/transfer.yaml are 60.0%, below 90.0%: 4 not covered\n", "\(below.stderr)")
        let above = try flowkit(["simulate", "--quiet", "--script", "flows/scripts/transfer.yaml", "--scenario", retry, "--min-coverage", "transitions=60,steps=80"])
        #expect(above.status == 0, "\(above.stderr)")
        let wrong = try flowkit(["simulate", "--script", "flows/scripts/transfer.yaml", "--min-coverage", "transitons=90"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("'--min-coverage <kind=percent,...>': 'transitons' is not a kind of coverage item; did you mean 'transitions'?"), "\(wrong.stderr)")
    }

    @Test func shardsMergeToWhatOneRunCounts() throws {
        let path = try folder(with: [:])
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Two shards: each scenario of the transfer script on its own, against all of them at once.
        let scenarios = ["retry after an invalid amount", "edit the amount and the tariff from the confirmation",
                         "an error shows the alert, which returns to the step that raised it",
                         "the editTariff deep link starts at the tariffs with the amount from the path"]
        var shards: [String] = []
        for (index, scenario) in scenarios.enumerated() {
            let shard = path + "/shard\(index).json"
            let result = try flowkit(["simulate", "--quiet", "--script", "flows/scripts/transfer.yaml", "--scenario", scenario,
                                      "--coverage-report", "json:" + shard])
            #expect(result.status == 0, "\(result.stderr)")
            shards.append(shard)
        }
        #expect(try flowkit(["simulate", "--quiet", "--script", "flows/scripts/transfer.yaml", "--coverage-report", "json:" + path + "/all.json",
                             "--coverage-report", "lcov:" + path + "/all.lcov"]).status == 0)
        let merged = try flowkit(["coverage", "merge", "--quiet"] + shards + ["-o", path + "/merged.json", "--report", "lcov:" + path + "/merged.lcov"])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try String(contentsOfFile: path + "/merged.json", encoding: .utf8) == String(contentsOfFile: path + "/all.json", encoding: .utf8))
        #expect(try String(contentsOfFile: path + "/merged.lcov", encoding: .utf8) == String(contentsOfFile: path + "/all.lcov", encoding: .utf8))
        let threshold = try flowkit(["coverage", "merge", "--quiet", shards[0], "--min-coverage", "transitions=100"])
        #expect(threshold.status == 1)
        #expect(threshold.stderr.hasPrefix("flowkit: error: coverage: transitions of flows/transfer.yaml are 60.0%, below 100.0%"), "\(threshold.stderr)")
    }

    /// Hostile coverage files (issue 29): counts no run writes are refused with the file named, and counts that
    /// would overflow a sum saturate; neither traps.
    @Test func hostileCountsAreRefusedOrSaturateNeverTrap() throws {
        let path = try folder(with: [:])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let shard = path + "/shard.json"
        #expect(try flowkit(["simulate", "--quiet", "--script", "flows/scripts/transfer.yaml", "--coverage-report", "json:" + shard]).status == 0)
        let text = try String(contentsOfFile: shard, encoding: .utf8)
        guard let hits = text.range(of: #""hits" *: *[0-9]+"#, options: .regularExpression) else {
            Issue.record("no hits in \(text.prefix(200))")
            return
        }
        for (name, value) in [("negative", "-5"), ("huge", "9223372036854775807")] {
            try text.replacingCharacters(in: hits, with: "\"hits\": \(value)").write(toFile: path + "/\(name).json", atomically: true, encoding: .utf8)
        }
        let negative = try flowkit(["coverage", "merge", "--quiet", path + "/negative.json", "-o", path + "/out.json"])
        #expect(negative.status == 2, "\(negative.stderr)")
        #expect(negative.stderr.contains("has a count or position no run writes (hits -5"), "\(negative.stderr)")
        let huge = try flowkit(["coverage", "merge", "--quiet", path + "/huge.json", path + "/huge.json", shard, "-o", path + "/out.json",
                                "--report", "lcov:" + path + "/out.lcov"])
        #expect(huge.status == 0, "\(huge.stderr)")
        #expect(try String(contentsOfFile: path + "/out.json", encoding: .utf8).contains("9223372036854775807"))
    }

    @Test func severalScriptsInOneRunCountWhatTheirRunsApartMerge() throws {
        let path = try folder(with: [:])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let scripts = ["flows/scripts/transfer.yaml", "flows/scripts/booking.yaml", "flows/scripts/transfer.yaml"]
        var apart: [String] = []
        for (index, script) in scripts.enumerated() {
            let json = path + "/apart\(index).json"
            #expect(try flowkit(["simulate", "--quiet", "--script", script, "--coverage-report", "json:" + json]).status == 0)
            apart.append(json)
        }
        let together = try flowkit(["simulate", "--quiet", "--script"] + scripts + ["--coverage-report", "json:" + path + "/together.json"])
        #expect(together.status == 0, "\(together.stderr)")
        #expect(together.stdout.hasPrefix("script 'flows/scripts/transfer.yaml' on 'flows/transfer.yaml'\n"))
        #expect(together.stdout.contains("\nscript 'flows/scripts/booking.yaml' on 'flows/booking.json'\n"))
        #expect(together.stdout.hasSuffix("15 passed, 0 failed\n"))
        #expect(try flowkit(["coverage", "merge", "--quiet"] + apart + ["-o", path + "/merged.json"]).status == 0)
        #expect(try String(contentsOfFile: path + "/together.json", encoding: .utf8) == String(contentsOfFile: path + "/merged.json", encoding: .utf8))
        // Repeating --script is the same as listing the scripts after one.
        let repeated = try flowkit(["simulate", "--quiet", "--script", scripts[0], "--script", scripts[1], "--script", scripts[2],
                                    "--coverage-report", "json:" + path + "/repeated.json"])
        #expect(repeated.stdout == together.stdout)
        #expect(try String(contentsOfFile: path + "/repeated.json", encoding: .utf8) == String(contentsOfFile: path + "/together.json", encoding: .utf8))
        // JUnit: a test suite per script; JSON: each scenario names its script.
        let junit = try flowkit(["simulate", "--format", "junit", "--script"] + scripts)
        #expect(junit.stdout.components(separatedBy: "<testsuite ").count - 1 == 3)
        #expect(junit.stdout.contains("<testsuites name=\"flowkit simulate\" tests=\"15\" failures=\"0\""))
        let json = try flowkit(["simulate", "--format", "json", "--script"] + scripts)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let listed = try #require(object["scenarios"] as? [[String: Any]])
        #expect(listed.compactMap { $0["script"] as? String } == Array(repeating: scripts[0], count: 4) + Array(repeating: scripts[1], count: 7)
                + Array(repeating: scripts[2], count: 4))
    }

    @Test func mergeRefusesWhatItCannotAddUp() throws {
        let path = try folder(with: ["not.json": "{\"scenarios\": []}"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let missing = try flowkit(["coverage", "merge", path + "/none.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "flowkit: error: \(path)/none.json: no such file or directory\n")
        let wrong = try flowkit(["coverage", "merge", path + "/not.json"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr == "flowkit: error: '\(path)/not.json' is not coverage written by 'flowkit simulate --coverage-report json:PATH'\n")
    }

    @Test func renderDrawsCoverageOnTheDiagram() throws {
        let path = try folder(with: [:])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let scenario = "an error shows the alert, which returns to the step that raised it"
        #expect(try flowkit(["simulate", "--quiet", "--script", "flows/scripts/transfer.yaml", "--scenario", scenario,
                             "--coverage-report", "json:" + path + "/one.json"]).status == 0)
        let dot = try flowkit(["render", "--dot", "flows/transfer.yaml", "--coverage", path + "/one.json", "-o", "-"])
        #expect(dot.status == 0, "\(dot.stderr)")
        #expect(dot.stdout.contains("coverage: steps 6/7, transitions 6/10 (60.0%), events 0/1, outcomes 1/1, entries 0/1"), "\(dot.stdout)")
        #expect(dot.stdout.contains("on invalidAmount\\nnever taken"), "an edge never taken says so")
        #expect(dot.stdout.contains("on error\\n×1 at 1 of 6 steps"), "a \"*\" option says at how many of its steps it was taken")
        #expect(dot.stdout.contains("color=\"#c0392b\""), "red for what was never taken")
        let mermaid = try flowkit(["render", "--mermaid", "flows/transfer.yaml", "--coverage", path + "/one.json", "-o", "-"])
        #expect(mermaid.stdout.contains("n0 --> n1 : on invalidAmount ✗ never taken"))
        #expect(mermaid.stdout.contains("class n1 nevershown"))
        let other = try flowkit(["render", "--dot", "flows/booking.json", "--coverage", path + "/one.json", "-o", "-"])
        #expect(other.status == 2)
        #expect(other.stderr.contains("has no coverage of 'flows/booking.json'"))
    }
}
