import Foundation
import Testing

/// `flowkit generate scenarios` (docs/format.md, "Generated scenarios"): the script it writes passes and covers the
/// flow, and `--extend` adds to a script without touching what was there.
@Suite("flowkit generate scenarios")
struct GenerateScenariosCommandTests {
    /// A temporary folder holding a copy of the transfer flow and its hand-written script.
    private func workspace() throws -> String {
        let folder = NSTemporaryDirectory() + "flowkit-scenarios-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/scripts", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/transfer.yaml", toPath: folder + "/transfer.yaml")
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/scripts/transfer.yaml", toPath: folder + "/scripts/transfer.yaml")
        return folder
    }

    @Test func theWrittenScriptPassesAndCoversEveryTransitionTheSameEachTime() throws {
        let folder = try workspace()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try flowkit(["generate", "scenarios", folder + "/transfer.yaml", "-o", folder + "/generated.yaml"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.hasPrefix("wrote \(folder)/generated.yaml: "), "\(first.stderr)")
        let text = try String(contentsOfFile: folder + "/generated.yaml", encoding: .utf8)
        #expect(text.contains("flow: \"transfer.yaml\"\n"), "the flow is named relative to the script")
        let simulated = try flowkit(["simulate", "--quiet", "--script", folder + "/generated.yaml", "--coverage",
                                     "--min-coverage", "transitions=100,steps=100"])
        #expect(simulated.status == 0, "\(simulated.stdout)\(simulated.stderr)")
        let second = try flowkit(["generate", "scenarios", folder + "/transfer.yaml", "-o", folder + "/again.yaml"])
        #expect(second.status == 0)
        #expect(try String(contentsOfFile: folder + "/again.yaml", encoding: .utf8) == text, "the same flow gives the same script")
    }

    @Test func extendKeepsTheScriptAsItWasAndAddsOnlyWhatItMisses() throws {
        let folder = try workspace()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/scripts/transfer.yaml"
        let original = try String(contentsOfFile: script, encoding: .utf8)
        let before = try flowkit(["simulate", "--quiet", "--script", script, "--coverage", "--min-coverage", "transitions=100"])
        #expect(before.stdout.contains("  star-steps      1/6   16.7%\n"), "the hand-written script takes the '*' handler at one step: \(before.stdout)")
        let extended = try flowkit(["generate", "scenarios", folder + "/transfer.yaml", "--extend", script])
        #expect(extended.status == 0, "\(extended.stderr)")
        let text = try String(contentsOfFile: script, encoding: .utf8)
        #expect(text.hasPrefix(original), "the user's scenarios, comments and layout are an unchanged prefix")
        #expect(text.count > original.count)
        let after = try flowkit(["simulate", "--quiet", "--script", script, "--coverage", "--min-coverage", "transitions=100"])
        #expect(after.status == 0, "\(after.stdout)\(after.stderr)")
        #expect(after.stdout.contains("  star-steps      6/6  100.0%\n"), "the extension takes the '*' handler at every step: \(after.stdout)")
        // Extending a script that covers everything changes nothing.
        let again = try flowkit(["generate", "scenarios", folder + "/transfer.yaml", "--extend", script])
        #expect(again.status == 0)
        #expect(again.stderr.contains(": 0 scenarios covering 0 transitions"), "\(again.stderr)")
        #expect(try String(contentsOfFile: script, encoding: .utf8) == text)
    }

    /// Issue 29: a list at another indentation than two spaces is extended at its own.
    @Test(arguments: [0, 4])
    func extendFollowsTheListsIndentation(_ indent: Int) throws {
        let folder = try workspace()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/scripts/short.yaml"
        let item = ["- name: an invalid amount", "  start: { state: { country: RU } }", "  steps:", "    - amount: { result: { amount: 50 } }",
                    "    - invalidAmount: {}", "    - amount: { result: { amount: 500 } }", "    - tariffs: { result: { tariff: economy } }",
                    "    - confirmation: { event: confirmationContinue }", "    - success: {}"]
        let original = "flowkit-script: 1\nflow: ../transfer.yaml\nscenarios:\n" + item.map { String(repeating: " ", count: indent) + $0 }.joined(separator: "\n") + "\n"
        try original.write(toFile: script, atomically: true, encoding: .utf8)
        let result = try flowkit(["generate", "scenarios", folder + "/transfer.yaml", "--extend", script])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: script, encoding: .utf8)
        #expect(text.hasPrefix(original) && text.contains("\n" + String(repeating: " ", count: indent) + "- name: \"generated 1"), "\(text)")
        let simulated = try flowkit(["simulate", "--quiet", "--script", script])
        #expect(simulated.status == 0, "\(simulated.stdout)")
    }

    @Test func aScriptWhoseScenariosAreNotLastIsRefusedAndLeftAlone() throws {
        let folder = try workspace()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/scripts/short.yaml"
        let original = """
            flowkit-script: 1
            scenarios:
              - name: an invalid amount
                start: { state: { country: RU } }
                steps:
                  - amount: { result: { amount: 50 } }
                  - invalidAmount: {}
            flow: ../transfer.yaml

            """
        try original.write(toFile: script, atomically: true, encoding: .utf8)
        let result = try flowkit(["generate", "scenarios", folder + "/transfer.yaml", "--extend", script])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("its 'scenarios' list must be the last thing in the file"), "\(result.stderr)")
        #expect(try String(contentsOfFile: script, encoding: .utf8) == original)
    }
}
