import Foundation
import PackagePlugin

/// Generates typed Swift for the flow files of a target at build time (docs/format.md, "Generated Swift"): every
/// `.yaml`, `.yml` and `.json` file in the target's sources gives `NAME.flowkit.swift` in the build's own directory,
/// compiled with the target and written again when a flow file changes. A file that is not a flow gives a file with
/// only a comment; a nested flow must be in the target too.
@main
struct FlowKitPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        return try Self.commands(files: target.sourceFiles.map(\.url), target: target.name, workDirectory: context.pluginWorkDirectoryURL,
                                 tool: context.tool(named: "FlowKitGenerator").url)
    }

    /// The one build command for `files` (those that may be flows), or none when there is no such file.
    static func commands(files: [URL], target: String, workDirectory: URL, tool: URL) -> [Command] {
        let flows = files
            .filter { ["yaml", "yml", "json"].contains($0.pathExtension.lowercased()) }
            .sorted { $0.path < $1.path }
        guard !flows.isEmpty else { return [] }
        let directory = workDirectory.appending(path: "GeneratedSources")
        // The same name as SwiftGenerator.outputName(for:): the base name without its extension, then .flowkit.swift.
        let outputs = flows.map { directory.appending(path: $0.deletingPathExtension().lastPathComponent + ".flowkit.swift") }
        return [
            .buildCommand(
                displayName: "Generating Swift for the flows of \(target)",
                executable: tool,
                arguments: ["--listed-only", "-o", directory.path] + flows.map(\.path),
                inputFiles: flows,
                outputFiles: outputs
            )
        ]
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension FlowKitPlugin: XcodeBuildToolPlugin {
    /// The same for a target of an Xcode project: its input files that may be flows.
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try Self.commands(files: target.inputFiles.map(\.url), target: target.displayName, workDirectory: context.pluginWorkDirectoryURL,
                          tool: context.tool(named: "FlowKitGenerator").url)
    }
}
#endif
