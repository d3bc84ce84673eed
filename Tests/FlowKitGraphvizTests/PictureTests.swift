import FlowGen
import FlowKit
@testable import FlowKitTool
import TestSupport
import Foundation
import Testing
@testable import FlowKitGraphviz

/// What a picture shows (docs/format.md, "Pictures"): entries, outcomes, focus boundaries, a failed or deep-linked
/// run, the legend, and a direction that keeps the picture no wider than 2.5 times its height.
@Suite("Pictures")
struct PictureTests {
    private func flow(_ yaml: String) throws -> Flow {
        try #require(FlowLoader.load(bytes: Array(yaml.utf8), file: "t.yaml", format: .yaml).flow)
    }

    @Test func entriesAreDrawnAsLabelledNodesPointingAtTheirStep() throws {
        let diagram = try sampleDiagram("transfer.yaml")
        let entry = try #require(diagram.nodes.firstIndex { $0.role == .entry })
        #expect(diagram.nodes[entry].label == "editTariff\n/transfer/{amount}/tariffs")
        #expect(diagram.edges.contains { $0.from == entry && $0.to == diagram.nodeIndex(step: "tariffs") && $0.style == .annotation })
        let dot = String(decoding: try GraphvizRenderer.render(diagram, format: .dot).data, as: UTF8.self)
        #expect(dot.contains("label=\"editTariff\\n/transfer/{amount}/tariffs\""), "\(dot)")
        let svg = String(decoding: try GraphvizRenderer.render(diagram, format: .svg).data, as: UTF8.self)
        #expect(svg.contains(">editTariff</text>") && svg.contains(">/transfer/{amount}/tariffs</text>"))
        let mermaid = MermaidWriter.write(diagram)
        #expect(mermaid.contains("state \"editTariff<br>/transfer/#123;amount#125;/tariffs\" as e0") && mermaid.contains("e0 --> n2") && mermaid.contains("class e0 entry"))
    }

    /// Issue 29: an entry into a nested flow says where it lands, read from the nested flow when it loads, else
    /// by the nested flow's entry.
    @Test func aNestedEntrySaysWhereItLands() throws {
        let folder = NSTemporaryDirectory() + "flowkit-nested-entry-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            flowkit: 1
            flow: signIn
            start: email
            entries: { reset: { step: password, path: /reset } }
            steps:
              email: { next: password }
              password: { next: done }
              done: { kind: finish }
            """.write(toFile: folder + "/sign-in.yaml", atomically: true, encoding: .utf8)
        try """
            flowkit: 1
            flow: shop
            start: signIn
            entries: { resetPassword: { step: signIn, entry: reset, path: /shop/reset } }
            steps:
              signIn: { kind: flow, flow: sign-in.yaml, next: done }
              done: { kind: finish }
            """.write(toFile: folder + "/shop.yaml", atomically: true, encoding: .utf8)
        let shop = try #require(try FlowLoader.load(path: folder + "/shop.yaml").flow)
        var options = DiagramOptions()
        options.resolver = FileFlowResolver(root: folder)
        let resolved = try FlowDiagram(flow: shop, options: options)
        #expect(resolved.nodes.contains { $0.role == .entry && $0.label == "resetPassword\n/shop/reset\n→ signIn/password" }, "\(resolved.nodes.map(\.label))")
        let unresolved = try FlowDiagram(flow: shop)
        #expect(unresolved.nodes.contains { $0.role == .entry && $0.label == "resetPassword\n/shop/reset\n→ signIn, entry 'reset'" })
    }

    /// Issue 29: self-loops of one step that look alike are one loop with a line per option; loops that look
    /// different go round opposite sides, so that no two labels lie on each other.
    @Test func selfLoopLabelsNeverLieOnEachOther() throws {
        let diagram = try FlowDiagram(flow: try flow("""
            flowkit: 1
            flow: otp
            start: code
            state: { tries: int? }
            events: { resend: , help: , wrong: "result.ok == false" }
            steps:
              code:
                result: { ok: bool }
                on:
                  resend: code
                  help: { back: code }
                  wrong: [{ forward: code, if: "state.tries == null" }, locked]
                next: done
              locked: { kind: finish }
              done: { kind: finish }
            """))
        let dot = String(decoding: try GraphvizRenderer.render(diagram, format: .dot).data, as: UTF8.self)
        let loops = dot.split(separator: "\n").filter { $0.contains("n0 -> n0") || $0.contains("n0:w -> n0:w") }
        #expect(loops.count == 2, "\(dot)")
        #expect(dot.contains("label=\"on resend\\non wrong, if state.tries == null\""), "\(dot)")
        #expect(dot.contains("n0:w -> n0:w"), "\(dot)")
        // A loop without a label merged with one that has one still has its line.
        let poll = try FlowDiagram(flow: try flow("flowkit: 1\nflow: p\nstart: poll\nevents: { retry: }\nsteps:\n  poll: { on: { retry: poll }, next: poll }\n"))
        let pollDot = String(decoding: try GraphvizRenderer.render(poll, format: .dot).data, as: UTF8.self)
        #expect(pollDot.contains("label=\"on retry\\nnext\""), "\(pollDot)")
        let svg = String(decoding: try GraphvizRenderer.render(diagram, format: .svg).data, as: UTF8.self)
        #expect(svg.contains(">on resend</text>") && svg.contains(">on help</text>"))
    }

    @Test func aFinishStepShowsItsOutcomeWhenItIsNotItsName() throws {
        let diagram = try FlowDiagram(flow: try flow("""
            flowkit: 1
            flow: f
            start: a
            events: { stop: }
            steps:
              a: { on: { stop: quit }, next: done }
              quit: { kind: finish, title: Gave up, outcome: cancelled }
              done: { kind: finish }
            """))
        #expect(diagram.nodes.map(\.label).contains("Gave up\nquit → cancelled"))
        #expect(diagram.nodes.map(\.label).contains("done"))
    }

    @Test func aFocusedViewNamesEachStepOutsideItThatAnEdgeLeavesTo() throws {
        let document = try FlowLoader.load(path: packageRoot + "/flows/booking.json")
        let diagram = try FlowDiagram(flow: try #require(document.flow), options: DiagramOptions(focus: "checkout", radius: 1))
        let boundary = diagram.nodes.filter { $0.role == .boundary }.map(\.label).sorted()
        #expect(boundary == ["cancelled", "confirmation", "emptyCart", "store"], "\(boundary)")
        #expect(!diagram.nodes.contains { $0.label == "…" })
        // Each boundary node is an edge's end, and none is a step of the view.
        for index in diagram.nodes.indices where diagram.nodes[index].role == .boundary {
            #expect(diagram.edges.contains { $0.to == index })
            #expect(diagram.nodes[index].step == nil)
        }
    }

    @Test func aFailedRunIsMarkedWhereItStoppedAndADeepLinkedRunLightsItsEntry() throws {
        let flow = try #require(FlowLoader.load(path: packageRoot + "/flows/transfer.yaml").flow)
        var options = DiagramOptions(highlightedSteps: ["tariffs", "confirmation"])
        options.startedAtEntry = "editTariff"
        options.failure = (step: "confirmation", message: "step 'confirmation' has no transition for event 'x'")
        let diagram = try FlowDiagram(flow: flow, options: options)
        let step = try #require(diagram.nodeIndex(step: "confirmation"))
        #expect(diagram.nodes[step].failure == "step 'confirmation' has no transition for event 'x'")
        let note = try #require(diagram.nodes.firstIndex { $0.role == .failureNote })
        #expect(diagram.edges.contains { $0.from == note && $0.to == step })
        #expect(diagram.nodes.first { $0.role == .entry }?.highlighted == true)
        #expect(diagram.nodes.first { $0.role == .initial }?.highlighted == false, "the start dot is not where the run began")
        let svg = String(decoding: try GraphvizRenderer.render(diagram, format: .svg).data, as: UTF8.self)
        #expect(svg.contains("xlink:title=\"step &#39;confirmation&#39; has no transition for event &#39;x&#39;\""), "the error is the tooltip")
        #expect(MermaidWriter.write(diagram).contains("note right of n3 : ✗ the run failed here#58;<br>step 'confirmation' has no transition for event 'x'"))
    }

    @Test func theLegendShowsTheShapesAndEdgeStyles() throws {
        var options = DiagramOptions()
        options.legend = true
        let diagram = try FlowDiagram(flow: try #require(FlowLoader.load(path: packageRoot + "/flows/transfer.yaml").flow), options: options)
        let legend = diagram.nodes.filter(\.inLegend)
        #expect(legend.map(\.role) == [.screen, .action, .flow, .finish, .entry])
        #expect(Set(diagram.edges.filter(\.inLegend).map(\.style)) == [.forward, .back, .restart, .annotation])
        let dot = String(decoding: try GraphvizRenderer.render(diagram, format: .dot).data, as: UTF8.self)
        #expect(dot.contains("subgraph cluster_legend") && dot.contains("label=Key"), "\(dot)")
        #expect(MermaidWriter.write(diagram).contains("    state \"Key\" as legend {\n        state \"screen\" as k0\n"))
    }

    /// Flows of the shapes that make pictures too wide or too tall: chains, fans, ladders with long labels.
    static func shapedFlows() -> [String] {
        var flows: [String] = []
        for length in [3, 5, 8, 13, 20, 40] {
            var steps = (0..<length).map { "  s\($0): { title: Step number \($0) of the chain, next: s\($0 + 1) }" }
            steps.append("  s\(length): { kind: finish }")
            flows.append("flowkit: 1\nflow: chain\nstart: s0\nsteps:\n" + steps.joined(separator: "\n") + "\n")
        }
        for width in [3, 8, 20] {
            let events = (0..<width).map { "e\($0): " }.joined(separator: ", ")
            let handlers = (0..<width).map { "e\($0): t\($0)" }.joined(separator: ", ")
            var steps = ["  hub: { on: { \(handlers) } }"]
            steps += (0..<width).map { "  t\($0): { next: done }" }
            steps.append("  done: { kind: finish }")
            flows.append("flowkit: 1\nflow: fan\nstart: hub\nevents: { \(events) }\nsteps:\n" + steps.joined(separator: "\n") + "\n")
        }
        for rungs in [4, 10] {
            var steps: [String] = []
            for index in 0..<rungs {
                steps.append("  a\(index): { title: The left side of rung \(index), on: { go: b\(index) }, next: a\(index + 1) }")
                steps.append("  b\(index): { title: The right side of rung \(index), next: { back: true } }")
            }
            steps.append("  a\(rungs): { kind: finish }")
            flows.append("flowkit: 1\nflow: ladder\nstart: a0\nevents: { go: }\nsteps:\n" + steps.joined(separator: "\n") + "\n")
        }
        return flows
    }

    /// Property: without `--rankdir`, no picture is more than `FlowDiagram.maxAspectRatio` times as wide as high, as
    /// Graphviz lays it out: the sample flows, flows of extreme shapes, and generated flows.
    @Test func noPictureIsTooWideForAPullRequest() throws {
        var flows: [(String, Flow)] = []
        for name in sampleFlows + ["nested/sign-in.yaml"] {
            flows.append((name, try #require(FlowLoader.load(path: packageRoot + "/flows/" + name).flow)))
        }
        for (index, text) in Self.shapedFlows().enumerated() { flows.append(("shape \(index)", try flow(text))) }
        for seed in UInt64(1)...40 {
            let bundle = BlueprintGenerator.bundle(seed: seed)
            let text = bundle.main.flow.render(bundle.main.format)
            let document = FlowLoader.load(bytes: Array(text.utf8), file: bundle.main.name, format: bundle.main.format == .json ? .json : .yaml)
            if let flow = document.flow { flows.append(("seed \(seed)", flow)) }
        }
        #expect(flows.count > 50)
        for (name, flow) in flows {
            let diagram = try FlowDiagram(flow: flow)
            let rendered = try GraphvizRenderer.render(diagram, format: .svg)
            let width = try #require(rendered.width)
            let height = try #require(rendered.height)
            #expect(width <= FlowDiagram.maxAspectRatio * height, "\(name): \(Int(width)) × \(Int(height)) pt, \(diagram.direction)")
        }
    }

    @Test func rankdirOverridesTheChoice() throws {
        var options = DiagramOptions()
        options.direction = "LR"
        let flow = try flow(Self.shapedFlows()[3])
        #expect(try FlowDiagram(flow: flow).direction == "TB")
        let diagram = try FlowDiagram(flow: flow, options: options)
        #expect(diagram.direction == "LR")
        let rendered = try GraphvizRenderer.render(diagram, format: .svg, options: GraphvizOptions(rankdir: "LR"))
        #expect(try #require(rendered.width) > 2.5 * (try #require(rendered.height)))
    }
}
