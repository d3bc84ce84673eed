import Foundation
import Testing

/// A fresh temporary folder, removed by the caller.
func temporaryFolder() throws -> String {
    let path = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("flowkit-render-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// A chain of `steps` steps where each also jumps somewhere far away: slow for Graphviz to lay out.
func jumpyFlow(steps: Int) -> String {
    var yaml = "flowkit: 1\nflow: big\nstart: s0\nevents: { jump: }\nsteps:\n"
    for i in 0..<steps { yaml += "  s\(i): { on: { jump: s\((i * 7919 + 13) % steps) }, next: \(i + 1 < steps ? "s\(i + 1)" : "done") }\n" }
    return yaml + "  done: { kind: finish }\n"
}

@Suite("flowkit render")
struct RenderCommandTests {
    @Test(arguments: ["png", "svg", "dot", "mermaid"])
    func writesNextToTheInputByDefault(_ format: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/transfer.json", toPath: folder + "/transfer.json")
        let result = try flowkit(["render", "--\(format)", folder + "/transfer.json"])
        #expect(result.status == 0, "\(result.stderr)")
        let ext = format == "mermaid" ? "mmd" : format
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/transfer." + ext))
        switch format {
        case "png": #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        case "svg": #expect(String(decoding: data, as: UTF8.self).contains("<svg"))
        case "dot": #expect(String(decoding: data, as: UTF8.self).hasPrefix("digraph flow {"))
        default: #expect(String(decoding: data, as: UTF8.self).contains("stateDiagram-v2"))
        }
        #expect(result.stderr == "wrote \(folder)/transfer.\(ext)\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }

    @Test func dashWritesToStandardOutput() throws {
        let result = try flowkit(["render", "--mermaid", "flows/booking.json", "-o", "-"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("stateDiagram-v2"))
        #expect(result.stderr.isEmpty)
        let dot = try flowkit(["render", "--format", "dot", "flows/transfer.yaml", "-o", "-", "--rankdir", "TB"])
        #expect(dot.stdout.contains("rankdir=TB"))
    }

    @Test func twoFormatsAreABadArgument() throws {
        let result = try flowkit(["render", "--png", "--svg", "flows/transfer.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("choose one format"))
    }

    @Test func badEngineExitsTwoAndKeepsTheExistingFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/transfer.yaml", toPath: folder + "/transfer.yaml")
        try "a good picture".write(toFile: folder + "/transfer.svg", atomically: true, encoding: .utf8)
        let result = try flowkit(["render", "--svg", "--engine", "nosuchengine", folder + "/transfer.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Graphviz has no layout engine 'nosuchengine'"))
        #expect(try String(contentsOfFile: folder + "/transfer.svg", encoding: .utf8) == "a good picture")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["transfer.svg", "transfer.yaml"])
    }

    @Test func unwritableDestinationIsAClearError() throws {
        let result = try flowkit(["render", "--svg", "flows/transfer.yaml", "-o", "/nonexistent-folder/x.svg"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent-folder/x.svg: cannot write the file"))
    }

    @Test func timeoutEndsTheCommandWithoutAFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try jumpyFlow(steps: 3000).write(toFile: folder + "/big.yaml", atomically: true, encoding: .utf8)
        let result = try flowkit(["render", "--svg", "--timeout", "0.2", folder + "/big.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("gave up after 0.2 s"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["big.yaml"])
    }

    @Test func twentyThousandStepsGiveUpInBoundedTimeWithoutAFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try jumpyFlow(steps: 20_000).write(toFile: folder + "/huge.yaml", atomically: true, encoding: .utf8)
        let result = try flowkit(["render", "--svg", "--timeout", "2", folder + "/huge.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("gave up after 2 s"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["huge.yaml"])
    }

    /// A write that fails part-way (here the file-size limit, as a full disk would) leaves the good file alone.
    @Test func aFailedWriteKeepsTheGoodFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/transfer.yaml", toPath: folder + "/transfer.yaml")
        try "a good picture".write(toFile: folder + "/transfer.svg", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "trap '' XFSZ; ulimit -f 2; exec \"$0\" render --svg \"$1\"", flowkitBinary, folder + "/transfer.yaml"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(stderr.contains("transfer.svg: cannot write the file: file too large"), "\(stderr)")
        #expect(try String(contentsOfFile: folder + "/transfer.svg", encoding: .utf8) == "a good picture")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["transfer.svg", "transfer.yaml"])
    }

    @Test func focusOnAnUnknownStepSuggests() throws {
        let result = try flowkit(["render", "--svg", "flows/transfer.yaml", "--focus", "tarifs", "-o", "-"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("step 'tarifs' is not in the flow; did you mean 'tariffs'?"))
    }

    @Test func focusDrawsTheNeighbourhood() throws {
        let result = try flowkit(["render", "--dot", "flows/transfer.yaml", "--focus", "success", "--radius", "1", "-o", "-"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("label=\"Transfer sent\\nsuccess\""))
        #expect(!result.stdout.contains("tariffs\""))
    }

    @Test func aFlowWithSchemaErrorsIsNotDrawn() throws {
        let result = try flowkit(["render", "--svg", "flows/broken/schema.yaml", "-o", "-"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("[schema]"))
        #expect(result.stdout.isEmpty)
    }

    @Test func aFailedRunAndADeepLinkedRunAreDrawnAsTheyHappened() throws {
        let path = try folder(with: [:])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let failing = try flowkit(["simulate", "flows/transfer.yaml", "--state", #"{"country": "RU"}"#,
                                   "--events", #"amount={"amount": 150},confirmationContinue"#, "--trace-out", path + "/fail.json"])
        #expect(failing.status == 1)
        let svg = try flowkit(["render", "--svg", "flows/transfer.yaml", "--trace", path + "/fail.json", "-o", "-"])
        #expect(svg.status == 0, "\(svg.stderr)")
        #expect(svg.stdout.contains("xlink:title=\"move 2: step &#39;tariffs&#39; has no transition for event &#39;confirmationContinue&#39;\""))
        #expect(svg.stdout.contains("the run failed here"))

        let booking = try flowkit(["simulate", "--script", "flows/scripts/booking.yaml", "--trace-out", path + "/booking.json"])
        #expect(booking.status == 0)
        let scenario = "the openCart deep link starts at the cart of the store in the path, and changeStore restarts with that store"
        let mermaid = try flowkit(["render", "--mermaid", "flows/booking.json", "--trace", path + "/booking.json", "--scenario", scenario, "-o", "-"])
        #expect(mermaid.status == 0)
        let highlighted = mermaid.stdout.split(separator: "\n").first { $0.contains("highlighted") && $0.hasPrefix("    class ") } ?? ""
        #expect(highlighted.contains("e0"), "the entry the run began at is highlighted: \(highlighted)")
        #expect(!mermaid.stdout.contains("[*] --> n0 : "), "the start is not part of the run")
    }

    @Test func legendAndRankdir() throws {
        let legend = try flowkit(["render", "--dot", "flows/signup.yaml", "--legend", "-o", "-"])
        #expect(legend.status == 0)
        #expect(legend.stdout.contains("subgraph cluster_legend"))
        let chosen = try flowkit(["render", "--dot", "flows/signup.yaml", "-o", "-"])
        #expect(chosen.stdout.contains("rankdir=TB"), "a chain is drawn top to bottom")
        let asked = try flowkit(["render", "--dot", "flows/signup.yaml", "--rankdir", "LR", "-o", "-"])
        #expect(asked.stdout.contains("rankdir=LR"))
        let mermaid = try flowkit(["render", "--mermaid", "flows/signup.yaml", "-o", "-"])
        #expect(mermaid.stdout.contains("    direction TB\n"))
    }
}
