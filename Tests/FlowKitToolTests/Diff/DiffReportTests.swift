import Foundation
import Testing
import TestSupport
@testable import FlowKit
@testable import FlowKitTool

/// `flowkit diff`'s output formats (golden files, one per format, for the README's example change and for no
/// change), what each escapes, the levels `.flowkit.yml` sets, and the picture of a change.
@Suite("Flow change reports")
struct DiffReportTests {
    static let goldenFolder = "Tests/FlowKitToolTests/Diff/Golden"

    /// flows/transfer.yaml and the changed version the README shows, named as the README names them.
    static func example() throws -> (old: Flow, new: Flow) {
        func load(_ path: String) throws -> Flow {
            try FlowDiff.load(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/" + path))), file: path, name: path)
        }
        return (try load("flows/transfer.yaml"), try load("docs/examples/transfer-v2.yaml"))
    }

    static func report(_ old: Flow, _ new: Flow) throws -> DiffReport {
        let diagram = try FlowDiagram(change: old, to: new, options: DiagramOptions(radius: 1), focusOnChanges: true)
        return DiffReport(old: old.file, new: new.file, changes: FlowDiff.compare(old: old, new: new),
                          pictures: [DiffReport.Picture(file: new.file, mermaid: MermaidWriter.write(diagram))])
    }

    @Test(arguments: DiffFormat.allCases)
    func eachFormatMatchesItsGolden(_ format: DiffFormat) throws {
        let (old, new) = try Self.example()
        let report = try Self.report(old, new)
        try expectGolden(format.reporter.render(report), "transfer-v2.\(format.rawValue)", in: Self.goldenFolder)
        let empty = DiffReport(old: old.file, new: old.file, changes: [])
        try expectGolden(format.reporter.render(empty), "none.\(format.rawValue)", in: Self.goldenFolder)
    }

    /// Names, titles and conditions with every character a format gives meaning to stay text in every format.
    @Test func hostileTextStaysText() throws {
        let title = "a|b <img src=x> `code` *star* [link](x) # % \\ done"
        let old = try FlowDiffTests.flow(FlowDiffTests.base, file: "old|`<x>`.yaml")
        let new = try FlowDiffTests.flow(FlowDiffTests.base.replacingOccurrences(of: "title: Review", with: "title: \"\(title.replacingOccurrences(of: "\\", with: "\\\\"))\\r\\nline\""),
                                         file: "new%,:.yaml")
        let report = DiffReport(old: old.file, new: new.file, changes: FlowDiff.compare(old: old, new: new))
        #expect(report.changes.contains { $0.check == .stepTitleChanged })
        let markdown = DiffMarkdownReporter().render(report)
        for line in markdown.split(separator: "\n") where line.hasPrefix("| `") {
            // Four cell borders: every other '|' is escaped.
            var borders = 0
            var previous: Character = " "
            for character in line {
                if character == "|" && previous != "\\" { borders += 1 }
                previous = character
            }
            #expect(borders == 4, "\(line)")
        }
        #expect(!markdown.replacingOccurrences(of: "\\<", with: "").contains("<img") && !markdown.contains("\r"))
        let github = DiffGitHubReporter().render(report)
        #expect(github.split(separator: "\n").allSatisfy { $0.hasPrefix("::") }, "\(github)")
        #expect(github.contains("file=new%25%2C%3A.yaml,"))
        let changelog = DiffChangelogReporter().render(report)
        #expect(changelog.split(separator: "\n").allSatisfy { $0.hasPrefix("- `") } && !changelog.replacingOccurrences(of: "\\<", with: "").contains("<img"))
        let text = DiffTextReporter().render(report)
        #expect(!text.contains("\r") && text.split(separator: "\n").count == report.changes.count + 1)
    }

    @Test func theChangelogLeavesTheInsideOutUnlessItMatters() throws {
        let (old, new) = try Self.example()
        let changes = FlowDiff.compare(old: old, new: new)
        let lines = DiffChangelogReporter().render(DiffReport(old: old.file, new: new.file, changes: changes)).split(separator: "\n")
        #expect(lines.count == changes.filter { !$0.check.isInternal }.count)
        var raised = changes
        for index in raised.indices where raised[index].check == .transitionRetargeted { raised[index].level = .warning }
        #expect(DiffChangelogReporter().render(DiffReport(old: old.file, new: new.file, changes: raised)).contains("now goes to restart"))
    }

    // MARK: Levels from .flowkit.yml

    static func configuration(_ text: String) throws -> String {
        let folder = NSTemporaryDirectory() + "flowkit-diff-config-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: folder + "/.flowkit.yml", atomically: true, encoding: .utf8)
        return folder + "/.flowkit.yml"
    }

    @Test func levelsFromTheConfigurationReplaceTheChecks() throws {
        let path = try Self.configuration("diff:\n  levels:\n    step_title_changed: breaking\n    step_removed: info\n")
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let configuration = try LintConfiguration.load(path: path)
        #expect(configuration.diffLevels == [.stepTitleChanged: .breaking, .stepRemoved: .info])
        let (old, new) = try Self.example()
        let changes = try DiffFrontend.levels(FlowDiff.compare(old: old, new: new), configuration: path)
        #expect(changes.filter { $0.check == .stepTitleChanged }.allSatisfy { $0.level == .breaking })
        #expect(changes.filter { $0.check == .stepRemoved }.allSatisfy { $0.level == .info })
        #expect(changes.filter { $0.check == .stepRenamed }.allSatisfy { $0.level == .breaking })
    }

    @Test(arguments: [
        ("diff:\n  level:\n    step_removed: info\n", "2:3: unknown key 'level' in 'diff'; did you mean 'levels'?"),
        ("diff:\n  levels:\n    step_remove: info\n", "3:5: unknown check 'step_remove'; did you mean 'step_removed'?"),
        ("diff:\n  levels:\n    step_removed: warn\n", "3:19: level 'warn' must be breaking, warning or info; did you mean 'warning'?"),
        ("diff: [levels]\n", "1:7: 'diff' takes a mapping with 'levels', found a list"),
    ])
    func aConfigurationThatCannotBeUsedSaysWhere(_ text: String, _ message: String) throws {
        let path = try Self.configuration(text)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        #expect(throws: ConfigurationError.self) { try LintConfiguration.load(path: path) }
        do {
            _ = try LintConfiguration.load(path: path)
        } catch {
            #expect(error.localizedDescription == path + ":" + message)
        }
    }

    // MARK: Pictures of a change

    @Test func thePictureMarksWhatTheDiffReports() throws {
        let (old, new) = try Self.example()
        let diagram = try FlowDiagram(change: old, to: new)
        func node(_ step: String) -> FlowDiagram.Node? { diagram.nodes.first { $0.step == step } }
        #expect(node("cancelled")?.change == .added)
        #expect(node("sent")?.change == .changed && node("sent")?.label.hasSuffix("(was success)") == true)
        #expect(node("invalidAmount")?.change == .changed)
        #expect(node("tariffs")?.change == .unchanged)
        #expect(diagram.nodes.filter { $0.change == .removed && $0.role == .screen }.map(\.label) == ["Something went wrong\nalert"])
        #expect(diagram.edges.filter { $0.change == .added }.count == 1)
        #expect(diagram.edges.filter { $0.change == .changed }.count == 1)
        #expect(diagram.edges.filter { $0.change == .removed }.count == 2)
        #expect(diagram.subtitle == "changes since flows/transfer.yaml: 2 added (green), 3 changed (orange), 3 removed (red, dashed)")
    }

    /// Properties: a flow against itself draws everything unchanged and no ghost; for every change of the checks'
    /// table, each step and option `flowkit diff` reports added, removed or retargeted is drawn so, the steps a
    /// change adds are the ghosts of its reverse, and focusing on the changes keeps every step drawn in colour.
    @Test func picturesAgreeWithTheDiffAndTheirReverse() throws {
        for name in ["transfer", "onboarding", "profile", "signup"] {
            let flow = try FlowDiff.load(path: packageRoot + "/flows/\(name).yaml")
            let same = try FlowDiagram(change: flow, to: flow)
            #expect(same.nodes.allSatisfy { $0.role == .initial || $0.change == .unchanged })
            #expect(same.edges.allSatisfy { $0.change == .unchanged })
        }
        let base = try FlowDiffTests.flow(FlowDiffTests.base)
        for change in FlowDiffTests.triggering {
            let changed = try FlowDiffTests.flow(try FlowDiffTests.changed(change))
            let changes = FlowDiff.compare(old: base, new: changed)
            let forward = try FlowDiagram(change: base, to: changed)
            let backward = try FlowDiagram(change: changed, to: base)
            let added = forward.nodes.filter { $0.change == .added && $0.step != nil }.compactMap(\.step).sorted()
            #expect(added == changes.filter { $0.check == .stepAdded }.map { String($0.message.split(separator: "'")[1]) }.sorted(), "\(change)")
            let ghosts = backward.nodes.filter { $0.change == .removed && ![.backMarker, .entry, .anyStep, .failureNote].contains($0.role) }.map { String($0.label.split(separator: "\n").last ?? "") }.sorted()
            #expect(ghosts == added, "\(change)")
            let drawnAdded = forward.edges.filter { $0.change == .added }.count
            #expect(drawnAdded >= changes.filter { $0.check == .transitionAdded }.count, "\(change)")
            let drawnRemoved = forward.edges.filter { $0.change == .removed }.count
            #expect(drawnRemoved >= changes.filter { [.transitionRemoved, .transitionRetargeted].contains($0.check) }.count, "\(change)")
            let focused = try FlowDiagram(change: base, to: changed, options: DiagramOptions(radius: 0), focusOnChanges: true)
            for node in forward.nodes where node.step != nil && [.added, .changed].contains(node.change) {
                #expect(focused.nodes.contains { $0.step == node.step }, "\(change): \(node.label)")
            }
        }
    }
}
