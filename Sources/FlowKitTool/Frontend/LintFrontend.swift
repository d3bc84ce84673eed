import FlowKit
import Foundation

/// `lint`: checks flow files and directories of them (docs/format.md, "Lint"), with configuration and a baseline,
/// and writes the report in one format to standard output and in others to files.
package enum LintFrontend {
    /// What a lint is asked to do.
    package struct Options: Sendable, Equatable {
        /// Flow files and directories.
        package var paths: [String]
        /// Whether a warning fails the lint too.
        package var strict = false
        /// The format of standard output.
        package var format: LintReportFormat = .text
        /// Whether text on standard output is coloured.
        package var color = false
        /// Reports to write to files too.
        package var reports: [ReportDestination<LintReportFormat>] = []
        /// The configuration file given, instead of each file's nearest `.flowkit.yml`.
        package var configuration: String?
        /// A baseline whose findings are hidden.
        package var baseline: String?
        /// Where to record the findings as a baseline instead of reporting them.
        package var writeBaseline: String?
        /// Whether nested flows outside the paths given are followed.
        package var allowOutside = false
        /// How the user follows a nested flow outside the paths anyway (in the front end's words), said in the
        /// finding of one.
        package var outsideNote: String?
        /// Whether the files skipped in directories are listed.
        package var verbose = false
        /// The version a report names.
        package var toolVersion = FlowKitVersion.current

        package init(paths: [String]) {
            self.paths = paths
        }
    }

    /// Lints as `options` say.
    package static func run(_ options: Options) throws(CommandError) -> CommandOutcome {
        let lint: LintSession.Outcome
        do {
            lint = try LintSession.lint(paths: options.paths, configuration: try options.configuration.map { try LintConfiguration.load(path: $0) },
                                        baseline: try options.baseline.map { try Baseline.load(path: $0) }, allowOutside: options.allowOutside,
                                        outsideNote: options.outsideNote)
        } catch let error as LintSetupError {
            throw CommandError(error.problems.map { CommandMessage($0) }, status: .failure)
        } catch let error as ConfigurationError {
            throw CommandError.failure(error.message)
        } catch {
            throw CommandError.failure(CommandMessage(describing: error))
        }
        var outcome = CommandOutcome()
        if options.verbose {
            for file in lint.skipped { outcome.note("skipped \(path: file): not a flow file (no top-level 'flowkit' or 'flowkit-script' key)") }
        }
        if let path = options.writeBaseline {
            guard lint.failures.isEmpty else {
                outcome.errors = (lint.failures + ["no baseline written: the lint could not check everything"]).map { CommandMessage($0) }
                outcome.status = .failure
                return outcome
            }
            let count = lint.allDiagnostics.count
            outcome.write(Array(Baseline(findings: lint.allDiagnostics, relativeTo: path).json.utf8), to: path,
                          written: "wrote \(path: path) with \(count) finding\(verbatim: count == 1 ? "" : "s")")
            return outcome
        }
        let report = lint.report(strict: options.strict, toolVersion: options.toolVersion)
        outcome.print(options.format.reporter(color: options.color).render(report))
        if lint.baselined > 0 && options.format == .text {
            outcome.note("\(lint.baselined) finding\(lint.baselined == 1 ? "" : "s") hidden by the baseline")
        }
        for destination in options.reports {
            outcome.write(Array(destination.format.reporter().render(report).utf8), to: destination.path)
        }
        outcome.errors = lint.failures.map { CommandMessage($0) }
        outcome.status = !lint.failures.isEmpty ? .failure : report.fails ? .findings : .success
        return outcome
    }
}

extension CommandMessage {
    /// The message of an error: its `LocalizedError` description, else how it describes itself.
    package init(describing error: any Error) {
        self.init((error as? LocalizedError)?.errorDescription ?? "\(error)")
    }
}
