@testable import FlowKit
@testable import FlowKitTool
import Foundation
import Testing
import TestSupport

/// The malformed-input corpus: flows and scripts named for what they break, `expected.txt`, and `regressions/`.
let malformedCorpus = packageRoot + "/Tests/FlowKitTests/Malformed/Corpus"

/// What `flowkit lint` must make of one input.
struct LintExpectation: Sendable {
    /// The exit status: 0 no finding at error severity, 1 findings at error severity, 2 the input could not be checked.
    var exit: Int32
    /// Every rule with a finding in the input itself.
    var rules: Set<String> = []
    /// Where the input's first finding is; nil when it has none.
    var first: SourcePosition?
    /// Text that a message at `first` contains (for exit 2: the failure); nil to leave the messages unchecked.
    var message: String?
    /// Why the tool does not give this outcome yet; the check then records a known issue instead of a failure.
    var knownBug: String?
}

/// `expected.txt`: one line per corpus file, `file | exit | rules | line:column | message`, optionally followed by
/// `| known bug: why`; `-` stands for none, and `#` starts a comment line.
enum CorpusManifest {
    /// A line that does not follow the format.
    struct Malformed: Error, CustomStringConvertible {
        /// The 1-based line number.
        let line: Int
        /// What is wrong with it.
        let problem: String

        var description: String { "expected.txt:\(line): \(problem)" }
    }

    /// The expectations in the corpus's manifest, by file name relative to the corpus folder.
    static func load() throws -> [String: LintExpectation] {
        try parse(String(contentsOfFile: malformedCorpus + "/expected.txt", encoding: .utf8))
    }

    /// The expectations in manifest text, by file name.
    static func parse(_ text: String) throws -> [String: LintExpectation] {
        var expectations: [String: LintExpectation] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            if line.allSatisfy(\.isWhitespace) || line.hasPrefix("#") { continue }
            let fields = line.components(separatedBy: " | ").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 5 || fields.count == 6 else {
                throw Malformed(line: number, problem: "expected 5 fields (or 6 with a known bug), found \(fields.count)")
            }
            guard let exit = Int32(fields[1]), (0...2).contains(exit) else {
                throw Malformed(line: number, problem: "the exit status must be 0, 1 or 2, not '\(fields[1])'")
            }
            var expectation = LintExpectation(exit: exit)
            if fields[2] != "-" { expectation.rules = Set(fields[2].split(separator: ",").map(String.init)) }
            if fields[3] != "-" {
                let parts = fields[3].split(separator: ":").compactMap { Int($0) }
                guard parts.count == 2 else { throw Malformed(line: number, problem: "the position must be line:column, not '\(fields[3])'") }
                expectation.first = SourcePosition(line: parts[0], column: parts[1])
            }
            if fields[4] != "-" { expectation.message = fields[4] }
            if fields.count == 6 {
                guard fields[5].hasPrefix("known bug: ") else { throw Malformed(line: number, problem: "the sixth field must start with 'known bug: '") }
                expectation.knownBug = String(fields[5].dropFirst("known bug: ".count))
            }
            guard expectations.updateValue(expectation, forKey: fields[0]) == nil else {
                throw Malformed(line: number, problem: "'\(fields[0])' is listed twice")
            }
        }
        return expectations
    }
}

/// One file linted as `flowkit lint FILE` does it (its folder the tree nested flows must stay in), with a fixed
/// empty configuration so that no `.flowkit.yml` above the checkout changes the outcome.
struct MalformedLint {
    /// The file, as given.
    let path: String
    /// The exit status `flowkit lint` would give.
    let exit: Int32
    /// The findings in the file itself, by position.
    let findings: [Diagnostic]
    /// Every finding, nested flows' included.
    let allFindings: [Diagnostic]
    /// Why files could not be checked.
    let failures: [String]

    /// Lints `path`.
    init(_ path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let outcome = LintSession(roots: [folder], configuration: LintConfiguration(directory: folder)).run([path])
        self.path = path
        allFindings = outcome.diagnostics
        findings = outcome.diagnostics.filter { $0.file == path }.sorted { $0.position < $1.position }
        failures = outcome.failures
        exit = !failures.isEmpty ? 2 : outcome.diagnostics.contains { $0.severity == .error } ? 1 : 0
    }

    /// The findings and failures, one per line, for issue messages.
    var summary: String {
        let lines = allFindings.map { "\($0.file == path ? "" : $0.file + ":")\($0.position) [\($0.rule)] \($0.message)" } + failures
        return lines.isEmpty ? "no findings" : lines.joined(separator: "\n")
    }

    /// Records an issue for every way the outcome differs from `expectation` (when given) or breaks the rules every
    /// outcome keeps: positions are 1-based, no message names the file's folder or a Foundation error domain, and
    /// failures name the file. With a known bug, the differences are recorded as a known issue.
    func check(_ expectation: LintExpectation?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let bug = expectation?.knownBug else {
            checkWithoutKnownBug(expectation, sourceLocation: sourceLocation)
            return
        }
        withKnownIssue(Comment(rawValue: bug), sourceLocation: sourceLocation) {
            checkWithoutKnownBug(expectation, sourceLocation: sourceLocation)
        }
    }

    private func checkWithoutKnownBug(_ expectation: LintExpectation?, sourceLocation: SourceLocation) {
        let folder = (path as NSString).deletingLastPathComponent
        let hazards = Set([folder, FileFlowResolver.canonical(folder)]).filter { $0.hasPrefix("/") }.map { $0 + "/" } + ["Error Domain"]
        for finding in allFindings {
            #expect(finding.position.line >= 1 && finding.position.column >= 1, "\(finding)", sourceLocation: sourceLocation)
            for hazard in hazards {
                #expect(!finding.message.contains(hazard), "a message shows '\(hazard)': \(finding.message)", sourceLocation: sourceLocation)
            }
        }
        for failure in failures {
            #expect(failure.contains(path), "a failure must name the file: \(failure)", sourceLocation: sourceLocation)
            #expect(!failure.contains("Error Domain"), "\(failure)", sourceLocation: sourceLocation)
        }
        guard let expectation else { return }
        #expect(exit == expectation.exit, "exit status; got:\n\(summary)", sourceLocation: sourceLocation)
        #expect(Set(findings.map(\.rule.rawValue)) == expectation.rules, "rules; got:\n\(summary)", sourceLocation: sourceLocation)
        #expect(findings.first?.position == expectation.first, "first finding; got:\n\(summary)", sourceLocation: sourceLocation)
        if let message = expectation.message {
            let candidates = expectation.exit == 2 ? failures : findings.filter { $0.position == findings.first?.position }.map(\.message)
            #expect(candidates.contains { $0.contains(message) }, "no message contains '\(message)'; got:\n\(summary)", sourceLocation: sourceLocation)
        }
    }
}
