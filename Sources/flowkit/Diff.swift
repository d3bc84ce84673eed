import ArgumentParser
import FlowKit
import FlowKitTool

/// `flowkit diff`: the semantic changes between two versions of a flow, classified for what depends on it.
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        // Named here, not derived from the type: deriving it costs a scan of every protocol conformance in the
        // binary at start-up.
        commandName: "diff",
        abstract: "Show what changed between two versions of a flow, and what the change breaks.",
        discussion: """
            Steps, transitions, conditions, events, state, inputs, entries and outcomes are compared by meaning \
            (expressions parsed, not as text). Each change has a check and a level: breaking, warning or info \
            (see --checks). Exit 1 when --fail-on is given and a change of that level or worse is found; 2 when \
            the files cannot be compared.

            With --git REV, each flow file given (or found in the directories given) is compared with its version \
            at that git revision, read with 'git show' (no checkout).

            Examples:
              flowkit diff flows/transfer.yaml flows/transfer.json
              flowkit diff --git HEAD flows/
              flowkit diff --checks
            """)

    @Argument(help: ArgumentHelp("The old and the new flow file.", valueName: "file"), completion: .file(extensions: ["json", "yaml", "yml"]))
    var files: [String] = []

    @Option(name: .long, help: ArgumentHelp("Compare each file with its version at this git revision.", valueName: "rev"))
    var git: String?

    @Option(name: .long, help: ArgumentHelp("Output format: text, json, markdown, github or changelog.", valueName: "format"))
    var format: DiffFormat = .text

    @Option(name: .long, help: ArgumentHelp("The configuration file (default: each new file's nearest .flowkit.yml).", valueName: "file"),
            completion: .file(extensions: ["yml", "yaml"]))
    var config: String?

    @Option(name: .customLong("fail-on"), help: ArgumentHelp("Exit 1 when a change of this level or worse is found: breaking or warning.", valueName: "level"))
    var failOn: FailLevel?

    @Flag(name: .customLong("fix-scripts"), help: "Rewrite the scripts of the compared flows for the steps, events and outcomes they renamed.")
    var fixScripts = false

    @Flag(name: .long, help: "List the checks with their levels.")
    var checks = false

    /// The levels `--fail-on` takes.
    enum FailLevel: String, ExpressibleByArgument, CaseIterable {
        case breaking, warning
    }

    func validate() throws {
        if checks && !files.isEmpty { throw ValidationError("--checks lists the checks; give it without files") }
        if !checks && git == nil && files.count != 2 { throw ValidationError("give the old and the new flow file (\(files.count) given)") }
        if git != nil && files.isEmpty { throw ValidationError("--git compares the flow files or directories given; name at least one") }
    }

    func run() throws {
        var options = DiffFrontend.Options(files: files, revision: git, format: format, configuration: config, fixScripts: fixScripts)
        (options.failOn, options.listChecks) = (failOn.map { $0 == .breaking ? .breaking : .warning }, checks)
        try perform(DiffFrontend.run(options))
    }
}

extension DiffFormat: ExpressibleByArgument {}
