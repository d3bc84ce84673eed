import Foundation
import FlowKit

/// `report`: lint, the scenarios, their coverage and (with a revision) the change, in one HTML file (docs/format.md,
/// "The HTML report"). Drawing a diagram as SVG is the front end's (Graphviz is not seen here): it is given as
/// `draw`.
package enum ReportFrontend {
    /// What a report is asked to show.
    package struct Options: Sendable, Equatable {
        /// Flow files and directories, linted as `flowkit lint` lints them.
        package var paths: [String]
        /// Scripts to run besides those found in `paths`.
        package var scripts: [String] = []
        /// The git revision whose versions the change is from, if any.
        package var revision: String?
        /// The configuration file given, instead of each file's nearest `.flowkit.yml`.
        package var configuration: String?
        /// The least coverage each flow file must reach, instead of its configuration's.
        package var minimum: CoverageThreshold?
        /// Whether a warning fails the lint too.
        package var strict = false
        /// Where to write the report (`-`: standard output).
        package var output = "flowkit-report.html"
        /// The most run states a witness search visits per file.
        package var witnessBudget = 20_000
        /// The most steps a scenario's run shows.
        package var maxSteps = 10_000
        /// The version the report names.
        package var toolVersion = FlowKitVersion.current

        package init(paths: [String]) {
            self.paths = paths
        }
    }

    /// Draws a diagram as an SVG document whose elements have ids with the given prefix
    /// (`GraphvizOptions.idPrefix`); the flow file is named for messages.
    package typealias Draw = @Sendable (_ diagram: FlowDiagram, _ idPrefix: String, _ file: String) throws(CommandError) -> String

    /// Builds and writes the report as `options` say.
    package static func run(_ options: Options, draw: Draw) throws(CommandError) -> CommandOutcome {
        let (report, status) = try build(options, draw: draw)
        var outcome = CommandOutcome()
        let text = HTMLReportWriter.write(report)
        outcome.write(Array(text.utf8), to: options.output,
                      written: options.output == OutputFile.standardOutputName ? nil : "wrote \(path: options.output)")
        let summary = report.summary
        var line = "\(summary.files) file\(summary.files == 1 ? "" : "s"): \(summary.errors) error\(summary.errors == 1 ? "" : "s"), "
            + "\(summary.warnings) warning\(summary.warnings == 1 ? "" : "s"); \(summary.passed) scenario\(summary.passed == 1 ? "" : "s") passed, \(summary.failed) failed"
        if let breaking = summary.breaking { line += "; \(breaking) breaking change\(breaking == 1 ? "" : "s")" }
        outcome.note(CommandMessage(line))
        outcome.errors = report.problems.map { CommandMessage($0) }
        outcome.status = status
        return outcome
    }

    /// The report, and the exit status its checks give.
    package static func build(_ options: Options, draw: Draw) throws(CommandError) -> (FlowReport, ExitStatus) {
        var report = FlowReport(toolVersion: options.toolVersion)
        var lintFails = false, runFails = false, cannotWork = false

        // Lint.
        let fixedConfiguration: LintConfiguration?
        do {
            fixedConfiguration = try options.configuration.map { try LintConfiguration.load(path: $0) }
        } catch let error as ConfigurationError {
            throw CommandError.failure(error.message)
        } catch {
            throw CommandError.failure(CommandMessage(describing: error))
        }
        let lint: LintSession.Outcome
        do {
            lint = try LintSession.lint(paths: options.paths, configuration: fixedConfiguration, baseline: nil, allowOutside: false)
        } catch {
            throw CommandError(error.problems.map { CommandMessage($0) }, status: .failure)
        }
        let lintReport = lint.report(strict: options.strict, toolVersion: options.toolVersion)
        lintFails = lintReport.fails
        report.problems += lint.failures
        if !lint.failures.isEmpty { cannotWork = true }
        let witnesses = Witnesses.search(lintReport.diagnostics, budget: options.witnessBudget)

        // The files, each loaded once: flows get a section with a diagram, scripts are run.
        var sections: [FlowReport.Section] = []
        var sectionIndex: [String: Int] = [:]
        var flows: [Int: Flow] = [:]
        var scripts: [String] = []
        var scriptSeen = Set<String>()
        func addSection(_ file: String, document: LoadedDocument?) {
            let canonical = FileFlowResolver.canonical(file)
            guard sectionIndex[canonical] == nil else { return }
            let flow = document?.isScript == false ? document?.flow : nil
            sectionIndex[canonical] = sections.count
            if let flow, document?.isWellFormed == true { flows[sections.count] = flow }
            sections.append(FlowReport.Section(file: file, title: flow.map { $0.title ?? $0.name.text }))
        }
        for file in lint.files {
            let document = try? FlowLoader.load(path: file)
            if document?.isScript == true {
                if scriptSeen.insert(FileFlowResolver.canonical(file)).inserted { scripts.append(file) }
                if lint.diagnostics.contains(where: { $0.file == file }) { addSection(file, document: document) }
            } else {
                addSection(file, document: document)
            }
        }
        for script in options.scripts where scriptSeen.insert(FileFlowResolver.canonical(script)).inserted { scripts.append(script) }

        // The scenarios and their coverage. A script with lint errors is not run: it counts as one failed scenario.
        var coverageParts: [Coverage] = []
        var extraFindings: [Diagnostic] = []
        let linted = Set(lint.files.map(FileFlowResolver.canonical))
        let withErrors = Set(lint.diagnostics.filter { $0.severity == .error }.map { FileFlowResolver.canonical($0.file) })
        for path in scripts {
            func cannotRun(_ why: CommandMessage) {
                report.problems.append("\(Message("the script '\(path: path)' could not run").text): \(why.text { "\($0)" })")
                report.summary.failed += 1
                runFails = true
            }
            if withErrors.contains(FileFlowResolver.canonical(path)) {
                cannotRun("lint finds errors in it (see its findings)")
                continue
            }
            let setup: SimulationSetup
            do {
                setup = try SimulationSetup(input: nil, script: path, needsScript: true)
            } catch SimulationSetup.Problem.usage(let message) {
                cannotRun(message)
                continue
            } catch SimulationSetup.Problem.input(let findings, let message) {
                // Findings of a file lint did not check (the script's flow outside the paths, a script given
                // with --script): shown in that file's section.
                extraFindings += findings.filter { !linted.contains(FileFlowResolver.canonical($0.file)) && !extraFindings.contains($0) }
                cannotRun(message)
                continue
            } catch {
                // A script that cannot be read is work that could not be done; one whose flow cannot be read names
                // no flow that can run.
                if access(path, R_OK) == 0 {
                    cannotRun(CommandMessage(describing: error))
                } else {
                    report.problems.append("\(Message("the script '\(path: path)' cannot be read").text): \(CommandMessage(describing: error).text { "\($0)" })")
                    cannotWork = true
                }
                continue
            }
            guard let script = setup.script else { continue }
            let results = ScriptRunner.run(script, flow: setup.flow, resolver: setup.resolver, maxSteps: options.maxSteps)
            var recorder = CoverageRecorder(flow: setup.flow, resolver: setup.resolver)
            for result in results { recorder.record(result) }
            coverageParts.append(recorder.coverage)
            addSection(setup.flowPath, document: try? FlowLoader.load(path: setup.flowPath))
            let index = sectionIndex[FileFlowResolver.canonical(setup.flowPath)]!
            for result in results {
                sections[index].scenarios.append(FlowReport.ScenarioRun(script: path, result: result, visited: [], edges: []))
                if result.passed { report.summary.passed += 1 } else { report.summary.failed += 1; runFails = true }
            }
        }
        for finding in extraFindings { addSection(finding.file, document: nil) }

        // Coverage against the thresholds: every file the scripts' runs count (a nested flow lint did not reach
        // gets its section), each looked up once by its display path.
        var coverageFails = false
        var merged: Coverage?
        var coverageOf: [String: FileCoverage] = [:]
        if !coverageParts.isEmpty {
            do {
                merged = try Coverage.merged(coverageParts)
            } catch {
                // Two scripts counted one file differently (each reads nested flows from its own flow's folder): the
                // coverage cannot be added up, which is work not done; the rest of the report stands.
                report.problems.append("cannot add up the scripts' coverage: \(error.message.text { "\($0)" })")
                cannotWork = true
            }
        }
        if let merged {
            for file in merged.files { coverageOf[file.file] = file }
            let shown = Set(sections.map { CoverageRecorder.display($0.file) })
            for file in merged.files where !shown.contains(file.file) {
                addSection(file.file, document: try? FlowLoader.load(path: file.file))
            }
            var configurations: [String: LintConfiguration?] = [:]
            for index in sections.indices {
                guard let file = coverageOf[CoverageRecorder.display(sections[index].file)] else { continue }
                var minimum = options.minimum
                if minimum == nil {
                    if let fixedConfiguration {
                        minimum = fixedConfiguration.coverageMinimum
                    } else if let path = LintConfiguration.find(from: sections[index].file) {
                        if configurations[path] == nil { configurations[path] = try? LintConfiguration.load(path: path) }
                        minimum = configurations[path]??.coverageMinimum
                    }
                }
                sections[index].coverage = CoverageItem.Kind.allCases.map { kind in
                    let count = file.count(kind)
                    return FlowReport.CoverageFigure(kind: kind, covered: count.covered, total: count.total, percent: file.percent(kind),
                                                     minimum: minimum?.minimums[kind])
                }
                if sections[index].coverage.contains(where: { !$0.meets }) { coverageFails = true }
            }
        }

        // The change.
        var pairs: [String: (old: Flow, new: Flow)] = [:]
        var breakingFails = false
        if let revision = options.revision {
            let compared: DiffFrontend.Outcome
            do {
                compared = try DiffFrontend.compare(DiffFrontend.Options(files: options.paths, revision: revision, configuration: options.configuration))
            } catch {
                throw CommandError.failure(error.message)
            }
            report.problems += compared.problems.map { $0.text { "\($0)" } }
            if !compared.problems.isEmpty { cannotWork = true }
            for pair in compared.pairs { pairs[FileFlowResolver.canonical(pair.new.file)] = pair }
            // Paths that overlap (a folder and a file in it) compare a file twice: each change is shown once.
            var changes: [FlowChange] = []
            for change in compared.report.changes where !changes.contains(change) { changes.append(change) }
            for change in changes {
                if let index = sectionIndex[FileFlowResolver.canonical(change.file)] {
                    sections[index].changes.append(change)
                } else {
                    report.otherChanges.append(change)
                }
            }
            report.summary.changes = changes.count
            report.summary.breaking = changes.filter { $0.level == .breaking }.count
            report.summary.changesByLevel = Dictionary(grouping: changes, by: \.level).mapValues(\.count)
            breakingFails = report.summary.breaking! > 0
        }

        // Findings, with their excerpts and witnesses.
        for finding in lintReport.diagnostics + extraFindings {
            guard let index = sectionIndex[FileFlowResolver.canonical(finding.file)] else { continue }
            sections[index].findings.append(FlowReport.Finding(diagnostic: finding, excerpt: [], witness: witnesses[finding]))
        }
        for index in sections.indices where !sections[index].findings.isEmpty {
            let lines = Excerpts(file: sections[index].file)
            for finding in sections[index].findings.indices {
                sections[index].findings[finding].excerpt = lines.around(sections[index].findings[finding].diagnostic.line)
            }
        }

        // The diagrams.
        for index in sections.indices {
            guard let flow = flows[index] else {
                if sections[index].title != nil { sections[index].diagramNote = "The flow has errors that stop it from being drawn: see its findings." }
                continue
            }
            let file = sections[index].file
            let directory = FilePath.directory(of: file)
            var diagramOptions = DiagramOptions()
            diagramOptions.resolver = FileFlowResolver(root: directory.isEmpty ? "." : directory)
            let plain = diagramOptions
            if !sections[index].coverage.isEmpty {
                diagramOptions.coverage = coverageOf[CoverageRecorder.display(file)]
            }
            var diagram: FlowDiagram
            do {
                diagram = try FlowDiagram(flow: flow, options: diagramOptions)
            } catch {
                sections[index].diagramNote = "The flow cannot be drawn: \(error)."
                continue
            }
            mark(&diagram, flow: flow, findings: sections[index].findings.map(\.diagnostic))
            // What each scenario visited and took, on the drawn diagram: the options its top-level completions took
            // (a merged self-loop is its first option's edge).
            let drawnAs = diagram.loopGroups()
            var edgeOf: [FlowOption: Int] = [:]
            for (edge, drawn) in diagram.edges.enumerated() {
                if let option = drawn.option, edgeOf[option] == nil { edgeOf[option] = drawnAs[edge] ?? edge }
            }
            for run in sections[index].scenarios.indices {
                let result = sections[index].scenarios[run].result
                var visited: [String] = []
                for step in result.path {
                    let top = String(step.split(separator: "/", maxSplits: 1).first ?? Substring(step))
                    if !visited.contains(top) { visited.append(top) }
                }
                var edges: [Int] = []
                for entry in result.trace where !entry.step.contains("/") {
                    guard let taken = entry.taken else { continue }
                    let option = FlowOption(step: taken.shared ? "*" : entry.step, list: taken.handler.map { .on($0) } ?? .next, index: taken.option)
                    if let edge = edgeOf[option], !edges.contains(edge) { edges.append(edge) }
                }
                sections[index].scenarios[run].visited = visited
                sections[index].scenarios[run].edges = edges.sorted()
            }
            // A diagram Graphviz cannot draw is a problem of the report, which is written without it; a layout
            // past its time stops the command (the layout cannot be stopped).
            func drawn(_ diagram: FlowDiagram, prefix: String, kind: String) throws(CommandError) -> FlowReport.Diagram? {
                do {
                    return FlowReport.Diagram(kind: kind, svg: try svg(diagram, prefix: prefix, kind: kind, file: file,
                                                                                coverageDrawn: kind == "flow" && diagramOptions.coverage != nil, draw: draw),
                                              large: diagram.nodes.count > FlowReport.Diagram.largeNodeCount)
                } catch where !error.immediately {
                    let message = error.messages.map { $0.text { "\($0)" } }.joined(separator: "; ")
                    sections[index].diagramNote = (sections[index].diagramNote.map { $0 + " " } ?? "") + message
                    report.problems.append(message)
                    cannotWork = true
                    return nil
                }
            }
            if let picture = try drawn(diagram, prefix: "d\(index)", kind: "flow") { sections[index].diagrams.append(picture) }
            if let pair = pairs[FileFlowResolver.canonical(file)], !sections[index].changes.isEmpty {
                var changeOptions = DiagramOptions(radius: 1)
                changeOptions.resolver = plain.resolver
                if let change = try? FlowDiagram(change: pair.old, to: pair.new, options: changeOptions, focusOnChanges: false),
                   let picture = try drawn(change, prefix: "c\(index)", kind: "change") {
                    sections[index].diagrams.append(picture)
                }
            }
        }

        report.sections = sections
        report.summary.files = lintReport.fileCount
        for finding in lintReport.diagnostics + extraFindings {
            switch finding.severity {
            case .error: report.summary.errors += 1
            case .warning: report.summary.warnings += 1
            case .note: report.summary.notes += 1
            }
        }
        let status: ExitStatus = cannotWork ? .failure : (lintFails || runFails || coverageFails || breakingFails) ? .findings : .success
        report.summary.passes = status == .success
        return (report, status)
    }

    /// `diagram` drawn, with the report's hooks on its root, its steps' nodes and its options' edges.
    private static func svg(_ diagram: FlowDiagram, prefix: String, kind: String, file: String, coverageDrawn: Bool, draw: Draw) throws(CommandError) -> String {
        let drawn = try draw(diagram, prefix, file)
        var hooks: [String: SVGHooks.Hook] = [:]
        hooks[prefix] = SVGHooks.Hook([], title: diagram.title)
        for node in diagram.nodes {
            guard let step = node.step ?? (node.change == .removed ? node.standsFor : nil), !node.inLegend, node.role != .boundary else {
                hooks["\(prefix)_\(node.id)"] = SVGHooks.Hook([], title: node.label)
                continue
            }
            var attributes = [("data-step", step)]
            if let mark = node.findings { attributes += [("data-findings", String(mark.count)), ("data-severity", mark.severity.rawValue)] }
            if coverageDrawn && node.step != nil && node.role != .anyStep { attributes.append(("data-covered", String(!node.neverShown))) }
            if let change = node.change { attributes.append(("data-change", change.rawValue)) }
            hooks["\(prefix)_\(node.id)"] = SVGHooks.Hook(attributes, title: step + (node.findings.map { " (\($0.count) finding\($0.count == 1 ? "" : "s"))" } ?? ""))
        }
        let drawnAs = diagram.loopGroups()
        var loopFindings: [Int: [FlowDiagram.FindingMark]] = [:]
        for (index, first) in drawnAs { if let mark = diagram.edges[index].findings { loopFindings[first, default: []].append(mark) } }
        for (index, edge) in diagram.edges.enumerated() where (drawnAs[index] ?? index) == index {
            let from = diagram.nodes[edge.from].step ?? diagram.nodes[edge.from].standsFor ?? diagram.nodes[edge.from].label
            let target = diagram.nodes[edge.to]
            let to = target.role == .backMarker ? "back" : target.step ?? target.standsFor ?? target.label
            let title = "\(from) → \(to)" + (edge.label.map { " (\($0.replacingOccurrences(of: "\n", with: ", ")))" } ?? "")
            // An option's edge, or the ghost of a removed one in a change's diagram.
            guard edge.option != nil || edge.change == .removed else {
                hooks["\(prefix)_edge\(index)"] = SVGHooks.Hook([], title: title)
                continue
            }
            var attributes = [("data-edge", String(index)), ("data-from", from), ("data-to", to)]
            let marks = loopFindings[index] ?? edge.findings.map { [$0] } ?? []
            if let worst = marks.map(\.severity).min() {
                attributes += [("data-findings", String(marks.map(\.count).reduce(0, +))), ("data-severity", worst.rawValue)]
            }
            if let change = edge.change { attributes.append(("data-change", change.rawValue)) }
            hooks["\(prefix)_edge\(index)"] = SVGHooks.Hook(attributes, title: title)
        }
        let label = kind == "change" ? "the change of \(file)" : "the flow \(file)"
        guard let annotated = SVGHooks.annotate(drawn, root: [("data-diagram", kind), ("role", "img"), ("aria-label", label)], hooks: hooks) else {
            throw CommandError.failure("cannot draw '\(name: file, limit: .max)': Graphviz wrote no SVG")
        }
        return annotated
    }

    /// Marks each step and option of `diagram` with the findings about it: a finding is about an option when it is
    /// on a line of the option (its target, its condition, an assignment of its `set`) in the step the finding
    /// names (of several options on that line, the last that starts at or before the finding), or at the event of
    /// the option's handler (its first option); else it is about its step.
    static func mark(_ diagram: inout FlowDiagram, flow: Flow, findings: [Diagnostic]) {
        guard !findings.isEmpty else { return }
        var optionLines: [FlowOption: Set<Int>] = [:]
        var optionStarts: [FlowOption: SourcePosition] = [:]
        for step in flow.steps + (flow.anyStep.map { [$0] } ?? []) {
            for (list, targets) in step.optionLists {
                for (index, target) in targets.enumerated() {
                    var lines: Set<Int> = [target.position.line]
                    if let condition = target.condition { lines.insert(condition.position.line) }
                    for assignment in target.set { lines.insert(assignment.key.position.line); lines.insert(assignment.expression.position.line) }
                    optionLines[FlowOption(step: step.name.text, list: list, index: index)] = lines
                    optionStarts[FlowOption(step: step.name.text, list: list, index: index)] = target.position
                }
            }
        }
        // A finding at a handler's event (an undeclared one) is about the handler's edge (its first option's).
        var eventKeys: [SourcePosition: FlowOption] = [:]
        for step in flow.steps + (flow.anyStep.map { [$0] } ?? []) {
            for handler in step.on where !handler.targets.isEmpty {
                eventKeys[handler.event.position] = FlowOption(step: step.name.text, list: .on(handler.event.text), index: 0)
            }
        }
        let stepKeys = Dictionary((flow.steps + (flow.anyStep.map { [$0] } ?? [])).map { ($0.name.text, $0.name.position) }, uniquingKeysWith: { first, _ in first })
        var byEdge: [Int: [Diagnostic]] = [:]
        var byStep: [String: [Diagnostic]] = [:]
        for finding in findings {
            guard let step = finding.step else { continue }
            let candidates = finding.position == stepKeys[step] ? [] : diagram.edges.indices.filter { index in
                guard let option = diagram.edges[index].option, option.step == step else { return false }
                return optionLines[option]?.contains(finding.line) == true
            }
            func start(_ index: Int) -> SourcePosition { optionStarts[diagram.edges[index].option!] ?? .start }
            let handlerEdge = eventKeys[finding.position].flatMap { option in
                diagram.edges.indices.first { diagram.edges[$0].option == option && option.step == step }
            }
            let edge = handlerEdge ?? candidates.filter { !(finding.position < start($0)) }.max { start($0) < start($1) }
            if let edge { byEdge[edge, default: []].append(finding) } else { byStep[step, default: []].append(finding) }
        }
        for index in diagram.nodes.indices {
            guard let step = diagram.nodes[index].step, diagram.nodes[index].role != .boundary, let found = byStep[step] else { continue }
            diagram.nodes[index].findings = FlowDiagram.FindingMark(found)
        }
        for (index, found) in byEdge { diagram.edges[index].findings = FlowDiagram.FindingMark(found) }
    }
}

/// The lines of a file around a position, for a finding's excerpt (docs/format.md, "The HTML report", "Bounds"),
/// counted as lint counts them (`LineIndex`).
struct Excerpts {
    /// The most characters of a line shown.
    static let lineLimit = 300
    private let bytes: [UInt8]
    private let index: LineIndex

    /// Reads `file` (nothing when it cannot be read: the excerpt is left out); its lines are counted as lint counts
    /// them for its format (its extension's, else JSON when it starts with `{` or `[`, as the loader guesses).
    init(file: String) {
        bytes = (try? FlowLoader.read(path: file, limit: 16 << 20)) ?? []
        let first = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }.first
        let format = DocumentFormat(path: file) ?? (first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .json : .yaml)
        index = LineIndex(lint: bytes, format: format)
    }

    /// Two lines before `line` and two after, shown escaped, each cut at `lineLimit` characters (Unicode scalars,
    /// counted as shown).
    func around(_ line: Int) -> [FlowReport.ExcerptLine] {
        guard !bytes.isEmpty, line >= 1, line <= index.count else { return [] }
        return (max(1, line - 2)...min(index.count, line + 2)).map { number in
            let text = String(decoding: bytes[index.starts[number - 1]..<index.end(ofLine: number - 1)], as: UTF8.self)
            let shown = Identifier.display(text, limit: .max, quoting: false)
            let cut = shown.unicodeScalars.count > Self.lineLimit
                ? String(String.UnicodeScalarView(shown.unicodeScalars.prefix(Self.lineLimit - 1))) + "…" : shown
            return FlowReport.ExcerptLine(number: number, text: cut, isAt: number == line)
        }
    }
}
