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

extension LintReportFormat: ExpressibleByArgument {
    /// `FORMAT:PATH` split, when FORMAT is a known format and PATH is not empty.
    static func parseReport(_ text: String) -> (LintReportFormat, String)? {
        guard let colon = text.firstIndex(of: ":"), let format = LintReportFormat(rawValue: String(text[..<colon])) else { return nil }
        let path = String(text[text.index(after: colon)...])
        return path.isEmpty ? nil : (format, path)
    }
}
