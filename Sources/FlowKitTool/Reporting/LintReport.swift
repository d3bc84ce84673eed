import FlowKit

/// The outcome of linting some files: every finding, how many files were checked and skipped, and whether
/// warnings fail the run.
package struct LintReport: Sendable {
    /// The findings, in the order they are reported.
    package var diagnostics: [Diagnostic]
    /// How many files were checked.
    package var fileCount: Int
    /// How many files found in directories were skipped as not flow files.
    package var skippedCount: Int
    /// Whether warnings fail the run (`--strict`), as errors always do.
    package var strict: Bool
    /// The files checked, in order, when the lint knows them (a JUnit report has a test per file, findings or not).
    package var files: [String]
    /// The version of flowkit that made the report (SARIF names it).
    package var toolVersion: String
    /// How many problems fail the run besides the findings (a path, file or configuration file that could not be
    /// read, a directory with no flow files; the command prints each as an error and exits 2): the text summary
    /// counts them, so that it never reads as a clean lint.
    package var problemCount: Int
    /// With `lint --witness`: the witness, or why there is none, of each finding whose rule foresees run errors
    /// (docs/format.md, "Witnesses"); nil when none were searched.
    package var witnesses: [Diagnostic: WitnessOutcome]? = nil
    /// The edit of each finding whose fix applies to its file as it is (docs/format.md, "Fixes"): what SARIF's
    /// `fixes` carry.
    package var fixEdits: [Diagnostic: TextEdit] = [:]

    /// Creates a report. Every reporter needs only the report: the files checked and flowkit's version are in it.
    package init(diagnostics: [Diagnostic], fileCount: Int, skippedCount: Int = 0, strict: Bool = false, files: [String] = [],
                toolVersion: String = FlowKitVersion.current, problemCount: Int = 0) {
        self.diagnostics = diagnostics
        self.fileCount = fileCount
        self.skippedCount = skippedCount
        self.strict = strict
        self.files = files
        self.toolVersion = toolVersion
        self.problemCount = problemCount
    }

    /// How many findings have `severity`.
    package func count(_ severity: Severity) -> Int { diagnostics.lazy.filter { $0.severity == severity }.count }

    /// Whether `diagnostic` fails the run: an error, or with `strict` a warning.
    package func fails(_ diagnostic: Diagnostic) -> Bool {
        diagnostic.severity == .error || (strict && diagnostic.severity == .warning)
    }

    /// Whether the report fails the lint (exit 1): some finding fails the run.
    package var fails: Bool { diagnostics.contains(where: fails) }
}

/// Turns a lint report into the text of one output format.
package protocol Reporter: Sendable {
    /// The format's name, as `--format` takes it.
    static var identifier: String { get }
    /// The whole output for `report`.
    func render(_ report: LintReport) -> String
}

