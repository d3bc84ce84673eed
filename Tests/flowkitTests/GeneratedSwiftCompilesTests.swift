import Foundation
import Testing
import FlowGen
import FlowKit
@testable import FlowKitTool

/// Property: the Swift that `flowkit generate swift` writes compiles with no warning (`-warnings-as-errors`, Swift 6
/// language mode) against the FlowKit module, for the sample flows, a flow of names Swift reserves, random
/// lint-clean flows with nested flows, and random flows whose names are drawn from Swift's keywords, standard members
/// and the generated code's own type names, all in one module. (`make check-package` builds and runs such code in an
/// app through the plugin.)
@Suite("Generated Swift compiles")
struct GeneratedSwiftCompilesTests {
    @Test func generatedSwiftTypeChecksWithoutWarnings() throws {
        let folder = NSTemporaryDirectory() + "flowkit-generated-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        // The samples and the flow of reserved names, through the command.
        let samples = try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/flows")
            .filter { ($0.hasSuffix(".yaml") || $0.hasSuffix(".json")) && $0 != "transfer.json" }.sorted().map { "flows/" + $0 }
        let result = try flowkit(["generate", "swift"] + samples + ["Tests/Fixtures/reserved-names.yaml", "-o", folder + "/out"])
        #expect(result.status == 0, "\(result.stderr)")

        // Random flows with nested flows: those lint finds clean, each bundle's flows renamed so that all fit in one
        // module.
        var clean = 0
        var seed: UInt64 = 1
        while clean < 25 && seed < 3_000 {
            defer { seed += 1 }
            var bundle = BlueprintGenerator.bundle(seed: seed)
            bundle.main.flow.name += "S\(seed)"
            for index in bundle.children.indices { bundle.children[index].flow.name += "S\(seed)" }
            let inputs = bundle.files.map { SwiftGenerator.Input(name: "b\(seed)/" + $0.name, bytes: Array($0.text.utf8)) }
            guard let generated = try? SwiftGenerator.generate(inputs, read: nil) else { continue }
            clean += 1
            for output in generated.outputs {
                try output.contents.write(toFile: folder + "/out/b\(seed)-" + output.fileName, atomically: true, encoding: .utf8)
            }
        }
        #expect(clean == 25, "only \(clean) random bundles were lint-clean")

        // The same with every name of a flow (steps, state and result keys, events, entries) replaced by names Swift
        // or the generated code already uses (issue 29): keywords, `none` and `some`, standard members, generated
        // type names. A bundle a replacement makes unclean is skipped; 12 must be clean.
        var hostile = 0
        var round: UInt64 = 0
        while hostile < 12 && round < 3_000 {
            defer { round += 1 }
            var bundle = BlueprintGenerator.bundle(seed: 10_000 + round)
            bundle.main.flow.name += "H\(round)"
            for index in bundle.children.indices { bundle.children[index].flow.name += "H\(round)" }
            let inputs = bundle.files.map { file in
                SwiftGenerator.Input(name: "h\(round)/" + file.name, bytes: Array(Self.renamed(file.text, flow: file.flow, round: round).utf8))
            }
            guard let generated = try? SwiftGenerator.generate(inputs, read: nil) else { continue }
            hostile += 1
            for output in generated.outputs {
                try output.contents.write(toFile: folder + "/out/h\(round)-" + output.fileName, atomically: true, encoding: .utf8)
            }
        }
        #expect(hostile == 12, "only \(hostile) bundles with hostile names were lint-clean")

        let files = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").sorted().map { folder + "/out/" + $0 }
        #expect(files.count > samples.count + 37)
        let check = try typeCheckAgainstFlowKit(files, moduleName: "Generated")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// Names Swift reserves or the generated code uses, for `renamed`.
    static let hostileNames = ["class", "struct", "default", "none", "some", "self", "Self", "Type", "init", "CodingKeys", "hashValue",
                               "description", "State", "Step", "Event", "Outcome", "Current", "Run", "Inputs", "Entry", "Completion",
                               "EventCompletion", "Int", "String", "Swift", "FlowKit", "Any", "rawValue", "allCases", "values", "hash",
                               "Protocol", "where", "return", "in", "is", "as", "throws", "async", "await", "inout", "var", "let", "func",
                               "Optional", "Never", "Void", "debugDescription", "encode", "decode", "hasher", "from", "to", "_"]

    /// `text` with each name of `flow` (steps, state keys, result keys, events, entries) replaced, as a whole word,
    /// by one of `hostileNames` (each used once a file).
    static func renamed(_ text: String, flow: FlowBlueprint, round: UInt64) -> String {
        var names: [String] = flow.steps.map(\.name) + flow.state.map(\.name) + flow.events.map(\.name) + flow.entries.map(\.name)
        for step in flow.steps { names += (step.result ?? []).map(\.name) }
        var unique: [String] = []
        for name in names where !unique.contains(name) { unique.append(name) }
        var pool = hostileNames
        var rng = SplitMix64(seed: round)
        var output = text
        for name in unique where !pool.isEmpty {
            guard rng.chance(0.6) else { continue }
            let replacement = pool.remove(at: rng.below(pool.count))
            output = output.replacingOccurrences(of: "\\b\(name)\\b", with: replacement, options: .regularExpression)
        }
        return output
    }
}
