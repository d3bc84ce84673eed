import Foundation
import Testing
import FlowKit
@testable import FlowKitTool

/// `flowkit diff` (docs/format.md, "Flow changes"): output, levels and exit codes.
@Suite("flowkit diff")
struct DiffCommandTests {
    /// Runs git with a committer in `directory`; it must succeed.
    private func git(_ arguments: [String], in directory: String) throws {
        let result = try runProcess("/usr/bin/env", ["git", "-c", "user.name=flowkit", "-c", "user.email=flowkit@example.com"] + arguments, in: directory)
        #expect(result.status == 0, "git \(arguments): \(result.stderr)")
    }

    /// A temporary repository holding the booking flow, its nested sign-in and its script under `flows/`, committed.
    private func bookingRepository(_ name: String) throws -> String {
        let folder = NSTemporaryDirectory() + "flowkit-\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/flows/nested", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/flows/scripts", withIntermediateDirectories: true)
        for file in ["booking.json", "nested/sign-in.yaml", "scripts/booking.yaml"] {
            try FileManager.default.copyItem(atPath: packageRoot + "/flows/" + file, toPath: folder + "/flows/" + file)
        }
        try git(["init", "-q"], in: folder)
        try git(["add", "."], in: folder)
        try git(["commit", "-q", "-m", "first"], in: folder)
        return folder
    }

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
        func git(_ arguments: [String]) throws { try self.git(arguments, in: folder) }
        let text = try String(contentsOfFile: packageRoot + "/flows/transfer.yaml", encoding: .utf8)
        try text.write(toFile: folder + "/flows/transfer.yaml", atomically: true, encoding: .utf8)
        try git(["init", "-q"])
        try git(["add", "."])
        try git(["commit", "-q", "-m", "first"])
        try text.replacingOccurrences(of: "  note: string?", with: "  note: int?").write(toFile: folder + "/flows/transfer.yaml", atomically: true, encoding: .utf8)
        try text.write(toFile: folder + "/flows/copy.yaml", atomically: true, encoding: .utf8)
        let result = try flowkit(["diff", "--git", "HEAD", folder + "/flows", "--fail-on", "warning"], in: folder)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout == "\(folder)/flows/transfer.yaml:23:3: warning: state key 'note' is now int?, not string? [state_type_changed]\n1 change: 0 breaking, 1 warning, 0 info\n")
        #expect(result.stderr.contains("'\(folder)/flows/copy.yaml' is not in 'HEAD': a new file, nothing to compare"))
        // The revision's text is read, not the working tree's: after a commit there is nothing to show.
        try git(["commit", "-q", "-am", "second"])
        let clean = try flowkit(["diff", "--git", "HEAD", folder + "/flows/transfer.yaml"], in: folder)
        #expect(clean.status == 0)
        #expect(clean.stdout == "no changes\n")
        let bad = try flowkit(["diff", "--git", "no-such-revision", folder + "/flows/transfer.yaml"], in: folder)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("at 'no-such-revision': fatal:"), "\(bad.stderr)")
        let option = try flowkit(["diff", "--git=--output=/tmp/x", folder + "/flows/transfer.yaml"], in: folder)
        #expect(option.status == 2)
        #expect(option.stderr.contains("is not a git revision"))
    }

    @Test func theMarkdownCommentEmbedsThePictureAndGitHubAnnotatesTheNewFile() throws {
        let markdown = try flowkit(["diff", "--format", "markdown", "flows/transfer.yaml", "docs/examples/transfer-v2.yaml"])
        #expect(markdown.status == 0)
        #expect(markdown.stdout.hasPrefix("### Flow changes\n\n8 changes: 2 breaking, 0 warnings, 6 info\n"))
        #expect(markdown.stdout.contains("```mermaid\n") && markdown.stdout.contains("class n6 added"))
        let github = try flowkit(["diff", "--format", "github", "flows/transfer.yaml", "docs/examples/transfer-v2.yaml", "--fail-on", "breaking"])
        #expect(github.status == 1)
        #expect(github.stdout.split(separator: "\n").count == 8)
        #expect(github.stdout.contains("::error file=docs/examples/transfer-v2.yaml,title=flowkit diff (step_removed)::step 'alert' removed (was at flows/transfer.yaml:86:3)\n"))
        let changelog = try flowkit(["diff", "--format", "changelog", "flows/transfer.yaml", "docs/examples/transfer-v2.yaml"])
        #expect(changelog.stdout.split(separator: "\n").count == 6)
    }

    @Test func levelsComeFromTheConfiguration() throws {
        let files = try pair { $0.replacingOccurrences(of: "title: Choose tariff", with: "title: Pick a tariff") }
        defer { try? FileManager.default.removeItem(atPath: files.folder) }
        #expect(try flowkit(["diff", files.old, files.new, "--fail-on", "warning"]).status == 0)
        try "diff:\n  levels:\n    step_title_changed: breaking\n".write(toFile: files.folder + "/.flowkit.yml", atomically: true, encoding: .utf8)
        let raised = try flowkit(["diff", files.old, files.new, "--fail-on", "breaking"])
        #expect(raised.status == 1)
        #expect(raised.stdout.contains(": breaking: the title of step 'tariffs' changed"))
        try "diff:\n  levels:\n    step_title_change: breaking\n".write(toFile: files.folder + "/.flowkit.yml", atomically: true, encoding: .utf8)
        let broken = try flowkit(["diff", files.old, files.new])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains(".flowkit.yml:3:5: unknown check 'step_title_change'; did you mean 'step_title_changed'?"), "\(broken.stderr)")
        #expect(broken.stdout.isEmpty)
    }

    @Test func renderDiffDrawsTheChangeNextToTheNewFile() throws {
        let folder = NSTemporaryDirectory() + "flowkit-render-diff-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: packageRoot + "/docs/examples/transfer-v2.yaml", toPath: folder + "/transfer.yaml")
        let png = try flowkit(["render", "--diff", "flows/transfer.yaml", folder + "/transfer.yaml", "--png"])
        #expect(png.status == 0, "\(png.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/transfer.diff.png"))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let mermaid = try flowkit(["render", "--diff", "flows/transfer.yaml", folder + "/transfer.yaml", "--mermaid", "--focus-changes", "-o", "-"])
        #expect(mermaid.status == 0)
        #expect(mermaid.stdout.contains("classDef added") && mermaid.stdout.contains(" : + on confirmationCancel"))
        let lonely = try flowkit(["render", "--focus-changes", "flows/transfer.yaml", "--mermaid", "-o", "-"])
        #expect(lonely.status != 0)
        #expect(lonely.stderr.contains("--focus-changes draws the neighbourhood of a change; give --diff OLD"))
        let script = try flowkit(["render", "--diff", "flows/scripts/transfer.yaml", "flows/transfer.yaml", "--mermaid", "-o", "-"])
        #expect(script.status == 2)
        #expect(script.stderr.contains("is a simulation script, not a flow"))
    }

    @Test func fixScriptsRewritesTheScriptsOfTheNewFileAndSaysWhat() throws {
        let folder = NSTemporaryDirectory() + "flowkit-fix-scripts-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/scripts", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/transfer.yaml", toPath: folder + "/old.yaml")
        try FileManager.default.copyItem(atPath: packageRoot + "/docs/examples/transfer-v2.yaml", toPath: folder + "/transfer.yaml")
        let script = try String(contentsOfFile: packageRoot + "/flows/scripts/transfer.yaml", encoding: .utf8)
        try script.write(toFile: folder + "/scripts/transfer.yaml", atomically: true, encoding: .utf8)
        // A script of another flow that names a step 'success' too is left alone.
        let other = script.replacingOccurrences(of: "flow: ../transfer.yaml", with: "flow: ../old.yaml")
        try other.write(toFile: folder + "/scripts/old.yaml", atomically: true, encoding: .utf8)
        let result = try flowkit(["diff", folder + "/old.yaml", folder + "/transfer.yaml", "--fix-scripts"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\(folder)/scripts/transfer.yaml:14:9: step 'success' is now 'sent'\n"), "\(result.stderr)")
        let fixed = try String(contentsOfFile: folder + "/scripts/transfer.yaml", encoding: .utf8)
        #expect(fixed == script.replacingOccurrences(of: "- success: {}", with: "- sent: {}").replacingOccurrences(of: "confirmation, success, finish]", with: "confirmation, sent, finish]"))
        #expect(try String(contentsOfFile: folder + "/scripts/old.yaml", encoding: .utf8) == other)
    }

    /// A nested flow's renames are followed below its flow step (issue 28, item 5): `signIn/password` becomes
    /// `signIn/passcode` in the parent's script when sign-in renames the step, in steps and in `expect.path`.
    @Test func fixScriptsFollowsRenamesInsideNestedFlows() throws {
        let folder = try bookingRepository("fix-nested")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let child = try String(contentsOfFile: folder + "/flows/nested/sign-in.yaml", encoding: .utf8)
        try child.replacingOccurrences(of: "next: password", with: "next: passcode").replacingOccurrences(of: "  password:\n", with: "  passcode:\n")
            .write(toFile: folder + "/flows/nested/sign-in.yaml", atomically: true, encoding: .utf8)
        let script = try String(contentsOfFile: folder + "/flows/scripts/booking.yaml", encoding: .utf8)
        let result = try flowkit(["diff", "--git", "HEAD", folder + "/flows", "--fix-scripts"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\(folder)/flows/scripts/booking.yaml:16:9: step 'signIn/password' is now 'signIn/passcode'"), "\(result.stderr)")
        let fixed = try String(contentsOfFile: folder + "/flows/scripts/booking.yaml", encoding: .utf8)
        #expect(fixed == script.replacingOccurrences(of: "signIn/password", with: "signIn/passcode"))
        // The fixed script lints clean against the renamed flows.
        let lint = try flowkit(["lint", folder + "/flows/scripts/booking.yaml"])
        #expect(lint.status == 0, "\(lint.stdout)")
    }

    /// Issue 29: with `--git REV`, the old run of a known scenario reads the nested flows at REV, so a change inside a
    /// nested flow that sends the scenario elsewhere is seen (read as it is now, the old run failed too and was not
    /// compared).
    @Test func knownScenariosReadNestedFlowsAtTheRevision() throws {
        let folder = try bookingRepository("nested-rev")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Only the nested flow changes: after the password, the sign-in now sends a reset link.
        let child = try String(contentsOfFile: folder + "/flows/nested/sign-in.yaml", encoding: .utf8)
        let changed = child.replacingOccurrences(of: "      forgotPassword: resetLink\n    next: signedIn", with: "      forgotPassword: resetLink\n    next: resetLink")
        #expect(changed != child)
        try changed.write(toFile: folder + "/flows/nested/sign-in.yaml", atomically: true, encoding: .utf8)
        let result = try flowkit(["diff", "--git", "HEAD", "flows", "--format", "json"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("scenario_changed") && result.stdout.contains("signIn/password"), "\(result.stdout)")
        // Undone, nothing changed.
        try child.write(toFile: folder + "/flows/nested/sign-in.yaml", atomically: true, encoding: .utf8)
        let same = try flowkit(["diff", "--git", "HEAD", "flows", "--format", "json"], in: folder)
        #expect(!same.stdout.contains("scenario_changed"), "\(same.stdout)")
    }

    /// The diff gate reads old versions only from the repository it runs in (issue 29): a pull request that plants a
    /// `.git` folder, a `.git` file or a bare repository's `HEAD`, `config` and `objects/` beside a flow cannot change
    /// what the revision means for the files there.
    @Test func aRepositoryPlantedInTheComparedTreeIsNotRead() throws {
        let folder = NSTemporaryDirectory() + "flowkit-diff-planted-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/flows", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = try String(contentsOfFile: packageRoot + "/flows/transfer.yaml", encoding: .utf8)
        try text.write(toFile: folder + "/flows/transfer.yaml", atomically: true, encoding: .utf8)
        try git(["init", "-q"], in: folder)
        try git(["add", "."], in: folder)
        try git(["commit", "-q", "-m", "first"], in: folder)
        // The pull request: a nested repository whose HEAD holds another version of a flow it adds.
        let changed = text.replacingOccurrences(of: "  note: string?", with: "  note: int?")
        for planted in ["evil", "bare"] {
            let dir = folder + "/flows/" + planted
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try text.write(toFile: dir + "/transfer.yaml", atomically: true, encoding: .utf8)
            try git(["init", "-q"], in: dir)
            try git(["add", "transfer.yaml"], in: dir)
            try git(["commit", "-q", "-m", "planted"], in: dir)
            try changed.write(toFile: dir + "/transfer.yaml", atomically: true, encoding: .utf8)
        }
        // 'bare': the planted repository's files laid out as a bare repository beside the flow.
        let bare = folder + "/flows/bare"
        for item in try FileManager.default.contentsOfDirectory(atPath: bare + "/.git") {
            try FileManager.default.moveItem(atPath: bare + "/.git/" + item, toPath: bare + "/" + item)
        }
        try FileManager.default.removeItem(atPath: bare + "/.git")
        let result = try flowkit(["diff", "--git", "HEAD", folder + "/flows"], in: folder)
        // Both planted flows are new in the real repository: nothing to compare, whatever the planted HEADs hold.
        #expect(result.stderr.contains("'\(folder)/flows/evil/transfer.yaml' is not in 'HEAD': a new file, nothing to compare"), "\(result.stderr)")
        #expect(result.stderr.contains("'\(folder)/flows/bare/transfer.yaml' is not in 'HEAD': a new file, nothing to compare"), "\(result.stderr)")
        #expect(!result.stdout.contains("state_type_changed"), "\(result.stdout)")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // Run outside any repository, the command says so rather than read one near the files (a JSON Schema
        // saved beside the flows is passed over with a note, as lint passes it over).
        try String(decoding: try flowkit(["schema"]).stdout.utf8, as: UTF8.self).write(toFile: folder + "/flows/flow.schema.json", atomically: true, encoding: .utf8)
        let withSchema = try flowkit(["diff", "--git", "HEAD", folder + "/flows"], in: folder)
        #expect(withSchema.status == 0, "\(withSchema.stderr)")
        #expect(withSchema.stderr.contains("skipped '\(folder)/flows/flow.schema.json': not a flow file"), "\(withSchema.stderr)")
        let outside = NSTemporaryDirectory() + "flowkit-no-repo-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        let lost = try flowkit(["diff", "--git", "HEAD", folder + "/flows/evil/transfer.yaml"], environment: ["GIT_CEILING_DIRECTORIES": NSTemporaryDirectory()], in: outside)
        #expect(lost.status == 2)
        #expect(lost.stderr.contains("the working directory is not in a git repository"), "\(lost.stderr)")
    }

    /// `--fix-scripts` never writes through a symbolic link (skipped with a note, as lint skips a link that leads
    /// out of its tree), and a script it cannot read is an error, not a silent skip (issue 29).
    @Test func fixScriptsSkipsLinksAndRefusesUnreadableScripts() throws {
        let folder = NSTemporaryDirectory() + "flowkit-fix-hostile-\(UUID().uuidString)"
        let elsewhere = NSTemporaryDirectory() + "flowkit-fix-elsewhere-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/scripts", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: elsewhere)
        }
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/transfer.yaml", toPath: folder + "/old.yaml")
        try FileManager.default.copyItem(atPath: packageRoot + "/docs/examples/transfer-v2.yaml", toPath: folder + "/transfer.yaml")
        let script = try String(contentsOfFile: packageRoot + "/flows/scripts/transfer.yaml", encoding: .utf8)
        // A script elsewhere, reached through a link in the tree: it names '../transfer.yaml' from the link's folder.
        try script.write(toFile: elsewhere + "/outside.yaml", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder + "/scripts/linked.yaml", withDestinationPath: elsewhere + "/outside.yaml")
        let result = try flowkit(["diff", folder + "/old.yaml", folder + "/transfer.yaml", "--fix-scripts"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("skipped '\(folder)/scripts/linked.yaml': a symbolic link"), "\(result.stderr)")
        #expect(try String(contentsOfFile: elsewhere + "/outside.yaml", encoding: .utf8) == script, "the file elsewhere was written")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/scripts/linked.yaml") == elsewhere + "/outside.yaml")
        // A script that cannot be read stops the command before anything is written.
        try FileManager.default.removeItem(atPath: folder + "/scripts/linked.yaml")
        try script.write(toFile: folder + "/scripts/transfer.yaml", atomically: true, encoding: .utf8)
        try "flowkit-script: 1\nflow: ../transfer.yaml\nscenarios: [ { name: x\n".write(toFile: folder + "/scripts/broken.yaml", atomically: true, encoding: .utf8)
        let broken = try flowkit(["diff", folder + "/old.yaml", folder + "/transfer.yaml", "--fix-scripts"])
        #expect(broken.status == 2, "\(broken.stderr)")
        #expect(broken.stderr.contains("broken.yaml' is a script that cannot be read"), "\(broken.stderr)")
        #expect(try String(contentsOfFile: folder + "/scripts/transfer.yaml", encoding: .utf8) == script, "nothing is written")
    }
}
