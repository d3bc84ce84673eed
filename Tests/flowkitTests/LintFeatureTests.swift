import Foundation
import Testing

@Suite("flowkit lint: configuration, baselines, nested flows, reports")
struct LintFeatureTests {
    static let parent = """
        flowkit: 1
        flow: parent
        start: pay
        events: { paid: }
        steps:
          pay: { kind: flow, flow: sub/payment.yaml, on: { paid: done } }
          done: { kind: finish }
        """
    static let payment = """
        flowkit: 1
        flow: payment
        start: card
        events: { decline: }
        steps:
          card: { on: { decline: declined }, next: ok }
          ok: { kind: finish, outcome: paid }
          declined: { kind: finish }
          orphan: { next: ok }
        """

    @Test func nestedFlowsAreFollowedAndReportedInTheirOwnFiles() throws {
        let path = try folder(with: ["parent.yaml": Self.parent])
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.createDirectory(atPath: path + "/sub", withIntermediateDirectories: true)
        try Self.payment.write(toFile: path + "/sub/payment.yaml", atomically: true, encoding: .utf8)
        let result = try flowkit(["lint", path + "/parent.yaml"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("parent.yaml:6:3: error: nested flow 'sub/payment.yaml' can finish with outcome 'declined', which step 'pay' neither handles nor covers with 'next' [unhandled_outcome]"))
        #expect(result.stdout.contains("sub/payment.yaml:9:3: error: step 'orphan' is not reachable from 'card' [unreachable_step]"))
        #expect(result.stdout.hasSuffix("2 files checked: 2 errors\n"), "the nested flow is checked once: \(result.stdout)")
    }

    @Test func missingOutsideAndCyclicNestedFlows() throws {
        let path = try folder(with: [
            "a.yaml": "flowkit: 1\nflow: a\nstart: s\nsteps:\n  s: { kind: flow, flow: b.yaml, next: e }\n  e: { kind: finish }\n",
            "b.yaml": "flowkit: 1\nflow: b\nstart: s\nsteps:\n  s: { kind: flow, flow: a.yaml, next: e }\n  e: { kind: finish }\n",
            "c.yaml": "flowkit: 1\nflow: c\nstart: s\nsteps:\n  s: { kind: flow, flow: nope.yaml, next: t }\n  t: { kind: flow, flow: ../outside.yaml, next: e }\n  e: { kind: finish }\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "flowkit: 1\nflow: o\nstart: e\nsteps:\n  e: { kind: finish }\n".write(toFile: path + "/../outside.yaml", atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path + "/../outside.yaml") }
        let result = try flowkit(["lint", path])
        #expect(result.stdout.contains("a.yaml:5:26: error: flows nest each other in a cycle: a.yaml -> b.yaml -> a.yaml [subflow_cycle]"))
        #expect(result.stdout.contains("b.yaml:5:26: error: flows nest each other in a cycle: b.yaml -> a.yaml -> b.yaml [subflow_cycle]"))
        #expect(result.stdout.contains("c.yaml:5:26: error: nested flow 'nope.yaml' does not exist [subflow_missing]"))
        #expect(result.stdout.contains("c.yaml:6:26: error: nested flow '../outside.yaml' is outside the directories being checked (give --allow-outside to read it) [subflow_missing]"))
        let allowed = try flowkit(["lint", "--allow-outside", path + "/c.yaml"])
        #expect(!allowed.stdout.contains("outside.yaml' is outside"), "\(allowed.stdout)")
    }

    @Test func configurationDisablesRulesChangesSeveritiesAndFiltersFiles() throws {
        let path = try folder(with: [
            ".flowkit.yml": "disabled: [unreachable_step]\nseverity: { unused_event: error }\nexclude: [\"skip/**\"]\n",
            "f.yaml": "flowkit: 1\nflow: f\nstart: a\nevents: { never: }\nsteps:\n  a: { next: done }\n  orphan: { next: done }\n  done: { kind: finish }\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.createDirectory(atPath: path + "/skip", withIntermediateDirectories: true)
        try "not: [valid".write(toFile: path + "/skip/broken.yaml", atomically: true, encoding: .utf8)
        let result = try flowkit(["lint", path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("f.yaml:4:11: error: event 'never' is declared but no step handles it [unused_event]"))
        #expect(!result.stdout.contains("unreachable_step"))
        #expect(result.stdout.hasSuffix("1 file checked: 1 error\n"), "skip/ is excluded: \(result.stdout)")

        try "disabled: [unreachable_stepp]\n".write(toFile: path + "/.flowkit.yml", atomically: true, encoding: .utf8)
        let bad = try flowkit(["lint", path + "/f.yaml"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains(".flowkit.yml:1:12: unknown rule 'unreachable_stepp'; did you mean 'unreachable_step'?"))

        let named = try flowkit(["lint", "--config", path + "/missing.yml", path + "/f.yaml"])
        #expect(named.status == 2)
    }

    @Test func baselineHidesRecordedFindingsButNotNewOnes() throws {
        let path = try folder(with: [
            "f.yaml": "flowkit: 1\nflow: f\nstart: a\nsteps:\n  a: { next: done }\n  orphan: { next: done }\n  done: { kind: finish }\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let write = try flowkit(["lint", path + "/f.yaml", "--write-baseline", path + "/baseline.json"])
        #expect(write.status == 0)
        #expect(write.stderr.contains("with 1 finding"))
        let clean = try flowkit(["lint", path + "/f.yaml", "--baseline", path + "/baseline.json"])
        #expect(clean.status == 0, "\(clean.stdout)")
        #expect(clean.stderr.contains("1 finding hidden by the baseline"))
        try "flowkit: 1\nflow: f\nstart: a\nsteps:\n  a: { next: done }\n\n  orphan: { next: done }\n  other: { next: done }\n  done: { kind: finish }\n"
            .write(toFile: path + "/f.yaml", atomically: true, encoding: .utf8)
        let newFinding = try flowkit(["lint", path + "/f.yaml", "--baseline", path + "/baseline.json"])
        #expect(newFinding.status == 1)
        #expect(newFinding.stdout.contains("step 'other' is not reachable"))
        #expect(!newFinding.stdout.contains("step 'orphan'"), "the recorded finding moved a line down and still matches")
        try "{}".write(toFile: path + "/bad.json", atomically: true, encoding: .utf8)
        #expect(try flowkit(["lint", path + "/f.yaml", "--baseline", path + "/bad.json"]).status == 2)
    }

    @Test func anUnrelatedStepThatChangesAWitnessPathKeepsTheBaselineAndFingerprints() throws {
        let before = "flowkit: 1\nflow: f\nstart: a\nstate: { k: int }\nsteps:\n  a: { next: c }\n"
            + "  c: { next: { forward: done, set: { k: \"state.k + 1\" } } }\n  done: { kind: finish }\n"
        let path = try folder(with: ["f.yaml": before])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try flowkit(["lint", path + "/f.yaml", "--format", "sarif"])
        #expect(first.stdout.contains("(not on the path 'a' -> 'c')"), "\(first.stdout)")
        #expect(try flowkit(["lint", path + "/f.yaml", "--write-baseline", path + "/baseline.json"]).status == 0)
        #expect(try String(contentsOfFile: path + "/baseline.json", encoding: .utf8).contains("\"subject\": \"k\""))

        let after = "flowkit: 1\nflow: f\nstart: a\nstate: { k: int }\nsteps:\n  a: { next: b }\n  b: { next: c }\n"
            + "  c: { next: { forward: done, set: { k: \"state.k + 1\" } } }\n  done: { kind: finish }\n"
        try after.write(toFile: path + "/f.yaml", atomically: true, encoding: .utf8)
        let strict = try flowkit(["lint", path + "/f.yaml", "--baseline", path + "/baseline.json", "--strict"])
        #expect(strict.status == 0, "\(strict.stdout)")
        #expect(strict.stderr.contains("1 finding hidden by the baseline"))
        let second = try flowkit(["lint", path + "/f.yaml", "--format", "sarif"])
        #expect(second.stdout.contains("(not on the path 'a' -> 'b' -> 'c')"), "\(second.stdout)")
        func fingerprints(_ sarif: String) throws -> [String] {
            let log = try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any]
            let results = ((log?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
            return results.compactMap { ($0["partialFingerprints"] as? [String: String])?["flowkitFindingHash/v2"] }
        }
        #expect(try fingerprints(first.stdout).count == 1)
        #expect(try fingerprints(second.stdout) == fingerprints(first.stdout))
    }

    @Test func directoryWalksDoNotFollowLinksOutOfTheTree() throws {
        let path = try folder(with: [:])
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.createDirectory(atPath: path + "/tree", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: path + "/outside", withIntermediateDirectories: true)
        try "flowkit: 1\nflow: s\nstart: a\nevents: { secret: }\nsteps:\n  a: { kind: finish }\n".write(toFile: path + "/outside/s.yaml", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path + "/tree/link.yaml", withDestinationPath: "../outside/s.yaml")
        try FileManager.default.createSymbolicLink(atPath: path + "/tree/dangling.yaml", withDestinationPath: "nowhere.yaml")
        let result = try flowkit(["lint", path + "/tree"])
        #expect(result.status == 2, "links out of the tree are not followed, so the tree has no flow files")
        #expect(result.stderr == "flowkit: error: \(path)/tree: no flow files found\n")
        #expect(result.stdout == "0 files checked: no findings; 1 problem fails the run\n")
        let allowed = try flowkit(["lint", "--allow-outside", path + "/tree"])
        #expect(allowed.stdout.contains("event 'secret' is declared but no step handles it"))
    }

    @Test func baselinesMatchHoweverTheFileIsSpelledAndAreNotWrittenOnFailure() throws {
        let path = try folder(with: ["f.yaml": "flowkit: 1\nflow: f\nstart: a\nsteps:\n  a: { next: done }\n  orphan: { next: done }\n  done: { kind: finish }\n"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try flowkit(["lint", path + "/f.yaml", "--write-baseline", path + "/b.json"]).status == 0)
        let spelled = try flowkit(["lint", path + "/./f.yaml", "--baseline", path + "/b.json"])
        #expect(spelled.status == 0, "\(spelled.stdout)")
        let failed = try flowkit(["lint", path + "/f.yaml", path + "/nope.yaml", "--write-baseline", path + "/c.json"])
        #expect(failed.status == 2)
        #expect(!FileManager.default.fileExists(atPath: path + "/c.json"))
        try "# nothing configured yet\n".write(toFile: path + "/.flowkit.yml", atomically: true, encoding: .utf8)
        #expect(try flowkit(["lint", path + "/f.yaml"]).status == 1, "an empty configuration is the default one")
    }

    @Test func reportsGoToFilesAsWell() throws {
        let path = try folder(with: [:])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try flowkit(["lint", "flows/broken/dead_end.yaml", "--report", "json:\(path)/out.json"])
        #expect(result.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path + "/out.json"))) as? [String: Any]
        #expect((object?["summary"] as? [String: Int])?["errors"] == 1)
        let bad = try flowkit(["lint", "flows/transfer.yaml", "--report", "xml"])
        #expect(bad.status == 2)
    }

    @Test func manyFilesKeepADeterministicOrder() throws {
        var files: [String: String] = [:]
        for i in 0..<40 { files["f\(String(format: "%02d", i)).yaml"] = "flowkit: 1\nflow: f\(i)\nstart: a\nsteps:\n  a: { next: b }\n  b: { title: B }\n" }
        let path = try folder(with: files)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try flowkit(["lint", path])
        let second = try flowkit(["lint", path])
        #expect(first.stdout == second.stdout)
        let lines = first.stdout.split(separator: "\n").dropLast()
        #expect(lines.count == 40)
        #expect(lines.map(String.init) == lines.map(String.init).sorted())
    }
}
