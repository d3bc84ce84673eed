import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool

/// `render --diff` draws every breaking change `flowkit diff` reports (issue 29; docs/format.md, "Pictures of a
/// change"), each the way its check is drawn.
@Suite("Pictures of a change")
struct ChangePictureTests {
    /// Whether `diagram` shows `change` as its check is drawn: ghosts for what went, `(was …)` labels for renames,
    /// the start edge for required inputs, and otherwise a note in the report's words.
    static func shows(_ change: FlowChange, in diagram: FlowDiagram) -> Bool {
        let nodes = diagram.nodes.filter { !$0.inLegend }
        let edges = diagram.edges.filter { !$0.inLegend }
        let noted = nodes.contains { $0.role == .failureNote && $0.failure == change.message }
        switch change.check {
        case .stepRemoved:
            return nodes.contains { $0.change == .removed && $0.step == nil && $0.role != .entry && $0.role != .failureNote }
        case .stepRenamed:
            return nodes.contains { $0.change == .changed && $0.label.contains("(was ") }
        case .eventRenamed:
            return edges.contains { $0.change == .changed && ($0.label ?? "").contains("(was on ") }
        case .eventRemoved, .handlerRemoved:
            return edges.contains { $0.change == .removed } || noted
        case .outcomeRenamed, .outcomeRemoved:
            return nodes.contains { $0.role == .finish && ($0.change == .removed || $0.label.contains("(outcome was ")) } || noted
        case .inputAdded:
            return edges.contains { nodes.indices.contains($0.from) && diagram.nodes[$0.from].role == .initial && ($0.label ?? "").hasPrefix("needs input") } || noted
        case .entryRemoved:
            return nodes.contains { $0.role == .entry && $0.change == .removed }
        case .entryPathChanged:
            return nodes.contains { $0.role == .entry && $0.change == .changed }
        default:
            return noted
        }
    }

    /// Each breaking check of the table, drawn whole and focused on the change (the table's input is optional, so
    /// info: the next test adds a required one).
    @Test(arguments: FlowDiffTests.triggering.filter { $0.check.level == .breaking && $0.check != .inputAdded })
    func everyBreakingChangeIsDrawn(_ change: FlowDiffTests.Case) throws {
        let reversed = [.eventRemoved, .outcomeRemoved].contains(change.check)
        let old = try FlowDiffTests.flow(reversed ? FlowDiffTests.changed(change) : FlowDiffTests.base, file: "old.yaml")
        let new = try FlowDiffTests.flow(reversed ? FlowDiffTests.base : FlowDiffTests.changed(change), file: "new.yaml")
        let breaking = FlowDiff.compare(old: old, new: new).filter { $0.level == .breaking }
        #expect(breaking.contains { $0.check == change.check })
        for focus in [false, true] {
            let diagram = try FlowDiagram(change: old, to: new, options: DiagramOptions(radius: 0), focusOnChanges: focus)
            for found in breaking { #expect(Self.shows(found, in: diagram), "\(found.message), focused: \(focus)") }
        }
    }

    /// Every change of the table that is about a step, an option or an entry of the new file marks that very
    /// thing in the picture: the picture finds it by the change's subject, so a change reported at another place
    /// (a nested flow's `flow:` line) still colours its step.
    @Test(arguments: FlowDiffTests.triggering)
    func everyChangeMarksItsSubject(_ change: FlowDiffTests.Case) throws {
        let old = try FlowDiffTests.flow(FlowDiffTests.base, file: "old.yaml")
        let new = try FlowDiffTests.flow(FlowDiffTests.changed(change), file: "new.yaml")
        let diagram = try FlowDiagram(change: old, to: new)
        let drawn: Set<ChangeCheck> = [.stepAdded, .stepRenamed, .stepKindChanged, .stepTitleChanged, .stepResultChanged, .nestedFlowChanged, .setChanged,
                                       .transitionAdded, .transitionRetargeted, .guardChanged, .entryAdded, .entryPathChanged, .entryStepChanged]
        for found in FlowDiff.compare(old: old, new: new) where drawn.contains(found.check) {
            switch found.now {
            case .step(let name)?:
                #expect(diagram.nodes.contains { $0.step == name && !$0.inLegend && ($0.change == .changed || $0.change == .added) }, "\(found.message)")
            case .option(let option)?:
                #expect(diagram.edges.contains { $0.option == option && ($0.change == .changed || $0.change == .added) }, "\(found.message)")
            case .entry(let name)?:
                #expect(diagram.nodes.contains { $0.entry == name && ($0.change == .changed || $0.change == .added) }, "\(found.message)")
            default:
                Issue.record("\(found.check.rawValue) has no subject the picture marks: \(String(describing: found.now))")
            }
        }
    }

    /// The three the new user missed, drawn as the spec says.
    @Test func aRemovedEntryARenamedEventAndANewRequiredInputAreDrawn() throws {
        let base = FlowDiffTests.base
        let changed = base
            .replacingOccurrences(of: "entries:\n  open:\n    step: ask\n    path: /t/{amount}\n", with: "entries: {}\n")
            .replacingOccurrences(of: "  help:\n", with: "  assist:\n").replacingOccurrences(of: "on: { help: ask }", with: "on: { assist: ask }")
            .replacingOccurrences(of: "inputs: [country]", with: "inputs: [country, amount]").replacingOccurrences(of: "amount: int?", with: "amount: int")
        let diagram = try FlowDiagram(change: try FlowDiffTests.flow(base), to: try FlowDiffTests.flow(changed))
        #expect(diagram.nodes.contains { $0.role == .entry && $0.change == .removed && $0.label == "open\n/t/{amount}" })
        #expect(diagram.edges.contains { $0.change == .changed && $0.label == "on assist\n(was on help)" })
        #expect(diagram.edges.contains { diagram.nodes[$0.from].role == .initial && $0.label == "needs input 'amount'" && $0.change == .changed })
        let mermaid = MermaidWriter.write(diagram)
        #expect(mermaid.contains(MermaidWriter.escape("/t/{amount}")) && mermaid.contains("was on help") && mermaid.contains("needs input"), "\(mermaid)")
    }

    /// An explicit event that becomes derived removes no option, so its `handler_removed` is a note.
    @Test func aHandlerLostToADerivedEventIsANote() throws {
        let old = try FlowDiffTests.flow("flowkit: 1\nflow: w\nstart: wait\nstate: { n: int? }\nevents: { timeout: }\nsteps:\n  wait: { on: { timeout: expired }, next: done }\n  expired: { kind: finish }\n  done: { kind: finish }\n")
        let new = try FlowDiffTests.flow("flowkit: 1\nflow: w\nstart: wait\nstate: { n: int? }\nevents: { timeout: \"state.n > 30\" }\nsteps:\n  wait: { on: { timeout: expired }, next: done }\n  expired: { kind: finish }\n  done: { kind: finish }\n")
        let breaking = FlowDiff.compare(old: old, new: new).filter { $0.level == .breaking }
        #expect(breaking.map(\.check) == [.handlerRemoved])
        let diagram = try FlowDiagram(change: old, to: new)
        for change in breaking { #expect(Self.shows(change, in: diagram), "\(change.message)") }
        #expect(diagram.nodes.contains { $0.role == .failureNote })
    }

    /// A breaking change that has no place of its own (an event no option handled, removed) is a note.
    @Test func aBreakingChangeWithNoPlaceIsANote() throws {
        let old = try FlowDiffTests.flow(FlowDiffTests.base.replacingOccurrences(of: "  help:\n", with: "  help:\n  unused:\n"))
        let diagram = try FlowDiagram(change: old, to: try FlowDiffTests.flow(FlowDiffTests.base))
        let note = try #require(diagram.nodes.first { $0.role == .failureNote })
        #expect(note.label == "breaking: event 'unused' removed")
        #expect(MermaidWriter.write(diagram).contains("note right of"))
    }
}
