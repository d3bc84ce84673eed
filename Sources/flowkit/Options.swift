import ArgumentParser
import FlowKit
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
    @Option(name: .long, help: ArgumentHelp("Output format: text or json.", valueName: "format"))
    var format: ReportFormat = .text

    @Option(name: .long, help: ArgumentHelp("Colour text output: auto (a terminal without NO_COLOR), always or never.", valueName: "when"))
    var color: ColorChoice = .auto
}

/// The formats `--format` and `--report` accept.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json

    /// The reporter for this format; `files` are the files checked (JUnit lists clean files too).
    func reporter(color: Bool, files: [String]) -> any Reporter {
        switch self {
        case .text: return TextReporter(color: color)
        case .json: return JSONReporter()
        }
    }

    /// `FORMAT:PATH` split, when FORMAT is a known format and PATH is not empty.
    static func parseReport(_ text: String) -> (ReportFormat, String)? {
        guard let colon = text.firstIndex(of: ":"), let format = ReportFormat(rawValue: String(text[..<colon])) else { return nil }
        let path = String(text[text.index(after: colon)...])
        return path.isEmpty ? nil : (format, path)
    }
}
