import Foundation

/// Findings recorded once so that they no longer fail CI, while new ones do. A finding matches a recorded one by
/// rule, file, step and message (not by line, so edits elsewhere in the file keep it matched); each recorded
/// finding absorbs one current finding.
public struct Baseline: Sendable {
    /// What identifies a finding in a baseline.
    struct Key: Hashable, Sendable {
        let rule: String
        let file: String
        let step: String?
        let message: String
    }

    /// Keys with the file as a canonical path, so that `flows/a.yaml`, `./flows/a.yaml` and an absolute path match.
    private var counts: [Key: Int] = [:]
    /// The folder file paths are written relative to.
    private var folder: String

    /// A baseline of `findings`, to be written at `path` (files are recorded relative to its folder).
    public init(findings: [Diagnostic], relativeTo path: String = "baseline.json") {
        folder = FileFlowResolver.canonical((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent)
        for finding in findings { counts[Self.key(finding), default: 0] += 1 }
    }

    private static func key(_ finding: Diagnostic) -> Key {
        Key(rule: finding.rule, file: FileFlowResolver.canonical(finding.file), step: finding.step, message: finding.message)
    }

    /// How many findings the baseline holds.
    public var count: Int { counts.values.reduce(0, +) }

    /// The findings not in the baseline, and how many were.
    public func filter(_ findings: [Diagnostic]) -> (kept: [Diagnostic], baselined: Int) {
        var remaining = counts
        var kept: [Diagnostic] = []
        var baselined = 0
        for finding in findings {
            let key = Self.key(finding)
            if let left = remaining[key], left > 0 {
                remaining[key] = left - 1
                baselined += 1
            } else {
                kept.append(finding)
            }
        }
        return (kept, baselined)
    }

    /// The baseline as JSON, findings sorted so that the file diffs well.
    public var json: String {
        let entries = counts.flatMap { key, count in Array(repeating: key, count: count) }
            .sorted { ($0.file, $0.rule, $0.step ?? "", $0.message) < ($1.file, $1.rule, $1.step ?? "", $1.message) }
            .map { key in
                "{\"rule\": \(JSONText.string(key.rule)), \"file\": \(JSONText.string(DisplayPath.relative(key.file, to: folder))), "
                    + (key.step.map { "\"step\": \(JSONText.string($0)), " } ?? "") + "\"message\": \(JSONText.string(key.message))}"
            }
        return "{\"flowkitBaseline\": 1, \"findings\": [" + (entries.isEmpty ? "" : "\n  " + entries.joined(separator: ",\n  ") + "\n") + "]}\n"
    }

    /// Reads a baseline written by `json`.
    public static func load(path: String) throws -> Baseline {
        let bytes = try FlowLoader.read(path: path, limit: 64 << 20)
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              object["flowkitBaseline"] as? Int == 1, let list = object["findings"] as? [[String: Any]] else {
            throw ConfigurationError(message: "\(path): not a flowkit baseline (write one with --write-baseline)")
        }
        var baseline = Baseline(findings: [], relativeTo: path)
        for item in list {
            guard let rule = item["rule"] as? String, let file = item["file"] as? String, let message = item["message"] as? String else {
                throw ConfigurationError(message: "\(path): a baseline finding needs 'rule', 'file' and 'message'")
            }
            let absolute = file.hasPrefix("/") ? file : (baseline.folder as NSString).appendingPathComponent(file)
            baseline.counts[Key(rule: rule, file: FileFlowResolver.canonical(absolute), step: item["step"] as? String, message: message), default: 0] += 1
        }
        return baseline
    }
}
