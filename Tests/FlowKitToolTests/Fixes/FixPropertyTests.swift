import Foundation
import Testing
import FlowGen
@testable import FlowKit
@testable import FlowKitTool

/// `lint --fix` on generated flows with typos planted in them, written with LF, CRLF or CR line breaks or a YAML line
/// separator (docs/format.md, "Fixes"): a fix changes only the name it replaces, the fixed file reads back with no
/// new syntax or schema finding, and the finding it fixes is gone.
@Suite("Fixes: what --fix writes")
struct FixPropertyTests {
    /// A typo of `word`: one inner character dropped (`amount` → `amont`).
    static func typo(_ word: String, pick: Int) -> String {
        var characters = Array(word)
        characters.remove(at: 1 + pick % (characters.count - 2))
        return String(characters)
    }

    @Test func fixesChangeOnlyTheirNameAndTheFindingGoes() throws {
        let count = ProcessInfo.processInfo.environment["FLOWKIT_FIX_FLOWS"].flatMap(Int.init) ?? 150
        var applied = 0
        // Fixes left out: the planted typos never make two fixes collide, so none is, whatever the line breaks.
        var skipped = 0
        var byRule: [RuleID: Int] = [:]
        var failures: [String] = []
        for seed in 1...UInt64(count) {
            let bundle = BlueprintGenerator.bundle(seed: seed)
            let folder = NSTemporaryDirectory() + "flowkit-fix-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            for file in bundle.files {
                var text = file.text
                // Plant typos: a state key, an event and a step name of five or more letters, each at one of its
                // whole-word occurrences.
                let flow = file.flow
                let names = (flow.state.map(\.name) + flow.events.map(\.name) + flow.steps.map(\.name)).filter { $0.count >= 5 }
                var generator = SplitMix64(seed: seed &* 31 &+ UInt64(file.name.count))
                for name in names.shuffled(using: &generator).prefix(3) {
                    let pattern = try NSRegularExpression(pattern: "(?<![A-Za-z0-9_])\(name)(?![A-Za-z0-9_])")
                    let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
                    guard !matches.isEmpty else { continue }
                    let match = matches[Int(generator.next() % UInt64(matches.count))]
                    let range = Range(match.range, in: text)!
                    text.replaceSubrange(range, with: Self.typo(name, pick: Int(generator.next() % 1000)))
                }
                // Line breaks as files have them: LF, CRLF or a lone CR, and in YAML a comment holding a line
                // separator (a line break to YAML, which a fix must count as the reader does).
                switch seed % 4 {
                case 1: text = text.replacingOccurrences(of: "\n", with: "\r\n")
                case 2: text = text.replacingOccurrences(of: "\n", with: "\r")
                case 3 where file.format == .yaml: text = "# a note\u{2028}# more\n" + text
                default: break
                }
                try text.write(toFile: folder + "/" + file.name, atomically: true, encoding: .utf8)
            }
            let lint = try LintSession.lint(paths: [folder], configuration: nil, baseline: nil, allowOutside: false)
            let plan = FixPlan(lint.diagnostics)
            skipped += plan.skipped
            guard !plan.files.isEmpty else { continue }
            // 1. Only the names change: every line the fix changed differs from the old one only inside its edits.
            for file in plan.files {
                let edits = plan.edits.filter { $0.key.file == file.path }.map(\.value)
                let rebuilt = FixEdits.apply(Set(edits).sorted { $0.bytes.lowerBound < $1.bytes.lowerBound }, to: file.old)
                if rebuilt != file.new { failures.append("seed \(seed): \(file.path): the plan's bytes are not its edits'") }
                var old = file.old
                var new = file.new
                // Taking each edit out of both (last first) leaves the same bytes.
                var shift = 0
                var ranges: [(Range<Int>, Range<Int>)] = []
                for edit in Set(edits).sorted(by: { $0.bytes.lowerBound < $1.bytes.lowerBound }) {
                    let count = Array(edit.newText.utf8).count
                    let newRange = (edit.bytes.lowerBound + shift)..<(edit.bytes.lowerBound + shift + count)
                    ranges.append((edit.bytes, newRange))
                    shift += count - edit.bytes.count
                }
                for (oldRange, newRange) in ranges.reversed() {
                    old.removeSubrange(oldRange)
                    new.removeSubrange(newRange)
                }
                if old != new { failures.append("seed \(seed): \(file.path): bytes outside the edits changed") }
            }
            // 2. The fixed files read back: no new syntax, schema, duplicate_key or expression finding, and each
            // finding fixed is gone.
            let overlay = Dictionary(plan.files.map { (FileFlowResolver.canonical($0.path), $0.new) }, uniquingKeysWith: { first, _ in first })
            let after = try LintSession.lint(paths: [folder], configuration: nil, baseline: nil, allowOutside: false, overlay: overlay)
            for rule in [RuleID.syntax, .schema, .duplicateKey, .expression] {
                let before = lint.diagnostics.filter { $0.rule == rule }.count
                let now = after.diagnostics.filter { $0.rule == rule }.count
                if now > before { failures.append("seed \(seed): \(now - before) new \(rule) finding(s): \(after.diagnostics.filter { $0.rule == rule }.map(\.message))\n\(bundle.listing)") }
            }
            for (finding, _) in plan.edits {
                applied += 1
                byRule[finding.rule, default: 0] += 1
                if after.diagnostics.contains(where: { $0.file == finding.file && $0.rule == finding.rule && $0.position == finding.position && $0.subject == finding.subject && $0.message == finding.message }) {
                    failures.append("seed \(seed): \(finding.rule) at \(finding.file):\(finding.position) is still there after its fix")
                }
            }
        }
        print("fixes: \(applied) applied, \(skipped) left out, on \(count) bundles; by rule: " + byRule.keys.sorted().map { "\($0) \(byRule[$0]!)" }.joined(separator: ", "))
        #expect(skipped == 0, "a fix did not find its name where the finding says: lines counted otherwise than the reader does?")
        #expect(failures.isEmpty, Comment(rawValue: failures.prefix(3).joined(separator: "\n\n")))
        #expect(applied > count / 2, "the planted typos give too few fixes to judge")
    }
}
