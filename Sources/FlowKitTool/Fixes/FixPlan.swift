import FlowKit
import Foundation

/// The fixes of a lint's findings, file by file: each file read once, its fixes made into edits where it reads as
/// they expect (docs/format.md, "Fixes").
package struct FixPlan: Sendable {
    /// One file the fixes change.
    package struct File: Sendable {
        /// The path as the findings name it.
        package var path: String
        /// The path as a diff names it (relative, as given).
        package var display: String
        /// Its bytes now, and once fixed.
        package var old: [UInt8]
        package var new: [UInt8]
        /// How many findings its edits fix.
        package var fixed: Int
    }

    /// The files changed, in the order their first finding comes.
    package private(set) var files: [File] = []
    /// The edit of each finding whose fix applies.
    package private(set) var edits: [Diagnostic: TextEdit] = [:]
    /// Findings with a fix the file did not read as the fix expects (or that overlaps another): not applied.
    package private(set) var skipped = 0
    /// Files left alone because their path goes through a symbolic link: a fix writes only the file named, where it
    /// is (a link planted in a tree must not lead a fix out of it).
    package private(set) var linked: [String] = []

    /// The plan for `findings`, their files read from `contents` (canonical path to bytes) or else from disk; files
    /// that cannot be read are left alone.
    package init(_ findings: [Diagnostic], contents: [String: [UInt8]] = [:]) {
        var order: [String] = []
        var byFile: [String: [Diagnostic]] = [:]
        for finding in findings where finding.fix != nil {
            if byFile[finding.file] == nil { order.append(finding.file) }
            byFile[finding.file, default: []].append(finding)
        }
        for path in order {
            let findings = byFile[path]!
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            guard FileFlowResolver.canonical(path) == absolute else {
                linked.append(path)
                skipped += findings.count
                continue
            }
            guard let bytes = contents[absolute] ?? (try? FlowLoader.read(path: path, limit: ReaderLimits.standard.maxBytes)),
                  bytes.count <= ReaderLimits.standard.maxBytes else {
                skipped += findings.count
                continue
            }
            let format = DocumentFormat(path: path) ?? .yaml
            let lines = LineIndex(lint: bytes, format: format)
            let made = Self.readingBack(FixEdits.edits(for: findings.compactMap(\.fix), in: bytes, format: format), in: bytes, path: path)
            var fixed = 0
            for finding in findings {
                if let fix = finding.fix, let edit = FixEdits.edit(for: fix, in: bytes, lines: lines), made.contains(edit) {
                    edits[finding] = edit
                    fixed += 1
                } else {
                    skipped += 1
                }
            }
            guard !made.isEmpty else { continue }
            // A diff names files relative to the working directory, as `git apply` and `patch -p1` read them.
            let display = LintSession.displayPath(absolute)
            files.append(File(path: path, display: display, old: bytes, new: FixEdits.apply(made, to: bytes), fixed: fixed))
        }
    }

    /// The most rounds of fixes `--fix` makes (docs/format.md, "Fixes"): a round's fixes can bring findings behind a
    /// run error that always happened to light, with fixes of their own.
    package static let rounds = 8

    /// Rounds of fixes as one: each file once, from its bytes before the first round to those after the last, with
    /// the findings every round fixed; `left` is the plan of what was left after the last round (its fixes that do
    /// not apply, and the files behind a link).
    package static func merged(_ rounds: [FixPlan], left: FixPlan) -> FixPlan {
        var plan = FixPlan([])
        var index: [String: Int] = [:]
        for round in rounds {
            for file in round.files {
                if let at = index[file.path] {
                    plan.files[at].new = file.new
                    plan.files[at].fixed += file.fixed
                } else {
                    index[file.path] = plan.files.count
                    plan.files.append(file)
                }
            }
        }
        plan.skipped = left.skipped
        plan.linked = left.linked
        plan.edits = left.edits
        return plan
    }

    /// Of `edits`, those the file reads back with: no more `syntax`, `schema` or `duplicate_key` findings than
    /// before (two typos fixed to one name, or a fix to a key its mapping has, would write a key twice). All of
    /// them when they read back together, else one by one in file order, each kept when it reads back with those
    /// kept before it.
    static func readingBack(_ edits: [TextEdit], in bytes: [UInt8], path: String) -> [TextEdit] {
        guard !edits.isEmpty else { return [] }
        let format = DocumentFormat(path: path) ?? .yaml
        func counts(_ bytes: [UInt8]) -> [RuleID: Int] {
            var counts: [RuleID: Int] = [:]
            for finding in FlowLoader.load(bytes: bytes, file: path, format: format).diagnostics where [.syntax, .schema, .duplicateKey].contains(finding.rule) {
                counts[finding.rule, default: 0] += 1
            }
            return counts
        }
        let before = counts(bytes)
        func readsBack(_ trial: [TextEdit]) -> Bool {
            let after = counts(FixEdits.apply(trial, to: bytes))
            return after.allSatisfy { $0.value <= before[$0.key, default: 0] }
        }
        if readsBack(edits) { return edits }
        var kept: [TextEdit] = []
        for edit in edits where readsBack(kept + [edit]) { kept.append(edit) }
        return kept
    }

    /// "fixed 3 findings in 2 files", or with `applied` false "would fix …", and the findings whose fix did not
    /// apply.
    package func summary(applied: Bool) -> CommandMessage {
        let count = files.reduce(0) { $0 + $1.fixed }
        var text: CommandMessage = "\(verbatim: applied ? "fixed" : "would fix") \(count) finding\(verbatim: count == 1 ? "" : "s") in \(files.count) file\(verbatim: files.count == 1 ? "" : "s")"
        if !linked.isEmpty {
            text = text + "; left alone, a symbolic link on the way: " + CommandMessage(joining: linked.map { "\(path: $0)" }, separator: ", ")
        }
        if skipped > 0 {
            text = text + "; \(skipped) fix\(verbatim: skipped == 1 ? "" : "es") left out: the file does not read as the finding says there, another fix overlaps it, or it is behind a link"
        }
        return text
    }
}
