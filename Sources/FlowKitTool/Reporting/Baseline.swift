import Foundation
import FlowKit

/// Findings recorded once so that they no longer fail CI, while new ones do. A finding matches a recorded one by
/// rule, file, step and subject (what it is about: a key, a target, an event; see `Diagnostic.subject`), never by
/// line or by a message that may describe a path; a finding without a subject, and an entry recorded without one
/// (baselines written before subjects existed), match by message instead. Each recorded finding absorbs one
/// current finding.
package struct Baseline: Sendable {
    /// One recorded finding, with the file as a canonical path, so that `flows/a.yaml`, `./flows/a.yaml` and an
    /// absolute path match.
    struct Entry: Hashable, Sendable {
        let rule: String
        let file: String
        let step: String?
        let subject: String?
        let message: String

        /// What a finding must share with the entry to match it.
        var match: Match {
            subject.map { .subject(rule: rule, file: file, step: step, subject: $0) } ?? .message(rule: rule, file: file, step: step, message: message)
        }
    }

    /// The identity a finding is matched by.
    enum Match: Hashable, Sendable {
        case subject(rule: String, file: String, step: String?, subject: String)
        case message(rule: String, file: String, step: String?, message: String)
    }

    private var counts: [Entry: Int] = [:]
    /// The folder file paths are written relative to.
    private var folder: String

    /// A baseline of `findings`, to be written at `path` (files are recorded relative to its folder).
    package init(findings: [Diagnostic], relativeTo path: String = "baseline.json") {
        folder = FileFlowResolver.canonical(FilePath.directory(of: path).isEmpty ? "." : FilePath.directory(of: path))
        for finding in findings { counts[Self.entry(finding), default: 0] += 1 }
    }

    private static func entry(_ finding: Diagnostic) -> Entry {
        Entry(rule: finding.rule.rawValue, file: FileFlowResolver.canonical(finding.file), step: finding.step, subject: finding.subject, message: finding.message)
    }

    /// How many findings the baseline holds.
    package var count: Int { counts.values.reduce(0, +) }

    /// The findings not in the baseline, and how many were. A finding with a subject is matched by it first, then
    /// by its message (an entry of an older baseline).
    package func filter(_ findings: [Diagnostic]) -> (kept: [Diagnostic], baselined: Int) {
        var remaining: [Match: Int] = [:]
        for (entry, count) in counts { remaining[entry.match, default: 0] += count }
        var kept: [Diagnostic] = []
        var baselined = 0
        for finding in findings {
            let entry = Self.entry(finding)
            let byMessage = Match.message(rule: entry.rule, file: entry.file, step: entry.step, message: entry.message)
            let candidates = entry.subject == nil ? [byMessage] : [entry.match, byMessage]
            if let match = candidates.first(where: { (remaining[$0] ?? 0) > 0 }) {
                remaining[match]! -= 1
                baselined += 1
            } else {
                kept.append(finding)
            }
        }
        return (kept, baselined)
    }

    /// The baseline as JSON, findings sorted so that the file diffs well. Each entry has `rule`, `file`, `step`
    /// (when the finding has one), `subject` (likewise) and `message` (for people; it matches only entries
    /// without a subject).
    package var json: String {
        let entries = counts.flatMap { entry, count in Array(repeating: entry, count: count) }
            .sorted(by: Self.precedes)
            .map { entry in
                "{\"rule\": \(JSONText.string(entry.rule)), \"file\": \(JSONText.string(DisplayPath.relative(entry.file, to: folder))), "
                    + (entry.step.map { "\"step\": \(JSONText.string($0)), " } ?? "")
                    + (entry.subject.map { "\"subject\": \(JSONText.string($0)), " } ?? "")
                    + "\"message\": \(JSONText.string(entry.message))}"
            }
        return "{\"flowkitBaseline\": 1, \"findings\": [" + (entries.isEmpty ? "" : "\n  " + entries.joined(separator: ",\n  ") + "\n") + "]}\n"
    }

    /// The order of entries in `json`: by file, rule, step, subject, then message.
    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        let left: [String] = [a.file, a.rule, a.step ?? "", a.subject ?? "", a.message]
        let right: [String] = [b.file, b.rule, b.step ?? "", b.subject ?? "", b.message]
        return left.lexicographicallyPrecedes(right)
    }

    /// Reads a baseline written by `json` (with or without subjects).
    package static func load(path: String) throws -> Baseline {
        let bytes = try FlowLoader.read(path: path, limit: 64 << 20)
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              object["flowkitBaseline"] as? Int == 1, let list = object["findings"] as? [[String: Any]] else {
            throw ConfigurationError(message: "\(verbatim: path): not a flowkit baseline (write one with \(CommandOption.writeBaseline))")
        }
        var baseline = Baseline(findings: [], relativeTo: path)
        for item in list {
            guard let rule = item["rule"] as? String, let file = item["file"] as? String, let message = item["message"] as? String else {
                throw ConfigurationError(message: "\(verbatim: path): a baseline finding needs 'rule', 'file' and 'message'")
            }
            let absolute = file.hasPrefix("/") ? file : (baseline.folder as NSString).appendingPathComponent(file)
            let entry = Entry(rule: rule, file: FileFlowResolver.canonical(absolute), step: item["step"] as? String,
                              subject: item["subject"] as? String, message: message)
            baseline.counts[entry, default: 0] += 1
        }
        return baseline
    }
}
