import Foundation
import Testing
import FlowKit

/// `flowkit diff` (docs/format.md, "Flow changes"): output, levels and exit codes.
@Suite("flowkit diff")
struct DiffCommandTests {
    private func pair(_ edit: (String) -> String) throws -> (folder: String, old: String, new: String) {
        let folder = NSTemporaryDirectory() + "flowkit-diff-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let text = try String(contentsOfFile: packageRoot + "/flows/transfer.yaml", encoding: .utf8)
        try text.write(toFile: folder + "/old.yaml", atomically: true, encoding: .utf8)
        try edit(text).write(toFile: folder + "/new.yaml", atomically: true, encoding: .utf8)
        return (folder, folder + "/old.yaml", folder + "/new.yaml")
    }

    @Test func aFlowAndItsTwinHaveNoChanges() throws {
        let result = try flowkit(["diff", "flows/transfer.yaml", "flows/transfer.json", "--fail-on", "warning"])
        #expect(result.status == 0)
        #expect(result.stdout == "no changes\n")
    }

    @Test func aRemovedEntryIsBreakingAndFailsOnlyWhenAsked() throws {
        let files = try pair { $0.replacingOccurrences(of: "  editTariff:\n    step: tariffs", with: "  changeTariff:\n    step: tariffs") }
        defer { try? FileManager.default.removeItem(atPath: files.folder) }
        let plain = try flowkit(["diff", files.old, files.new])
        #expect(plain.status == 0)
        #expect(plain.stdout == """
            \(files.new):40:3: info: entry 'changeTariff' (/transfer/{amount}/tariffs) added [entry_added]
            \(files.old):40:3: breaking: entry 'editTariff' (/transfer/{amount}/tariffs) removed: links in shipped apps stop working [entry_removed]
            2 changes: 1 breaking, 0 warnings, 1 info

            """)
        let failing = try flowkit(["diff", files.old, files.new, "--fail-on", "breaking"])
        #expect(failing.status == 1)
        #expect(failing.stderr == "flowkit: error: 1 change at level breaking or worse\n")
        let json = try flowkit(["diff", "--format", "json", files.old, files.new])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let changes = try #require(object["changes"] as? [[String: Any]])
        #expect(changes.compactMap { $0["check"] as? String } == ["entry_added", "entry_removed"])
        #expect((object["summary"] as? [String: Int]) == ["breaking": 1, "warning": 0, "info": 1])
    }

    @Test func aWarningFailsWithFailOnWarningButNotBreaking() throws {
        let files = try pair { $0.replacingOccurrences(of: "  note: string?", with: "  note: int?") }
        defer { try? FileManager.default.removeItem(atPath: files.folder) }
        #expect(try flowkit(["diff", files.old, files.new, "--fail-on", "breaking"]).status == 0)
        let warning = try flowkit(["diff", files.old, files.new, "--fail-on", "warning"])
        #expect(warning.status == 1)
        #expect(warning.stdout.contains("warning: state key 'note' is now int?, not string? [state_type_changed]"))
    }

    @Test func whatCannotBeComparedExitsTwo() throws {
        let missing = try flowkit(["diff", "flows/transfer.yaml", "nope.yaml"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "flowkit: error: nope.yaml: no such file or directory\n")
        let script = try flowkit(["diff", "flows/transfer.yaml", "flows/scripts/transfer.yaml"])
        #expect(script.status == 2)
        #expect(script.stderr.contains("'flows/scripts/transfer.yaml' is a simulation script, not a flow"))
        let one = try flowkit(["diff", "flows/transfer.yaml"])
        #expect(one.status == 2)
        #expect(one.stderr.contains("give the old and the new flow file (1 given)"))
    }

    @Test func checksListsEveryCheckWithItsLevel() throws {
        let result = try flowkit(["diff", "--checks"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == ChangeCheck.allCases.count)
        #expect(lines.contains { $0.hasPrefix("entry_removed") && $0.contains(" breaking ") })
        #expect(lines.contains { $0.hasPrefix("step_unreachable") && $0.contains(" warning ") })
    }

    @Test func gitComparesEachFlowWithItsVersionAtARevision() throws {
        let folder = NSTemporaryDirectory() + "flowkit-diff-git-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/flows", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func git(_ arguments: [String]) throws {
            let result = try runProcess("/usr/bin/env", ["git", "-c", "user.name=flowkit", "-c", "user.email=flowkit@example.com"] + arguments, in: folder)
            #expect(result.status == 0, "git \(arguments): \(result.stderr)")
        }
        let text = try String(contentsOfFile: packageRoot + "/flows/transfer.yaml", encoding: .utf8)
        try text.write(toFile: folder + "/flows/transfer.yaml", atomically: true, encoding: .utf8)
        try git(["init", "-q"])
        try git(["add", "."])
        try git(["commit", "-q", "-m", "first"])
        try text.replacingOccurrences(of: "  note: string?", with: "  note: int?").write(toFile: folder + "/flows/transfer.yaml", atomically: true, encoding: .utf8)
        try text.write(toFile: folder + "/flows/copy.yaml", atomically: true, encoding: .utf8)
        let result = try flowkit(["diff", "--git", "HEAD", folder + "/flows", "--fail-on", "warning"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout == "\(folder)/flows/transfer.yaml:23:3: warning: state key 'note' is now int?, not string? [state_type_changed]\n1 change: 0 breaking, 1 warning, 0 info\n")
        #expect(result.stderr.contains("'\(folder)/flows/copy.yaml' is not in 'HEAD': a new file, nothing to compare"))
        // The revision's text is read, not the working tree's: after a commit there is nothing to show.
        try git(["commit", "-q", "-am", "second"])
        let clean = try flowkit(["diff", "--git", "HEAD", folder + "/flows/transfer.yaml"])
        #expect(clean.status == 0)
        #expect(clean.stdout == "no changes\n")
        let bad = try flowkit(["diff", "--git", "no-such-revision", folder + "/flows/transfer.yaml"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("at 'no-such-revision': fatal:"), "\(bad.stderr)")
        let option = try flowkit(["diff", "--git=--output=/tmp/x", folder + "/flows/transfer.yaml"])
        #expect(option.status == 2)
        #expect(option.stderr.contains("is not a git revision"))
    }
}
