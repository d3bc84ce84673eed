import ArgumentParser
import FlowKit
import FlowKitTool
import Foundation

/// `flowkit generate`: code generated from flow files.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        // Named here, not derived from the type: deriving it costs a scan of every protocol conformance in the
        // binary at start-up.
        commandName: "generate",
        abstract: "Generate code from flow files.",
        subcommands: [GenerateSwift.self, GenerateScenarios.self])
}

/// `flowkit generate swift`: the typed Swift an app compiles for its flows (docs/format.md, "Generated Swift").
struct GenerateSwift: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swift",
        abstract: "Write typed Swift for flow files: steps, events, results, state, entries and a typed run.",
        discussion: """
            One file per flow file (transfer.yaml gives transfer.flowkit.swift), nested flows included; a file is \
            written only when its bytes change. A flow with lint errors is refused and nothing is written. The \
            FlowKitPlugin build plugin runs the same generator at build time.

            Examples:
              flowkit generate swift flows/transfer.yaml -o Sources/App/Generated
            """)

    @Argument(help: ArgumentHelp("The flow files.", valueName: "flow"), completion: .file(extensions: ["json", "yaml", "yml"]))
    var files: [String]

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The directory to write to (made when missing).", valueName: "dir"),
            completion: .directory)
    var output: String

    @Flag(name: .long, help: "Refuse a nested flow that is not among the files named (as the build plugin does).")
    var listedOnly = false

    @OptionGroup var options: OutputOptions

    func validate() throws {
        if files.isEmpty { throw ValidationError("name at least one flow file") }
    }

    func run() throws {
        var options = GenerateFrontend.SwiftOptions(files: files, output: output)
        (options.listedOnly, options.color) = (listedOnly, self.options.color.enabled(for: STDERR_FILENO))
        try perform(GenerateFrontend.swift(options))
    }
}

struct GenerateScenarios: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenarios",
        abstract: "Write a simulation script whose scenarios cover every transition of a flow that can be taken.",
        discussion: """
            Each scenario is the shortest run found to a transition no scenario before it takes, carried on to the \
            nearest finish step; its expect is what the engine did. What cannot be covered within the budget is \
            listed on standard error and at the top of the script. With --extend, scenarios are added to an \
            existing script only for what it does not cover yet, and its own scenarios are left as they are.

            Examples:
              flowkit generate scenarios flows/transfer.yaml -o transfer.generated.yaml
            """)

    @Argument(help: ArgumentHelp("The flow file.", valueName: "flow"), completion: .file(extensions: ["json", "yaml", "yml"]))
    var flow: String

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The script to write (with --extend: that script, unless named).", valueName: "path"),
            completion: .file(extensions: ["yaml", "yml"]))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("Add scenarios to this script for what it does not cover yet.", valueName: "script"),
            completion: .file(extensions: ["yaml", "yml"]))
    var extend: String?

    @Option(name: .long, help: ArgumentHelp("The most run states the search visits.", valueName: "n"))
    var budget: Int = 20_000

    func validate() throws {
        if output == nil && extend == nil { throw ValidationError("name the script to write with -o, or one to extend with --extend") }
        if budget < 1 { throw ValidationError("--budget takes a number of run states, 1 or more") }
    }

    func run() throws {
        var options = GenerateFrontend.ScenarioOptions(flow: flow)
        (options.output, options.extend, options.budget) = (output, extend, budget)
        try perform(GenerateFrontend.scenarios(options))
    }
}
