import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool

/// What parent flows read of a nested flow's state, and the changes that break them (docs/format.md, "Parent flows").
@Suite("Parent flows")
struct FlowParentsTests {
    /// A folder with the booking flow and its nested sign-in flow, as the samples have them.
    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "flowkit-parents-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/nested", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/booking.json", toPath: folder + "/booking.json")
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/nested/sign-in.yaml", toPath: folder + "/nested/sign-in.yaml")
        return folder
    }

    @Test func aParentReadsWhatItsFlowStepSetsFromTheResult() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let parents = FlowParents.find(child: folder + "/nested/sign-in.yaml", among: [folder + "/booking.json", folder + "/nested/sign-in.yaml"])
        #expect(parents.reads.keys.sorted() == ["customerId"])
        #expect(parents.reads["customerId"] == [FlowParents.Read(file: folder + "/booking.json", step: "signIn", line: 113, column: 24)])
        // The same file under another name is the same child; another file is not.
        #expect(FlowParents.find(child: folder + "/nested/../nested/sign-in.yaml", among: [folder + "/booking.json"]).reads.count == 1)
        #expect(FlowParents.find(child: folder + "/booking.json", among: [folder + "/booking.json", folder + "/nested/sign-in.yaml"]).reads.isEmpty)
    }

    @Test func removingOrRetypingAKeyAParentReadsIsBreakingAndOnlyThen() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let child = folder + "/nested/sign-in.yaml"
        let text = try String(contentsOfFile: child, encoding: .utf8)
        let parents = FlowParents.find(child: child, among: [folder + "/booking.json"])
        let old = try FlowDiffTests.flow(text, file: child)
        func changes(_ edited: String) throws -> [FlowChange] {
            FlowDiff.compare(old: old, new: try FlowDiffTests.flow(edited, file: child), parents: parents)
        }
        let retyped = try changes(text.replacingOccurrences(of: "  customerId: string?", with: "  customerId: int?")
            .replacingOccurrences(of: "{ customerId: string }", with: "{ customerId: int }"))
        let typeChange = try #require(retyped.first { $0.check == .stateTypeChanged })
        #expect(typeChange.level == .breaking)
        #expect(typeChange.message.hasSuffix(": parent step 'signIn' reads it (\(folder)/booking.json:113:24)"))
        // Without the parent, the same change is a warning.
        let alone = FlowDiff.compare(old: old, new: try FlowDiffTests.flow(text.replacingOccurrences(of: "  customerId: string?", with: "  customerId: int?")
            .replacingOccurrences(of: "{ customerId: string }", with: "{ customerId: int }"), file: child))
        #expect(alone.first { $0.check == .stateTypeChanged }?.level == .warning)
        // A key no parent reads: a warning.
        let email = try changes(text.replacingOccurrences(of: "  email: string?", with: "  email: int?"))
        #expect(email.first { $0.check == .stateTypeChanged }?.level == .warning)
    }
}
