import FlowKit

/// `flowkit diff`'s default output: `FILE:LINE:COLUMN: LEVEL: MESSAGE [CHECK]` per change, at the new file's position
/// (the old file's for what was removed), then the summary line.
package struct DiffTextReporter: DiffReporter {
    package static let identifier = "text"

    /// Creates a text reporter.
    package init() {}

    package func render(_ report: DiffReport) -> String {
        var output = ""
        for change in report.changes {
            let place = change.new ?? change.old
            let lead = place.map { "\(Identifier.display($0.file, limit: .max, quoting: false)):\($0.line):\($0.column): " } ?? ""
            output += lead + "\(change.level.rawValue): \(Identifier.display(change.message, limit: .max, quoting: false)) [\(change.check.rawValue)]\n"
        }
        return output + report.summaryLine + "\n"
    }
}
