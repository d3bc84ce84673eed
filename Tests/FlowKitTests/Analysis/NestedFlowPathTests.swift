import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool

/// Nested-flow references of thousands of components: refused past the length limit at once, and resolved in
/// near-linear work (no recursion per component) below it.
@Suite("Nested flow paths")
struct NestedFlowPathTests {
    /// Lints a flow whose only `flow` step names `reference`, in a fresh folder, and returns the findings.
    static func lint(reference: String) throws -> [Diagnostic] {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("flowkit-paths-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/parent.yaml"
        try """
            flowkit: 1
            flow: parent
            start: pay
            steps:
              pay: { kind: flow, flow: "\(reference)", next: done }
              done: { kind: finish }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return LintSession(roots: [folder], configuration: LintConfiguration(directory: folder)).run([path]).diagnostics
    }

    @Test(arguments: [
        ("a/", 5_000), ("../", 5_000), ("./", 5_000), ("a/../", 2_500), ("a/", 40_000),
    ])
    func aReferenceLongerThanTheLimitIsASubflowMissingFindingAtTheFlowValue(component: String, count: Int) throws {
        let reference = String(repeating: component, count: count) + "x.yaml"
        let findings = try Self.lint(reference: reference)
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding.rule == "subflow_missing")
        #expect(finding.step == "pay")
        #expect(finding.position == SourcePosition(line: 5, column: 28))
        #expect(finding.message == "nested flow '\(Identifier.display(reference))' is a path of \(reference.utf8.count) bytes; the limit is 1024 bytes")
    }

    @Test func aReferenceAtTheLimitIsResolvedAndReportedAsMissing() throws {
        let reference = String(repeating: "a/", count: 509) + "x.yaml"
        #expect(reference.utf8.count == FileFlowResolver.maxReferenceBytes)
        let findings = try Self.lint(reference: reference)
        #expect(findings.map(\.rule) == ["subflow_missing"])
        #expect(findings.first?.message.hasSuffix("does not exist") == true, "\(findings.first?.message ?? "")")
    }

    @Test func aRunRefusesALongReferenceToo() throws {
        let reference = String(repeating: "a/", count: 600) + "x.yaml"
        #expect(runErrorValue { _ = try FileFlowResolver.locate(reference, from: "/tmp/a/flow.yaml", root: "/tmp/a") }?.message
                == "nested flow '\(Identifier.display(reference))' is a path of 1206 bytes; the limit is 1024 bytes")
    }

    @Test func canonicalResolvesAPathOfManyMissingComponentsByName() throws {
        let folder = FileFlowResolver.canonical(NSTemporaryDirectory())
        let missing = (0..<50_000).map { "c\($0 % 7)" }
        let path = folder + "/" + missing.joined(separator: "/") + "/./x/../y.yaml"
        #expect(FileFlowResolver.canonical(path) == folder + "/" + missing.joined(separator: "/") + "/y.yaml")
        #expect(FileFlowResolver.canonical(folder + "/missing/../../" + URL(fileURLWithPath: folder).lastPathComponent + "/z")
                == folder + "/z")
        #expect(FileFlowResolver.canonical("/") == "/")
        #expect(FileFlowResolver.canonical("/../..") == "/")
    }

    @Test func canonicalResolvesSymbolicLinksInTheExistingPrefix() throws {
        let folder = FileFlowResolver.canonical(NSTemporaryDirectory()) + "/flowkit-canonical-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/real/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/real")
        #expect(FileFlowResolver.canonical(folder + "/link/sub/missing/deeper.yaml") == folder + "/real/sub/missing/deeper.yaml")
        #expect(FileFlowResolver.canonical(folder + "/link/sub") == folder + "/real/sub")
    }
}
