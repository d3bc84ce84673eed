/// The outcome of linting some files: every finding, how many files were checked and skipped, and whether
/// warnings fail the run.
public struct LintReport: Sendable {
    /// The findings, in the order they are reported.
    public var diagnostics: [Diagnostic]
    /// How many files were checked.
    public var fileCount: Int
    /// How many files found in directories were skipped as not flow files.
    public var skippedCount: Int
    /// Whether warnings fail the run (`--strict`), as errors always do.
    public var strict: Bool
    /// The files checked, in order, when the lint knows them (a JUnit report has a test per file, findings or not).
    public var files: [String]
    /// The version of flowkit that made the report (SARIF names it).
    public var toolVersion: String
    /// How many problems fail the run besides the findings (a path, file or configuration file that could not be
    /// read, a directory with no flow files; the command prints each as an error and exits 2): the text summary
    /// counts them, so that it never reads as a clean lint.
    public var problemCount: Int

    /// Creates a report. Every reporter needs only the report: the files checked and flowkit's version are in it.
    public init(diagnostics: [Diagnostic], fileCount: Int, skippedCount: Int = 0, strict: Bool = false, files: [String] = [],
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
    public func count(_ severity: Severity) -> Int { diagnostics.lazy.filter { $0.severity == severity }.count }

    /// Whether `diagnostic` fails the run: an error, or with `strict` a warning.
    public func fails(_ diagnostic: Diagnostic) -> Bool {
        diagnostic.severity == .error || (strict && diagnostic.severity == .warning)
    }

    /// Whether the report fails the lint (exit 1): some finding fails the run.
    public var fails: Bool { diagnostics.contains(where: fails) }
}

/// Turns a lint report into the text of one output format.
public protocol Reporter: Sendable {
    /// The format's name, as `--format` takes it.
    static var identifier: String { get }
    /// The whole output for `report`.
    func render(_ report: LintReport) -> String
}

/// Minimal JSON writing helpers for the reporters, which keep their keys in a fixed order.
enum JSONText {
    /// `text` as a JSON string literal.
    static func string(_ text: String) -> String {
        var output = "\""
        output.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }
}
