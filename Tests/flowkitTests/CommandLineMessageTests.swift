import FlowKit
import Foundation
import Testing

/// What the command line says when it cannot do what it was asked: options spelled as flags, usage lines of the
/// subcommand, values it quotes escaped, and notes kept when it refuses.
@Suite("Command-line messages")
struct CommandLineMessageTests {
    @Test func anErrorOfTheToolsCoreNamesTheFlag() throws {
        let folder = NSTemporaryDirectory() + "flowkit-messages-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "{}".write(toFile: folder + "/b.json", atomically: true, encoding: .utf8)
        let result = try flowkit(["lint", "flows/transfer.yaml", "--baseline", folder + "/b.json"])
        #expect(result.status == 2)
        #expect(result.stderr.hasSuffix("not a flowkit baseline (write one with --write-baseline)\n"), "\(result.stderr)")
    }

    @Test func anUnknownRuleShowsTheUsageOfExplain() throws {
        let result = try flowkit(["explain", "dead_ends"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("did you mean 'dead_end'?"))
        #expect(result.stderr.contains("Usage: flowkit explain <rule>"), "\(result.stderr)")
    }

    @Test func aValueTypedWithALineBreakStaysOnItsLine() throws {
        let result = try flowkit(["lint", "flows/transfer.yaml", "--report", "bogus\nflowkit: error: fake\u{1B}[31m"])
        #expect(result.status == 2)
        #expect(result.stderr.contains(#"'bogus\nflowkit: error: fake\u{1b}[31m'"#), "\(result.stderr)")
        #expect(!result.stderr.split(separator: "\n").contains { $0.hasPrefix("flowkit: error: fake") }, "\(result.stderr)")
    }

    @Test func aRefusedBaselineKeepsTheSkippedNotes() throws {
        let folder = NSTemporaryDirectory() + "flowkit-messages-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #"{"not": "a flow"}"#.write(toFile: folder + "/other.json", atomically: true, encoding: .utf8)
        try "flowkit: 1\n".write(toFile: folder + "/a.yaml", atomically: true, encoding: .utf8)
        let result = try flowkit(["lint", folder, "/nonexistent/x.yaml", "--verbose", "--write-baseline", folder + "/b.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("skipped \(folder)/other.json: not a flow file"), "\(result.stderr)")
        #expect(result.stderr.contains("no baseline written"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/b.json"))
    }
}
