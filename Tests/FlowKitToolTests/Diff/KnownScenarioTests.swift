import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool

/// `scenario_changed` (docs/format.md, "Known scenarios"): a change that makes a passing scenario go another way is
/// reported where it goes another way, and changes that do not (a title, a rename the script follows) are not.
@Suite("Known scenarios")
struct KnownScenarioTests {
    /// A folder with the transfer flow as `old.yaml`, `edit` of it as `transfer.yaml`, and its script.
    static func changes(_ edit: (String) -> String) throws -> [FlowChange] {
        let folder = NSTemporaryDirectory() + "flowkit-scenarios-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/scripts", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = try String(contentsOfFile: packageRoot + "/flows/transfer.yaml", encoding: .utf8)
        try text.write(toFile: folder + "/old.yaml", atomically: true, encoding: .utf8)
        try edit(text).write(toFile: folder + "/transfer.yaml", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/scripts/transfer.yaml", toPath: folder + "/scripts/transfer.yaml")
        let old = try FlowDiff.load(path: folder + "/old.yaml")
        let new = try FlowDiff.load(path: folder + "/transfer.yaml")
        return FlowDiff.scenarioChanges(old: old, new: new, newPath: folder + "/transfer.yaml", scripts: [folder + "/scripts/transfer.yaml", folder + "/old.yaml"])
            .map { change in
                var change = change
                change.message = change.message.replacingOccurrences(of: folder + "/", with: "")
                return change
            }
    }

    @Test func aGuardThatSendsAScenarioElsewhereIsAWarningWhereItGoesElsewhere() throws {
        let changes = try Self.changes { $0.replacingOccurrences(of: "invalidAmount: result.amount < 100", with: "invalidAmount: result.amount < 10") }
        #expect(changes.map(\.message) == ["scenario 'retry after an invalid amount' (scripts/transfer.yaml:6) now goes from 'amount' to 'tariffs', not 'invalidAmount'"])
        #expect(changes.first?.level == .warning && changes.first?.new?.line == 50)
    }

    @Test func aScenarioThatNowFailsSaysWhy() throws {
        let changes = try Self.changes { $0.replacingOccurrences(of: "      confirmationContinue: success\n", with: "") }
        #expect(!changes.isEmpty)
        #expect(changes.allSatisfy { $0.check == .scenarioChanged && $0.message.contains("now stops at 'confirmation'") }, "\(changes.map(\.message))")
    }

    @Test func aTitleOrARenameTheScriptFollowsChangesNoScenario() throws {
        #expect(try Self.changes { $0.replacingOccurrences(of: "title: Choose tariff", with: "title: Pick one") }.isEmpty)
        let renamed = try Self.changes { text in
            text.replacingOccurrences(of: "  success:\n", with: "  sent:\n").replacingOccurrences(of: "confirmationContinue: success", with: "confirmationContinue: sent")
        }
        #expect(renamed.isEmpty, "\(renamed.map(\.message))")
    }
}
