import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool

/// Counts the files a rule was run on, across threads.
final class CheckCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func record(_ file: String) {
        lock.lock()
        counts[file, default: 0] += 1
        lock.unlock()
    }

    func count(_ file: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[file] ?? 0
    }
}

/// `maybe_unset` itself, counting every file it is run on, so a test sees whether a disabled rule ran.
enum CountingMaybeUnsetRule: Rule {
    static let description = MaybeUnsetRule.description
    static let needs = MaybeUnsetRule.needs
    static let checks = CheckCounter()

    static func check(_ context: LintContext) -> [Diagnostic] {
        checks.record(context.document.file)
        return MaybeUnsetRule.check(context)
    }
}

@Suite("Disabled rules")
struct DisabledRuleTests {
    static let flow = """
        flowkit: 1
        flow: t
        start: a
        state: { n: int }
        steps:
          a: { next: [{ forward: done, if: "state.n > 1" }, done] }
          done: { kind: finish }
        """

    /// Lints the flow in a fresh folder with `configuration` as its `.flowkit.yml` (none when nil), with
    /// `maybe_unset` counting its runs; returns the findings' rules and how often `maybe_unset` ran.
    static func lint(configuration: String?, fixed: Bool = false) throws -> (rules: [String], runs: Int) {
        let folder = FileFlowResolver.canonical(NSTemporaryDirectory()) + "/flowkit-disabled-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/flow.yaml"
        try flow.write(toFile: path, atomically: true, encoding: .utf8)
        var fixedConfiguration: LintConfiguration?
        if let configuration {
            try configuration.write(toFile: folder + "/.flowkit.yml", atomically: true, encoding: .utf8)
            if fixed { fixedConfiguration = try LintConfiguration.load(path: folder + "/.flowkit.yml") }
        }
        var session = LintSession(roots: [folder], configuration: fixedConfiguration)
        session.rules = Linter.rules.map { $0 == MaybeUnsetRule.self ? CountingMaybeUnsetRule.self : $0 }
        let outcome = session.run([path])
        return (outcome.diagnostics.map(\.rule.rawValue), CountingMaybeUnsetRule.checks.count(path))
    }

    @Test func anEnabledRuleRunsOnceAndReports() throws {
        let (rules, runs) = try Self.lint(configuration: nil)
        #expect(runs == 1)
        #expect(rules == ["maybe_unset"])
    }

    @Test func aRuleDisabledInTheNearestConfigurationDoesNotRun() throws {
        let (rules, runs) = try Self.lint(configuration: "disabled: [maybe_unset]\n")
        #expect(runs == 0)
        #expect(rules.isEmpty)
    }

    @Test func aRuleDisabledInAGivenConfigurationDoesNotRun() throws {
        let (rules, runs) = try Self.lint(configuration: "disabled: [maybe_unset, unused_event]\n", fixed: true)
        #expect(runs == 0)
        #expect(rules.isEmpty)
    }

    @Test func aRuleWhoseSeverityIsChangedStillRuns() throws {
        let (rules, runs) = try Self.lint(configuration: "severity: { maybe_unset: error }\n")
        #expect(runs == 1)
        #expect(rules == ["maybe_unset"])
    }

    @Test func theLinterLeavesOutDisabledRules() {
        let document = FlowLoader.load(bytes: Array(Self.flow.utf8), file: "flow.yaml", format: .yaml)
        #expect(Linter.lint(document).map(\.rule) == ["maybe_unset"])
        #expect(Linter.lint(document, disabled: ["maybe_unset"]).isEmpty)
    }
}
