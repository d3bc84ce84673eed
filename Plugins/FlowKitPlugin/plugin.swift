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
        let flows = target.sourceFiles
            .map(\.url)
            .filter { ["yaml", "yml", "json"].contains($0.pathExtension.lowercased()) }
            .sorted { $0.path < $1.path }
        guard !flows.isEmpty else { return [] }
        let directory = context.pluginWorkDirectoryURL.appending(path: "GeneratedSources")
        // The same name as SwiftGenerator.outputName(for:): the base name without its extension, then .flowkit.swift.
        let outputs = flows.map { directory.appending(path: $0.deletingPathExtension().lastPathComponent + ".flowkit.swift") }
        return [
            .buildCommand(
                displayName: "Generating Swift for the flows of \(target.name)",
                executable: try context.tool(named: "FlowKitGenerator").url,
                arguments: ["--listed-only", "-o", directory.path] + flows.map(\.path),
                inputFiles: flows,
                outputFiles: outputs
            )
        ]
    }
}
