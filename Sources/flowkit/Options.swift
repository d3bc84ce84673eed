import ArgumentParser
import FlowKit
import FlowKitTool
import Foundation

/// When to colour text output.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    /// Whether to colour output written to `descriptor`: `auto` colours a terminal unless `NO_COLOR` is set.
    func enabled(for descriptor: Int32) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let value = ProcessInfo.processInfo.environment["NO_COLOR"], !value.isEmpty { return false }
            if ProcessInfo.processInfo.environment["TERM"] == "dumb" { return false }
            return isatty(descriptor) == 1
        }
    }
}

/// Output options shared by the commands that print findings.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Output format: text, json, sarif, github, junit, xcode or checkstyle.", valueName: "format"))
    var format: LintReportFormat = .text

    @Option(name: .long, help: ArgumentHelp("Colour text output: auto (a terminal without NO_COLOR), always or never.", valueName: "when"))
    var color: ColorChoice = .auto
}

extension LintReportFormat: ExpressibleByArgument {}

extension ReportDestination {
    /// `FORMAT:PATH` read from the command line, once (`transform:`).
    static func parsed(_ text: String) throws -> ReportDestination {
        guard let destination = ReportDestination(parsing: text) else {
            throw ValidationError("give FORMAT:PATH with a format of \(Format.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return destination
    }
}

extension CoverageThreshold {
    /// `kind=percent,...` read from the command line, once (`transform:`).
    static func parsed(_ text: String) throws -> CoverageThreshold {
        do {
            return try CoverageThreshold(parsing: text)
        } catch {
            throw ValidationError(error.message.line)
        }
    }
}

extension CommandOption {
    /// How the command line spells the option.
    var flag: String {
        switch self {
        case .script: return "--script"
        case .events: return "--events"
        case .state: return "--state"
        case .trace: return "--trace"
        case .coverage: return "--coverage"
        case .focus: return "--focus"
        case .output: return "-o"
        case .coverageReport: return "--coverage-report"
        case .extend: return "--extend"
        case .git: return "--git"
        case .traceOut: return "--trace-out"
        case .writeBaseline: return "--write-baseline"
        case .fixScripts: return "--fix-scripts"
        }
    }
}

extension CommandMessage {
    /// The message as the command line prints it: options spelled as flags.
    var line: String { text { $0.flag } }
}

/// Prints and writes what a command's frontend returned, in order, and ends as it says: the one place where a
/// command's outputs reach standard output, standard error and files. A failed write is an error (exit 2) after
/// the other outputs.
func perform(_ outcome: CommandOutcome) throws(CommandError) {
    var errors = outcome.errors
    var standardOutputFailed = false
    for output in outcome.outputs {
        switch output {
        case .standardOutput(let text):
            guard !standardOutputFailed else { continue }
            do {
                try StandardOutput.write(text)
            } catch {
                standardOutputFailed = true
                errors.append(CommandMessage(describing: error))
            }
        case .note(let message):
            printNote(message.line)
        case .file(let path, let bytes, let written):
            // Standard output that could not be written is not written again (its error is said once).
            if path == OutputFile.standardOutputName && standardOutputFailed { continue }
            do {
                try OutputFile.write(bytes, to: path)
                if let written { printNote(written.line) }
            } catch {
                if path == OutputFile.standardOutputName { standardOutputFailed = true }
                errors.append(CommandMessage(describing: error))
            }
        }
    }
    let status: ExitStatus = errors.count > outcome.errors.count ? .failure : outcome.status
    if status != .success { throw CommandError(errors, status: status) }
}
