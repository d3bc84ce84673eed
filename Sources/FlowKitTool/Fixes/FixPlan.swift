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

    /// The plan for `findings`; files that cannot be read are left alone.
    package init(_ findings: [Diagnostic]) {
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
            guard let bytes = try? FlowLoader.read(path: path, limit: ReaderLimits.standard.maxBytes), bytes.count <= ReaderLimits.standard.maxBytes else {
                skipped += findings.count
                continue
            }
            let made = FixEdits.edits(for: findings.compactMap(\.fix), in: bytes)
            var fixed = 0
            for finding in findings {
                if let fix = finding.fix, let edit = FixEdits.edit(for: fix, in: bytes), made.contains(edit) {
                    edits[finding] = edit
                    fixed += 1
                } else {
                    skipped += 1
                }
            }
            guard !made.isEmpty else { continue }
            // A diff names files relative to the working directory, as `git apply` and `patch -p1` read them.
            let display = path.hasPrefix("/") ? LintSession.displayPath(FileFlowResolver.canonical(path)) : path
            files.append(File(path: path, display: display, old: bytes, new: FixEdits.apply(made, to: bytes), fixed: fixed))
        }
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
