import Foundation
import Testing
import FlowGen
@testable import FlowKit
@testable import FlowKitTool

/// `flowkit report`'s model and writer (docs/format.md, "The HTML report"), with diagrams drawn by a stand-in for
/// Graphviz (`stubSVG`): the structure goldens of the samples, the exit status, and the property that every report
/// reads back as XML with hooks that name exactly what was reported, whatever the names.
@Suite struct ReportFrontendTests {
    static let samples = ["flows/booking.json", "flows/onboarding.yaml", "flows/profile.yaml", "flows/signup.yaml", "flows/transfer.yaml", "flows/transfer.json"]
    static let scripts = ["booking", "onboarding", "profile", "signup", "transfer"].map { "flows/scripts/\($0).yaml" }

    static let draw: ReportFrontend.Draw = { diagram, prefix, file in stubSVG(diagram, prefix: prefix, file: file) }

    static func report(_ options: ReportFrontend.Options) throws -> (FlowReport, FlowKitTool.ExitStatus, ReportDocument) {
        let (report, status) = try ReportFrontend.build(options, draw: draw)
        let document = ReportDocument(HTMLReportWriter.write(report))
        #expect(document.error == nil, "the report is not well-formed XML: \(document.error ?? "")")
        return (report, status, document)
    }

    @Test func samplesStructure() throws {
        var options = ReportFrontend.Options(paths: Self.samples.map { packageRoot + "/" + $0 })
        options.scripts = Self.scripts.map { packageRoot + "/" + $0 }
        let (report, status, document) = try Self.report(options)
        #expect(status == .success)
        #expect(report.summary.passed == 27 && report.summary.failed == 0)
        try expectGolden(document.outline(relativeTo: packageRoot), "samples.outline", in: "Tests/FlowKitToolTests/Report/Golden")
    }

    @Test func brokenFlowsStructure() throws {
        let (report, status, document) = try Self.report(ReportFrontend.Options(paths: [packageRoot + "/flows/broken"]))
        #expect(status == .findings)
        #expect(report.summary.errors > 0)
        try expectGolden(document.outline(relativeTo: packageRoot), "broken.outline", in: "Tests/FlowKitToolTests/Report/Golden")
    }

    /// The exit status is lint's, simulate's, coverage's and diff's combined; the report is built in each case.
    @Test func exitStatusCombinesTheChecks() throws {
        var clean = ReportFrontend.Options(paths: [packageRoot + "/flows/transfer.yaml"])
        clean.scripts = [packageRoot + "/flows/scripts/transfer.yaml"]
        #expect(try ReportFrontend.build(clean, draw: Self.draw).1 == .success)

        // A threshold the scripts reach passes; one they miss fails (see also `configuredCoverageMinimum`).
        var reached = clean
        reached.minimum = try CoverageThreshold(parsing: "transitions=100,steps=100")
        #expect(try ReportFrontend.build(reached, draw: Self.draw).1 == .success)

        var failing = clean
        failing.scripts = [packageRoot + "/flows/broken/script.yaml"]
        let failed = try ReportFrontend.build(failing, draw: Self.draw)
        #expect(failed.1 == .findings)
        #expect(failed.0.summary.failed > 0)

        var unreadable = clean
        unreadable.paths.append("/nonexistent/flow.yaml")
        let cannot = try ReportFrontend.build(unreadable, draw: Self.draw)
        #expect(cannot.1 == .failure)
        #expect(cannot.0.problems.contains { $0.contains("/nonexistent/flow.yaml") })

        var strict = ReportFrontend.Options(paths: [packageRoot + "/flows/broken/maybe_unset.yaml"])
        #expect(try ReportFrontend.build(strict, draw: Self.draw).1 == .success)
        strict.strict = true
        #expect(try ReportFrontend.build(strict, draw: Self.draw).1 == .findings)
    }

    /// A scenario marks the options its completions took, not others that join the same steps; a self-loop drawn
    /// as one carries the findings of every option it draws; a script with lint errors is not run.
    @Test func scenariosMarkTheOptionsTheyTookAndLoopsCarryTheirFindings() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            flowkit: 1
            flow: twins
            start: a
            state: { n: int? }
            events: { e1: null, e2: null, e3: null, e4: null }
            steps:
              a:
                on:
                  e1: b
                  e2: b
                  e3: a
                  e4: { forward: a, if: "state.n > 3" }
              b: { kind: finish }
            """.write(toFile: folder + "/twins.yaml", atomically: true, encoding: .utf8)
        try """
            flowkit-script: 1
            flow: twins.yaml
            scenarios:
              - name: by e1
                steps:
                  - a: { event: e1 }
                expect: { outcome: b }
            """.write(toFile: folder + "/twins.script.yaml", atomically: true, encoding: .utf8)
        try """
            flowkit-script: 1
            flow: twins.yaml
            scenarios:
              - name: never runs
                steps:
                  - nowhere: {}
            """.write(toFile: folder + "/broken.script.yaml", atomically: true, encoding: .utf8)
        let (report, status, document) = try Self.report(ReportFrontend.Options(paths: [folder]))
        #expect(status == .findings)
        let section = try #require(report.sections.first { $0.file.hasSuffix("twins.yaml") })
        #expect(section.scenarios.map(\.result.name) == ["by e1"])
        let diagram = try #require(document.elements.first { $0.attributes["data-diagram"] == "flow" })
        let edges = diagram.descendants.filter { $0.attributes["data-edge"] != nil }
        let taken = try #require(section.scenarios.first).edges
        #expect(taken.count == 1)
        let edge = try #require(edges.first { $0.attributes["data-edge"] == String(taken[0]) })
        #expect(edge.attributes["data-from"] == "a" && edge.attributes["data-to"] == "b")
        // The e1 option is the first of a's: the e2 option, to the same step, is another edge, not taken.
        #expect(edges.filter { $0.attributes["data-from"] == "a" && $0.attributes["data-to"] == "b" }.count == 2)
        #expect(edges.first { $0.attributes["data-from"] == "a" && $0.attributes["data-to"] == "b" }?.attributes["data-edge"] == String(taken[0]))
        // The two loops of a look alike: drawn as one, which carries the findings of the e4 option.
        let loops = edges.filter { $0.attributes["data-from"] == "a" && $0.attributes["data-to"] == "a" }
        #expect(loops.count == 1)
        #expect(loops.first?.attributes["data-findings"] == "2")
        #expect(section.findings.map(\.diagnostic.rule.rawValue).sorted() == ["maybe_null", "non_exhaustive_guards"])
        // The script with a lint error is not run: one failed scenario, a problem, its findings in its section.
        #expect(report.summary.failed == 1 && report.summary.passed == 1)
        #expect(report.problems.contains { $0.contains("broken.script.yaml") && $0.contains("lint finds errors") })
        #expect(report.sections.contains { $0.file.hasSuffix("broken.script.yaml") && !$0.findings.isEmpty })
    }

    /// Excerpts: lines counted as lint counts them for the file's format (JSON guessed from its first character, as
    /// the loader does, so a U+2028 in a string is no line break), each cut at 300 characters as shown.
    @Test func excerptsCountLinesAsLintAndCutWhatIsShown() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let json = "{\n  \"a\": \"x\u{2028}y\",\n  \"b\": 1,\n  \"c\": 2\n}\n"
        try json.write(toFile: folder + "/f.flow", atomically: true, encoding: .utf8)
        let lines = Excerpts(file: folder + "/f.flow").around(3)
        #expect(lines.map(\.number) == [1, 2, 3, 4, 5])
        #expect(lines.first { $0.isAt }?.text == "  \"b\": 1,")
        let long = "a" + String(repeating: "\u{301}", count: 1_000) + "\n" + String(repeating: "\t", count: 400) + "\n"
        try long.write(toFile: folder + "/long.yaml", atomically: true, encoding: .utf8)
        for line in Excerpts(file: folder + "/long.yaml").around(1) {
            #expect(line.text.unicodeScalars.count <= Excerpts.lineLimit, "\(line.number)")
        }
    }

    /// A script whose flow cannot be read names no flow that can run: a failed scenario (exit 1), not work undone.
    @Test func aScriptWhoseFlowIsMissingFailsAScenario() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/signup.yaml", toPath: folder + "/signup.yaml")
        try "flowkit-script: 1\nflow: gone.yaml\nscenarios:\n  - name: x\n    steps: []\n".write(toFile: folder + "/s.yaml", atomically: true, encoding: .utf8)
        var options = ReportFrontend.Options(paths: [folder + "/signup.yaml"])
        options.scripts = [folder + "/s.yaml"]
        let (report, status) = try ReportFrontend.build(options, draw: Self.draw)
        #expect(status == .findings)
        #expect(report.summary.failed == 1)
        options.scripts = [folder + "/none.yaml"]
        #expect(try ReportFrontend.build(options, draw: Self.draw).1 == .failure)
    }

    /// A configuration's `coverage: { minimum: … }` holds a flow file to its percentages; `--min-coverage` wins.
    @Test func configuredCoverageMinimum() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/transfer.yaml", toPath: folder + "/transfer.yaml")
        let script = try String(contentsOfFile: packageRoot + "/flows/scripts/transfer.yaml", encoding: .utf8)
            .replacingOccurrences(of: "flow: ../transfer.yaml", with: "flow: transfer.yaml")
        // Only the first scenario: not every transition is taken.
        let first = script.components(separatedBy: "\n  - name:").prefix(2).joined(separator: "\n  - name:")
        try first.write(toFile: folder + "/transfer.script.yaml", atomically: true, encoding: .utf8)
        try "coverage: { minimum: { transitions: 95 } }\n".write(toFile: folder + "/.flowkit.yml", atomically: true, encoding: .utf8)
        let options = ReportFrontend.Options(paths: [folder])
        let (report, status, document) = try Self.report(options)
        #expect(status == .findings)
        let figure = try #require(report.sections.first?.coverage.first { $0.kind == CoverageItem.Kind.transition })
        #expect(figure.minimum == 95 && !figure.meets)
        #expect(document.all("data-coverage").contains { $0.attributes["data-coverage"] == "transitions" && $0.attributes["data-meets"] == "false" })
        var lower = options
        lower.minimum = try CoverageThreshold(parsing: "transitions=10")
        #expect(try ReportFrontend.build(lower, draw: Self.draw).1 == .success)

        try "coverage: { minimum: { transitons: 95 } }\n".write(toFile: folder + "/.flowkit.yml", atomically: true, encoding: .utf8)
        #expect(throws: CommandError.self) { try ReportFrontend.build(options, draw: Self.draw) }
        #expect(throws: ConfigurationError.self) { try LintConfiguration.load(path: folder + "/.flowkit.yml") }
        do {
            _ = try LintConfiguration.load(path: folder + "/.flowkit.yml")
        } catch {
            #expect("\(error)".contains("did you mean 'transitions'"))
        }
    }

    /// Property: on random bundles (nested flows, findings of every kind) with scripts generated for them, under
    /// hostile file and scenario names, the report reads back as XML, and its hooks name exactly what was reported:
    /// the flow file, every step drawn, each finding, each scenario by its exact name with its result, path and
    /// options taken, and the summary's figures.
    @Test func everyReportReadsBackWithItsHooks() throws {
        var checked = 0, scenarios = 0, findings = 0
        var generator = SplitMix64(seed: 7)
        for seed in UInt64(1)...30 {
            let bundle = BlueprintGenerator.bundle(seed: seed)
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let mainName = Self.hostileName(&generator, seed: seed, allowControl: false).replacingOccurrences(of: "/", with: "|") + ".yaml"
            var mainText = bundle.main.text
            if bundle.main.format == .json { mainText = bundle.main.flow.render(.yaml) }
            try mainText.write(toFile: folder + "/" + mainName, atomically: true, encoding: .utf8)
            for child in bundle.children { try child.text.write(toFile: folder + "/" + child.name, atomically: true, encoding: .utf8) }
            let mainPath = folder + "/" + mainName
            // A script of generated scenarios, renamed with hostile names.
            let document = FlowLoader.load(bytes: Array(mainText.utf8), file: mainPath)
            var names: [String] = []
            if let flow = document.flow, document.isWellFormed, let compiled = try? CompiledFlow(flow: flow) {
                let generated = ScenarioGenerator(budget: 1_000).generate(flow: compiled, resolver: FileFlowResolver(root: folder))
                let text = GeneratedScript.text(generated, flowReference: mainName, flowName: flow.name.text)
                let parsed = FlowLoader.load(bytes: Array(text.utf8), file: folder + "/main.script.yaml")
                if let root = parsed.root, var script = ScriptDecoder.decode(root, file: folder + "/main.script.yaml").script, !script.scenarios.isEmpty {
                    for index in script.scenarios.indices {
                        let name = Self.hostileName(&generator, seed: UInt64(index), allowControl: true)
                        script.scenarios[index].name = name
                        names.append(name)
                    }
                    try ScriptWriter.text(script).write(toFile: folder + "/main.script.yaml", atomically: true, encoding: .utf8)
                }
            }
            // A small witness budget: the property holds at any budget, and a debug build searches slowly.
            var options = ReportFrontend.Options(paths: [folder])
            options.witnessBudget = 500
            let (report, _, html) = try Self.report(options)
            guard html.error == nil else { continue }
            let sections = html.all("data-flow").filter { $0.name == "section" }
            let main = try #require(sections.first { $0.attributes["data-flow"] == mainPath }, "seed \(seed): no section of \(mainPath)")
            let modelSection = try #require(report.sections.first { $0.file == mainPath })
            // Every step is drawn, named by its hook.
            if let flow = document.flow, document.isWellFormed {
                let diagram = try #require(main.descendants.first { $0.name == "svg" && $0.attributes["data-diagram"] == "flow" }, "seed \(seed)")
                let drawn = Set(diagram.descendants.compactMap { $0.attributes["data-step"] })
                #expect(Set(flow.steps.map(\.name.text)).isSubset(of: drawn), "seed \(seed): steps not drawn")
                let edges = Set(diagram.descendants.compactMap { $0.attributes["data-edge"].flatMap { Int($0) } })
                for scenario in main.descendants where scenario.attributes["data-scenario"] != nil {
                    let taken = try JSONDecoder().decode([Int].self, from: Data(scenario.attributes["data-edges", default: "[]"].utf8))
                    #expect(Set(taken).isSubset(of: edges), "seed \(seed): a scenario names an edge the diagram lacks")
                    let path = try JSONDecoder().decode([String].self, from: Data(scenario.attributes["data-path", default: "[]"].utf8))
                    #expect(Set(path).isSubset(of: drawn), "seed \(seed): a scenario visits a step the diagram lacks")
                }
            }
            // Each finding of the file, with its rule and position.
            let shown = main.descendants.filter { $0.attributes["data-finding"] != nil }
            #expect(shown.count == modelSection.findings.count)
            for (element, finding) in zip(shown, modelSection.findings) {
                #expect(element.attributes["data-rule"] == finding.diagnostic.rule.rawValue)
                #expect(element.attributes["data-line"] == String(finding.diagnostic.line))
                #expect(element.attributes["data-at-step"] == finding.diagnostic.step)
                #expect(element.attributes["data-file"] == finding.diagnostic.file)
            }
            findings += shown.count
            // Each scenario by its exact name (C0 controls but tab, line break and carriage return read as U+FFFD).
            let runs = main.descendants.filter { $0.attributes["data-scenario"] != nil }
            #expect(runs.map { $0.attributes["data-scenario"]! } == names.map(Self.readBack), "seed \(seed)")
            for (element, run) in zip(runs, modelSection.scenarios) {
                #expect(element.attributes["data-result"] == (run.result.passed ? "passed" : "failed"))
            }
            scenarios += runs.count
            // The summary's figures are what the document holds.
            func count(_ kind: String) -> Int? { html.all("data-count").first { $0.attributes["data-count"] == kind }.flatMap { Int($0.allText) } }
            let all = html.all("data-finding")
            #expect(count("errors") == all.filter { $0.attributes["data-severity"] == "error" }.count)
            #expect(count("warnings") == all.filter { $0.attributes["data-severity"] == "warning" }.count)
            #expect(count("passed") == html.all("data-scenario").filter { $0.attributes["data-result"] == "passed" }.count)
            // No text became markup: the only elements are the writer's own and the stand-in's.
            let allowed: Set<String> = ["html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p", "dl", "div", "dt", "dd",
                                        "table", "caption", "thead", "tbody", "tr", "th", "td", "a", "ul", "ol", "li", "nav", "main", "section",
                                        "code", "span", "figure", "figcaption", "svg", "g", "text", "button", "pre", "details", "summary", "footer", "script"]
            #expect(Set(html.elements.map(\.name)).isSubset(of: allowed), "seed \(seed): \(Set(html.elements.map(\.name)).subtracting(allowed))")
            #expect(html.elements.filter { $0.name == "script" }.count == 1)
            checked += 1
        }
        #expect(checked >= 25, "only \(checked) reports read back")
        #expect(scenarios >= 30 && findings >= 30, "\(scenarios) scenarios, \(findings) findings")
    }

    /// A name with what HTML and XML must escape, and, when `allowControl`, control and format characters.
    static func hostileName(_ generator: inout SplitMix64, seed: UInt64, allowControl: Bool) -> String {
        var pieces = ["<b>", "&amp;", "\"", "'", "]]>", "</script>", "<!--", "&", "é", "😀", "x", " ", "\u{202E}"]
        if allowControl { pieces += ["\n", "\t", "\r", "\u{1}", "\u{1b}", "\u{85}"] }
        var name = "s\(seed)"
        for _ in 0..<6 { name += pieces[Int(generator.next() % UInt64(pieces.count))] }
        return name
    }

    /// What an attribute holding `name` reads back as (docs/format.md, "Escaping").
    static func readBack(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.map { scalar in
            scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r" ? "\u{FFFD}" : scalar
        }))
    }

    func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "flowkit-report-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
