import FlowKit
import Foundation

/// `coverage`: adds up coverage files written by `simulate` (docs/format.md, "Coverage"), writes the sum and its
/// reports, prints the table and checks the thresholds.
package enum CoverageFrontend {
    /// What a merge is asked to do.
    package struct Options: Sendable, Equatable {
        /// The coverage files (JSON), added up in order.
        package var files: [String]
        /// Where to write the sum as coverage JSON.
        package var output: String?
        /// Reports of the sum to write.
        package var reports: [ReportDestination<CoverageReportFormat>] = []
        /// The least percentages each flow file must reach.
        package var minimum: CoverageThreshold?
        /// Whether the table is left out.
        package var quiet = false

        package init(files: [String]) {
            self.files = files
        }
    }

    /// Merges as `options` say.
    package static func run(_ options: Options) throws(CommandError) -> CommandOutcome {
        let merged: Coverage
        let json: [UInt8]
        do {
            merged = try Coverage.merged(try options.files.map { path throws(Coverage.MergeError) in try Coverage.read(path: path) })
            json = try merged.json()
        } catch let error as Coverage.MergeError {
            throw CommandError.failure(error.message)
        } catch {
            throw CommandError.failure(CommandMessage(describing: error))
        }
        var outcome = CommandOutcome()
        if let output = options.output { outcome.write(json, to: output) }
        for report in options.reports { outcome.write(Array(report.format.reporter.render(merged).utf8), to: report.path) }
        if !options.quiet { outcome.print(CoverageTextReporter().render(merged)) }
        let shortfalls = options.minimum?.shortfalls(in: merged) ?? []
        if !shortfalls.isEmpty {
            outcome.errors = shortfalls
            outcome.status = .findings
        }
        return outcome
    }
}
