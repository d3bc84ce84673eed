import FlowKit
import Foundation

/// `render`'s model: reads a flow and what to draw on it (a run, coverage, the change from an older version) and
/// says what to draw and where to write it (docs/format.md, "Diagrams"). Drawing it (Graphviz, Mermaid) is the
/// front end's.
package enum RenderFrontend {
    /// The formats a picture is written in.
    package enum Format: String, CaseIterable, Sendable {
        case svg, png, dot, mermaid

        /// The extension of the default output name.
        package var fileExtension: String { self == .mermaid ? "mmd" : rawValue }
    }

    /// What a picture is asked to show.
    package struct Options: Sendable, Equatable {
        /// The flow file.
        package var file: String
        /// The format to write.
        package var format: Format = .svg
        /// Where to write; nil: beside the flow, with the format's extension.
        package var output: String?
        /// `LR` or `TB`; nil: chosen so that the picture is not too wide.
        package var direction: String?
        /// Whether a key of the shapes and styles is added.
        package var legend = false
        /// The step to draw the neighbourhood of.
        package var focus: String?
        /// How many moves from the focus (or from a change) to draw.
        package var radius: Int?
        /// A coverage file to draw.
        package var coverage: String?
        /// A trace file whose run to draw.
        package var trace: String?
        /// The scenario of `trace` to draw (default: the first).
        package var scenario: String?
        /// An older version of the flow whose change to draw.
        package var diff: String?
        /// Whether only the changed steps and their neighbours are drawn.
        package var focusOnChanges = false
        /// Whether findings on standard error are coloured.
        package var colorErrors = false

        package init(file: String) {
            self.file = file
        }
    }

    /// What to draw and where.
    package struct Drawing: Sendable {
        /// The picture's model.
        package var diagram: FlowDiagram
        /// The format to write.
        package var format: Format
        /// Where to write (`-`: standard output).
        package var destination: String

        /// The outcome once the picture is `bytes`: Graphviz's warnings, then the file and its note.
        package func outcome(_ bytes: [UInt8], warnings: [String] = []) -> CommandOutcome {
            var outcome = CommandOutcome()
            for warning in warnings { outcome.note("flowkit: warning: Graphviz: \(warning)") }
            outcome.write(bytes, to: destination,
                          written: destination == OutputFile.standardOutputName ? nil : "wrote \(path: destination)")
            return outcome
        }
    }

    /// The drawing `options` ask for.
    package static func drawing(_ options: Options) throws(CommandError) -> Drawing {
        let document: LoadedDocument
        do {
            document = try FlowLoader.load(path: options.file)
        } catch {
            throw CommandError.failure(CommandMessage(describing: error))
        }
        guard let flow = document.flow, document.isWellFormed else {
            let findings = document.diagnostics.filter { $0.severity == .error }
            let text = TextReporter(color: options.colorErrors).render(LintReport(diagnostics: findings, fileCount: 1))
            throw CommandError(findings: text, [CommandMessage("\(options.file) is not a flow that can be drawn" + (document.isScript ? " (it is a simulation script)" : ""))],
                               status: .findings)
        }
        var diagramOptions = DiagramOptions(focus: options.focus, radius: options.radius ?? (options.focusOnChanges ? 1 : 2))
        diagramOptions.direction = options.direction
        diagramOptions.legend = options.legend
        let directory = FilePath.directory(of: options.file)
        diagramOptions.resolver = FileFlowResolver(root: directory.isEmpty ? "." : directory)
        if let trace = options.trace {
            let run: SimulationTrace.Scenario
            do {
                run = try SimulationTrace.read(path: trace).scenario(named: options.scenario, in: trace)
            } catch {
                throw CommandError.usage("\(CommandOption.trace): \(error.message)")
            }
            let highlight = DiagramOptions.highlighting(run: run.trace, path: run.path, in: flow)
            diagramOptions.highlightedSteps = highlight.highlightedSteps
            diagramOptions.highlightedMoves = highlight.highlightedMoves
            diagramOptions.startedAtEntry = run.entry
            diagramOptions.failure = run.failure
        }
        if let coverage = options.coverage {
            let counted: Coverage
            do {
                counted = try Coverage.read(path: coverage)
            } catch {
                throw CommandError.usage("\(CommandOption.coverage): \(error.message)")
            }
            let name = CoverageRecorder.display(options.file)
            guard let fileCoverage = counted.files.first(where: { $0.file == name }) else {
                throw CommandError.usage("\(CommandOption.coverage): '\(name: coverage, limit: .max)' has no coverage of '\(name: name, limit: .max)'\(verbatim: Suggestions.didYouMean(name, in: counted.files.map(\.file)))")
            }
            diagramOptions.coverage = fileCoverage
        }
        let diagram: FlowDiagram
        do {
            if let diff = options.diff {
                let old: Flow
                do {
                    old = try FlowDiff.load(path: diff)
                } catch {
                    throw CommandError.failure(error.message)
                }
                diagram = try FlowDiagram(change: old, to: flow, options: diagramOptions, focusOnChanges: options.focusOnChanges)
            } else {
                diagram = try FlowDiagram(flow: flow, options: diagramOptions)
            }
        } catch let error as DiagramError {
            throw CommandError.usage("\(CommandOption.focus): \(verbatim: "\(error)")")
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError.failure(CommandMessage(describing: error))
        }
        if let output = options.output { return Drawing(diagram: diagram, format: options.format, destination: output) }
        let destination = try defaultOutput(for: options.file, format: options.format, suffix: options.diff == nil ? "" : ".diff")
        return Drawing(diagram: diagram, format: options.format, destination: destination)
    }

    /// The output beside `input` with the format's extension (and `suffix` before it); refused when it is the
    /// input itself (the same name, or the same file through a link).
    package static func defaultOutput(for input: String, format: Format, suffix: String = "") throws(CommandError) -> String {
        let destination = (input as NSString).deletingPathExtension + suffix + "." + format.fileExtension
        var inputInfo = stat()
        var destinationInfo = stat()
        let sameName = destination == input
        let sameFile = stat(input, &inputInfo) == 0 && stat(destination, &destinationInfo) == 0
            && inputInfo.st_dev == destinationInfo.st_dev && inputInfo.st_ino == destinationInfo.st_ino
        if sameName || sameFile {
            throw CommandError.failure("the default output '\(name: destination, limit: .max)' is the input file itself; name the output with \(CommandOption.output)")
        }
        return destination
    }
}
