import FlowKit
@testable import FlowKitTool
import Foundation
import Testing
import TestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import FlowKitGraphviz

/// The sample flows (every one is drawn in the golden tests).
let sampleFlows: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/flows")) ?? []
    return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted()
}()

/// The diagram of a sample flow.
func sampleDiagram(_ name: String) throws -> FlowDiagram {
    let document = try FlowLoader.load(path: packageRoot + "/flows/" + name)
    return try FlowDiagram(flow: try #require(document.flow))
}

/// The diagram of a flow given as YAML text.
func diagram(yaml: String) throws -> FlowDiagram {
    let document = FlowLoader.load(bytes: Array(yaml.utf8), file: "t.yaml", format: .yaml)
    return try FlowDiagram(flow: try #require(document.flow))
}

/// Compares `actual` with the golden file `name` in this target's Golden folder.
func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    try TestSupport.expectGolden(actual, name, in: "Tests/FlowKitGraphvizTests/Golden", sourceLocation: sourceLocation)
}

/// Parses XML, returning the parser error when it is not well formed.
func xmlError(_ data: [UInt8]) -> Error? {
    let parser = XMLParser(data: Data(data))
    return parser.parse() ? nil : (parser.parserError ?? NSError(domain: "xml", code: 1))
}

/// The resident set size of this process, in bytes.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}

@Suite("Graphviz renderer", .serialized)
struct GraphvizRendererTests {
    /// The picture of the README's example change: added green, changed orange, removed red dashed, the rest grey.
    @Test func changePictureGolden() throws {
        func load(_ path: String) throws -> Flow {
            try FlowDiff.load(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/" + path))), file: path, name: path)
        }
        let diagram = try FlowDiagram(change: try load("flows/transfer.yaml"), to: try load("docs/examples/transfer-v2.yaml"))
        let dot = String(decoding: try GraphvizRenderer.render(diagram, format: .dot).data, as: UTF8.self)
        try expectGolden(dot, "transfer-v2.diff.dot")
        try expectGolden(MermaidWriter.write(diagram), "transfer-v2.diff.mmd")
        let svg = try GraphvizRenderer.render(diagram, format: .svg).data
        #expect(xmlError(svg) == nil)
    }

    @Test(arguments: sampleFlows)
    func dotGolden(_ name: String) throws {
        let dot = String(decoding: try GraphvizRenderer.render(try sampleDiagram(name), format: .dot).data, as: UTF8.self)
        try expectGolden(dot, (name as NSString).deletingPathExtension + "." + (name as NSString).pathExtension + ".dot")
    }

    @Test(arguments: sampleFlows)
    func mermaidGolden(_ name: String) throws {
        let text = MermaidWriter.write(try sampleDiagram(name))
        try expectGolden(text, (name as NSString).deletingPathExtension + "." + (name as NSString).pathExtension + ".mmd")
    }

    @Test func transferDOTHasTheSeedsEdgesAndLabels() throws {
        let diagram = try sampleDiagram("transfer.yaml")
        let dot = String(decoding: try GraphvizRenderer.render(diagram, format: .dot).data, as: UTF8.self)
        func id(_ step: String) -> String { diagram.nodes[diagram.nodeIndex(step: step)!].id }
        let expected: [(String, String, String?)] = [
            ("any", id("alert"), "on error"),
            (id("amount"), id("invalidAmount"), "on invalidAmount"),
            (id("amount"), id("tariffs"), nil),
            (id("tariffs"), id("confirmation"), nil),
            (id("confirmation"), id("success"), "on confirmationContinue"),
            (id("confirmation"), id("amount"), "on confirmationEditAmount"),
            (id("confirmation"), id("tariffs"), "on confirmationEditTariff"),
            (id("success"), id("finish"), nil),
        ]
        for (from, to, label) in expected {
            let edge = "\t\(from) -> \(to)"
            let line = try #require(dot.components(separatedBy: "\n").first { $0 == edge + ";" || $0.hasPrefix(edge + "\t[") }, "missing \(edge)")
            if let label {
                let block = dot.components(separatedBy: edge).dropFirst().first ?? ""
                #expect(block.prefix(while: { $0 != ";" }).contains("label=\"\(label)\""), "\(edge) should be labelled \(label)")
            } else {
                #expect(line == edge + ";", "\(edge) should be a plain edge")
            }
        }
        let backEdge = dot.components(separatedBy: "\t\(id("confirmation")) -> \(id("amount"))").dropFirst().first ?? ""
        #expect(backEdge.prefix(while: { $0 != ";" }).contains("style=dashed"), "back moves are dashed")
    }

    @Test(arguments: sampleFlows)
    func svgIsValidXMLWithEveryStep(_ name: String) throws {
        let diagram = try sampleDiagram(name)
        let rendered = try GraphvizRenderer.render(diagram, format: .svg)
        #expect(xmlError(rendered.data) == nil)
        let svg = String(decoding: rendered.data, as: UTF8.self)
        for node in diagram.nodes where node.step != nil {
            #expect(svg.contains("<title>\(node.id)</title>"), "\(node.id) missing")
            // The name is the label's last line (a finish step's with its outcome: `done → signedUp`).
            let nameLine = String(node.label.split(separator: "\n").last ?? "").replacingOccurrences(of: ">", with: "&gt;")
            #expect(svg.contains(">\(nameLine)</text>") || node.step == "*", "\(node.step!) missing")
            #expect(nameLine.hasPrefix(node.step!))
        }
    }

    @Test func pngHasTheSignatureAndTheSizeGraphvizReports() throws {
        let rendered = try GraphvizRenderer.render(try sampleDiagram("transfer.yaml"), format: .png)
        let bytes = rendered.data
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func be32(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        let width = be32(16)
        let height = be32(20)
        let padding = 2 * 0.25 * 72
        let boxWidth = rendered.width
        let boxHeight = rendered.height
        let expectedWidth = (try #require(boxWidth) + padding) * 144 / 72
        let expectedHeight = (try #require(boxHeight) + padding) * 144 / 72
        #expect(abs(Double(width) - expectedWidth) <= 3, "png \(width) px, Graphviz reports \(expectedWidth)")
        #expect(abs(Double(height) - expectedHeight) <= 3, "png \(height) px, Graphviz reports \(expectedHeight)")
    }

    @Test func badLayoutEngineIsAClearErrorAndTheNextRenderWorks() throws {
        let diagram = try sampleDiagram("transfer.yaml")
        #expect(throws: GraphvizError.unknownEngine("nosuchengine")) {
            try GraphvizRenderer.render(diagram, format: .svg, options: GraphvizOptions(engine: "nosuchengine"))
        }
        let rendered = try GraphvizRenderer.render(diagram, format: .svg)
        #expect(rendered.warnings.isEmpty, "\(rendered.warnings)")
        #expect(xmlError(rendered.data) == nil)
    }

    static let hostileTitles = [
        "Quote \" and 'single'", "Back\\slash \\N \\G \\l \\", "Angle <b>bold</b> & amp", "Braces { } ] [ ; -> --",
        "New\nline", "Tab\tand\u{1}control\u{7F}\u{85}", "Unicode: 日本語 ü 🚀", "label=\"x\"] ; evil -> node [",
        "%% mermaid comment", "#quot; entity", "end\u{2028}separator",
    ]

    @Test(arguments: hostileTitles)
    func hostileTitlesStayLabels(_ title: String) throws {
        func flowJSON(_ title: String) throws -> [UInt8] {
            let object: [String: Any] = ["flowkit": 1, "flow": "t", "title": title, "start": "a",
                                         "steps": ["a": ["title": title, "next": "b"], "b": ["kind": "finish", "title": title]]]
            return Array(try JSONSerialization.data(withJSONObject: object))
        }
        func load(_ bytes: [UInt8]) throws -> FlowDiagram {
            let document = FlowLoader.load(bytes: bytes, file: "t.json", format: .json)
            #expect(document.diagnostics.isEmpty, "\(document.diagnostics.map(\.message))")
            return try FlowDiagram(flow: try #require(document.flow))
        }
        let diagram = try load(try flowJSON(title))
        let dot = String(decoding: try GraphvizRenderer.render(diagram, format: .dot).data, as: UTF8.self)
        let parsed = try #require(GraphvizRenderer.readBack(dot: dot), "the DOT must parse")
        #expect(parsed.nodeCount == diagram.nodes.count)
        #expect(parsed.edgeCount == diagram.edges.count)
        for node in diagram.nodes {
            #expect(parsed.labels[node.id] == GraphvizRenderer.escapeLabel(node.label), "\(node.id)")
        }
        let svg = try GraphvizRenderer.render(diagram, format: .svg)
        #expect(xmlError(svg.data) == nil, "SVG must stay valid XML")
        let mermaid = MermaidWriter.write(diagram)
        let lines = mermaid.split(separator: "\n", omittingEmptySubsequences: false)
        let plain = MermaidWriter.write(try load(try flowJSON("x")))
        #expect(lines.count == plain.split(separator: "\n", omittingEmptySubsequences: false).count, "a title cannot add or split Mermaid statements")
        for line in lines where line.contains("state \"") {
            #expect(line.filter { $0 == "\"" }.count == 2, "\(line)")
        }
    }

    @Test func veryLongLabelIsCut() throws {
        let title = String(repeating: "x", count: 100_000)
        let rendered = try GraphvizRenderer.render(try diagram(yaml: "flowkit: 1\nflow: t\nstart: a\nsteps:\n  a: { title: \(title), kind: finish }\n"), format: .svg)
        #expect(xmlError(rendered.data) == nil)
        #expect(rendered.data.count < 20_000)
    }

    @Test func largeFlowsDrawLongJumpsAsConnectors() throws {
        var yaml = "flowkit: 1\nflow: big\nstart: s0\nevents: { jump: }\nsteps:\n"
        for i in 0..<300 { yaml += "  s\(i): { on: { jump: s\((i * 97 + 13) % 300) }, next: \(i + 1 < 300 ? "s\(i + 1)" : "done") }\n" }
        yaml += "  done: { kind: finish }\n"
        let diagram = try diagram(yaml: yaml)
        let broken = diagram.breakingLongEdges(maxSpan: GraphvizRenderer.maxEdgeSpan)
        #expect(broken.nodes.contains { $0.role == .connector })
        #expect(broken.edges.count == diagram.edges.count)
        let rendered = try GraphvizRenderer.render(diagram, format: .svg)
        #expect(xmlError(rendered.data) == nil)
    }

    @Test(.disabled(if: ProcessInfo.processInfo.environment["FLOWKIT_SANITIZER"] != nil,
                    "a sanitizer keeps freed memory in quarantine, so resident memory grows anyway"))
    func noLeakOverAThousandRenders() throws {
        let diagram = try sampleDiagram("transfer.yaml")
        for _ in 0..<50 { _ = try GraphvizRenderer.render(diagram, format: .svg) }
        // Resident memory is the whole process's, and other suites run beside this one: a leak grows it in every
        // batch, while another test's allocations grow it in some. The least growth of three batches is the leak.
        var least = Int.max
        for _ in 0..<3 {
            let before = residentBytes()
            for _ in 0..<1_000 { _ = try GraphvizRenderer.render(diagram, format: .svg) }
            least = min(least, residentBytes() - before)
        }
        #expect(least < 8 << 20, "resident memory grew by \(least / 1024) KiB over each of three batches of 1,000 renders")
    }
}
