import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool

@Suite("Baselines match by subject")
struct BaselineTests {
    static func finding(message: String, subject: String?, step: String? = "c") -> Diagnostic {
        Diagnostic(file: "f.yaml", position: SourcePosition(line: 3, column: 5), severity: .warning, rule: "maybe_unset",
                   step: step, message: message, subject: subject)
    }

    @Test func aFindingWithASubjectMatchesWhateverItsMessageSays() {
        let baseline = Baseline(findings: [Self.finding(message: "step 'c' reads 'k', which is not set on every path to it (not on the path 'a' -> 'c')", subject: "k")])
        let moved = Self.finding(message: "step 'c' reads 'k', which is not set on every path to it (not on the path 'a' -> 'b' -> 'c')", subject: "k")
        #expect(baseline.filter([moved]).baselined == 1)
        #expect(baseline.filter([Self.finding(message: moved.message, subject: "other")]).baselined == 0, "another key is another finding")
        #expect(baseline.filter([Self.finding(message: moved.message, subject: "k", step: "d")]).baselined == 0, "another step too")
    }

    @Test func eachRecordedFindingHidesOne() {
        let baseline = Baseline(findings: [Self.finding(message: "one", subject: "k")])
        let result = baseline.filter([Self.finding(message: "one", subject: "k"), Self.finding(message: "two", subject: "k")])
        #expect(result.baselined == 1 && result.kept.map(\.message) == ["two"])
    }

    @Test func aFindingWithoutASubjectMatchesByMessage() {
        let plain = Diagnostic(file: "f.yaml", position: .start, severity: .error, rule: "expression", step: "a", message: "unexpected ')'")
        let baseline = Baseline(findings: [plain])
        #expect(baseline.filter([plain]).baselined == 1)
        var other = plain
        other.message = "unexpected '('"
        #expect(baseline.filter([other]).baselined == 0)
    }

    @Test func theJSONRecordsTheSubjectAndLoadsBack() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("flowkit-baseline-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recorded = Self.finding(message: "old path", subject: "k")
        var inFolder = recorded
        inFolder.file = folder + "/f.yaml"
        let json = Baseline(findings: [inFolder], relativeTo: folder + "/b.json").json
        #expect(json.contains("\"step\": \"c\", \"subject\": \"k\", \"message\": \"old path\""))
        try json.write(toFile: folder + "/b.json", atomically: true, encoding: .utf8)
        var current = inFolder
        current.message = "new path"
        #expect(try Baseline.load(path: folder + "/b.json").filter([current]).baselined == 1)
    }

    @Test func anOldBaselineWithoutSubjectsStillMatchesByMessage() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("flowkit-baseline-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "{\"flowkitBaseline\": 1, \"findings\": [\n  {\"rule\": \"maybe_unset\", \"file\": \"f.yaml\", \"step\": \"c\", \"message\": \"old path\"}\n]}\n"
            .write(toFile: folder + "/b.json", atomically: true, encoding: .utf8)
        let baseline = try Baseline.load(path: folder + "/b.json")
        var same = Self.finding(message: "old path", subject: "k")
        same.file = folder + "/f.yaml"
        var changed = same
        changed.message = "new path"
        #expect(baseline.filter([same]).baselined == 1)
        #expect(baseline.filter([changed]).baselined == 0)
    }
}
