import Foundation
import Testing

/// `flowkit lint --fix` and `--fix --dry-run` (issue 32; docs/format.md, "Fixes").
@Suite("flowkit lint --fix")
struct FixCommandTests {
    static let flow = """
        # A comment, odd spacing and quoting that the fix must keep.
        flowkit: 1
        flow: transfer
        start: amount
        state: { total: int,   tariff: [economy, business] }
        inputs: [tariff]
        events: { edit: }
        steps:
          amount:
            result: { total: int }
            set: { totl: "result.totl + 1" }    # two typos
            on: { edt: amount }
            next:
              - forward: confirm
                if: "state.tarif == 'economy'"
              - 'confrm'
          confirm: { next: done }
          done: { kind: finish }

        """

    @Test func dryRunPrintsADiffThatGitApplies() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.flow.write(toFile: folder + "/t.yaml", atomically: false, encoding: .utf8)
        let result = try flowkit(["lint", "t.yaml", "--fix", "--dry-run"], in: folder)
        #expect(result.status == 0)
        #expect(result.stderr.contains("would fix 5 findings in 1 file"), "\(result.stderr)")
        // Nothing written.
        #expect(try String(contentsOfFile: folder + "/t.yaml", encoding: .utf8) == Self.flow)
        #expect(result.stdout.hasPrefix("--- a/t.yaml\n+++ b/t.yaml\n@@ "))
        try result.stdout.write(toFile: folder + "/fix.patch", atomically: false, encoding: .utf8)
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        git.arguments = ["apply", "fix.patch"]
        git.currentDirectoryURL = URL(fileURLWithPath: folder)
        try git.run()
        git.waitUntilExit()
        #expect(git.terminationStatus == 0)
        let clean = try flowkit(["lint", "t.yaml"], in: folder)
        #expect(clean.status == 0, "\(clean.stdout)")
    }

    @Test func fixWritesOnlyTheNamesAndReportsWhatIsLeft() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.flow.write(toFile: folder + "/t.yaml", atomically: false, encoding: .utf8)
        let result = try flowkit(["lint", "t.yaml", "--fix"], in: folder)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout == "1 file checked: no findings\n")
        #expect(result.stderr.contains("fixed 5 findings in 1 file"))
        let expected = Self.flow.replacingOccurrences(of: "totl", with: "total").replacingOccurrences(of: "edt:", with: "edit:")
            .replacingOccurrences(of: "state.tarif ", with: "state.tariff ").replacingOccurrences(of: "'confrm'", with: "'confirm'")
        #expect(try String(contentsOfFile: folder + "/t.yaml", encoding: .utf8) == expected)
        // Nothing left to fix: a second run changes nothing.
        let again = try flowkit(["lint", "t.yaml", "--fix"], in: folder)
        #expect(again.status == 0 && !again.stderr.contains("fixed"))
    }

    @Test func aFileBehindASymbolicLinkIsLeftAlone() throws {
        let folder = try temporaryFolder()
        let outside = try temporaryFolder()
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try Self.flow.write(toFile: outside + "/t.yaml", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/t.yaml", withDestinationPath: outside + "/t.yaml")
        // (A directory walk does not follow links: the link is named.)
        let result = try flowkit(["lint", "t.yaml", "--fix"], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.contains("left alone, a symbolic link on the way"), "\(result.stderr)")
        #expect(try String(contentsOfFile: outside + "/t.yaml", encoding: .utf8) == Self.flow)
    }

    @Test func sarifCarriesTheFixes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.flow.write(toFile: folder + "/t.yaml", atomically: false, encoding: .utf8)
        let result = try flowkit(["lint", "t.yaml", "--format", "sarif"], in: folder)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try #require(((log["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        let fixes = results.compactMap { ($0["fixes"] as? [[String: Any]])?.first }
        #expect(fixes.count == 5)
        let event = try #require(fixes.first { ($0["description"] as? [String: Any])?["text"] as? String == "replace 'edt' with 'edit'" })
        let replacement = try #require((((event["artifactChanges"] as? [[String: Any]])?.first?["replacements"]) as? [[String: Any]])?.first)
        let region = try #require(replacement["deletedRegion"] as? [String: Int])
        #expect(region == ["startLine": 12, "startColumn": 11, "endLine": 12, "endColumn": 14])
        #expect((replacement["insertedContent"] as? [String: String])?["text"] == "edit")
    }

    @Test func theSharedStepWrittenUnquotedIsQuoted() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let flow = "flowkit: 1\nflow: x\nstart: a\nsteps:\n  *:\n    next: a\n  a: { next: done }\n  done: { kind: finish }\n"
        try flow.write(toFile: folder + "/star.yaml", atomically: false, encoding: .utf8)
        let result = try flowkit(["lint", folder + "/star.yaml", "--fix"], in: folder)
        #expect(result.stderr.contains("fixed 1 finding in 1 file"), "\(result.stderr)")
        #expect(try String(contentsOfFile: folder + "/star.yaml", encoding: .utf8) == flow.replacingOccurrences(of: "  *:", with: "  \"*\":"))
    }

    @Test func dryRunNeedsFix() throws {
        let result = try flowkit(["lint", "flows", "--dry-run"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--dry-run goes with --fix"))
    }
}
