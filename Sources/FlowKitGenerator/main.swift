import FlowKit
import FlowKitTool
import Foundation

// The tool the FlowKitPlugin build plugin runs: `FlowKitGenerator [--listed-only] -o DIR FLOW...`, the generator of
// `flowkit generate swift` without the command line's other parts (it needs neither Graphviz nor ArgumentParser).
// Findings are printed as Xcode shows them (`file:line:column: error: message`); exit 1 on an error.

var arguments = Array(CommandLine.arguments.dropFirst())
var listedOnly = false
var output: String?
var files: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--listed-only": listedOnly = true
    case "-o", "--output":
        guard !arguments.isEmpty else {
            StandardOutput.writeError("FlowKitGenerator: error: -o needs a directory\n")
            exit(2)
        }
        output = arguments.removeFirst()
    default: files.append(argument)
    }
}
guard let output, !files.isEmpty else {
    StandardOutput.writeError("usage: FlowKitGenerator [--listed-only] -o DIR FLOW...\n")
    exit(2)
}
do {
    let outcome = try SwiftGeneration(paths: files, outputDirectory: output, listedOnly: listedOnly).run()
    StandardOutput.writeError(XcodeReporter().render(LintReport(diagnostics: outcome.warnings, fileCount: files.count)))
} catch let failure as SwiftGenerator.Failure {
    StandardOutput.writeError(XcodeReporter().render(LintReport(diagnostics: failure.diagnostics, fileCount: files.count)))
    StandardOutput.writeError("error: " + failure.message.description + "\n")
    exit(1)
} catch {
    let description = (error as? LocalizedError)?.errorDescription ?? "\(error)"
    StandardOutput.writeError("error: " + Identifier.display(description, limit: .max, quoting: false) + "\n")
    exit(1)
}
