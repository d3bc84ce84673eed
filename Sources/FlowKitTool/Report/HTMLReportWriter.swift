import Foundation
import FlowKit

/// Writes a `FlowReport` as one self-contained HTML5 document (docs/format.md, "The HTML report"): inline CSS,
/// script and SVG, a Content Security Policy that allows no network and only its own script, and the hooks the
/// spec lists. The document is also well-formed XML. Every text from outside passes through `HTMLText`.
package enum HTMLReportWriter {
    /// The document.
    package static func write(_ report: FlowReport) -> String {
        let script = "//<![CDATA[\n" + ReportAssets.script + "\n//]]>"
        let scriptHash = Data(SHA256.digest(Array(script.utf8))).base64EncodedString()
        var html = """
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
            <head>
            <meta charset="utf-8" />
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-\(scriptHash)'; img-src data:; base-uri 'none'; form-action 'none'" />
            <meta name="viewport" content="width=device-width, initial-scale=1" />
            <meta name="color-scheme" content="light dark" />
            <meta name="generator" content="flowkit \(HTMLText.attribute(report.toolVersion))" />
            <title>flowkit report</title>
            <style>/*<![CDATA[*/
            \(ReportAssets.style)
            /*]]>*/</style>
            </head>
            <body>

            """
        html += summary(report)
        html += "<main>\n"
        for (index, section) in report.sections.enumerated() { html += self.section(section, index: index) }
        html += "</main>\n"
        html += "<footer>Written by flowkit \(HTMLText.text(report.toolVersion)). The hooks of this document are described in docs/format.md, “The HTML report”.</footer>\n"
        html += "<script>" + script + "</script>\n</body>\n</html>\n"
        return html
    }

    // MARK: The summary

    private static func summary(_ report: FlowReport) -> String {
        let summary = report.summary
        var html = "<header data-summary=\"\">\n<h1>flowkit report</h1>\n"
        html += "<p class=\"verdict \(summary.passes ? "passes" : "fails")\" data-verdict=\"\(summary.passes ? "passes" : "fails")\">"
            + (summary.passes ? "All checks pass." : "Checks fail.") + "</p>\n"
        func figure(_ kind: String, _ label: String, _ value: Int) -> String {
            "<div><dt>\(label)</dt><dd data-count=\"\(kind)\">\(value)</dd></div>"
        }
        var figures = [figure("files", "files", summary.files), figure("errors", "errors", summary.errors),
                       figure("warnings", "warnings", summary.warnings), figure("notes", "notes", summary.notes),
                       figure("passed", "scenarios passed", summary.passed), figure("failed", "scenarios failed", summary.failed)]
        if let changes = summary.changes, let breaking = summary.breaking {
            figures += [figure("changes", "changes", changes), figure("breaking", "breaking changes", breaking),
                        figure("changes-warning", "warning changes", summary.changesByLevel[.warning] ?? 0),
                        figure("changes-info", "info changes", summary.changesByLevel[.info] ?? 0)]
        }
        html += "<dl class=\"figures\">" + figures.joined() + "</dl>\n"
        let covered = report.sections.filter { !$0.coverage.isEmpty }
        if !covered.isEmpty {
            let kinds = CoverageItem.Kind.allCases
            html += "<table class=\"coverage\"><caption class=\"muted\">Coverage by the scenarios</caption>\n<thead><tr><th>flow file</th>"
                + kinds.map { "<th>\($0.plural)</th>" }.joined() + "</tr></thead>\n<tbody>\n"
            for section in covered {
                html += "<tr data-coverage-file=\"\(HTMLText.attribute(section.file))\"><td><a href=\"#\(anchor(section))\">\(HTMLText.name(section.file))</a></td>"
                for kind in kinds {
                    guard let figure = section.coverage.first(where: { $0.kind == kind }) else { html += "<td></td>"; continue }
                    html += "<td class=\"number\"" + coverageAttributes(figure) + ">" + coverageText(figure) + "</td>"
                }
                html += "</tr>\n"
            }
            html += "</tbody></table>\n"
        }
        if !report.problems.isEmpty {
            html += "<h3>Problems</h3>\n<ul class=\"problems\">" + report.problems.map { "<li>\(HTMLText.text(Identifier.display($0, limit: .max, quoting: false)))</li>" }.joined() + "</ul>\n"
        }
        if !report.otherChanges.isEmpty {
            html += "<h3>Other changes</h3>\n" + changes(report.otherChanges)
        }
        if !report.sections.isEmpty {
            html += "<nav><ul>" + report.sections.map { section in
                var marks = ""
                let errors = section.findings.filter { $0.diagnostic.severity == .error }.count
                let failed = section.scenarios.filter { !$0.result.passed }.count
                if errors > 0 { marks += " <span class=\"error\">\(errors) error\(errors == 1 ? "" : "s")</span>" }
                if failed > 0 { marks += " <span class=\"error\">\(failed) failed</span>" }
                return "<li><a href=\"#\(anchor(section))\">\(HTMLText.name(section.file))</a>\(marks)</li>"
            }.joined() + "</ul></nav>\n"
        }
        return html + "</header>\n"
    }

    private static func coverageAttributes(_ figure: FlowReport.CoverageFigure) -> String {
        var attributes = " data-coverage=\"\(figure.kind.plural)\" data-covered=\"\(figure.covered)\" data-total=\"\(figure.total)\" data-percent=\"\(number(figure.percent))\""
        if let minimum = figure.minimum { attributes += " data-minimum=\"\(number(minimum))\" data-meets=\"\(figure.meets)\"" }
        return attributes
    }

    private static func coverageText(_ figure: FlowReport.CoverageFigure) -> String {
        var text = "\(CoverageTextReporter.percent(figure.percent)) <span class=\"muted\">(\(figure.covered)/\(figure.total))</span>"
        if let minimum = figure.minimum { text += " <span class=\"muted\">min \(CoverageTextReporter.percent(minimum))</span>" }
        return text
    }

    /// A number as the hooks write it: an integer without a fraction, else the shortest decimal that reads back.
    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    private static func anchor(_ section: FlowReport.Section) -> String {
        "file-" + Array(SHA256.digest(Array(section.file.utf8)).prefix(6)).map { String(format: "%02x", $0) }.joined()
    }

    // MARK: A section

    private static func section(_ section: FlowReport.Section, index: Int) -> String {
        var html = "<section id=\"\(anchor(section))\" data-flow=\"\(HTMLText.attribute(section.file))\">\n"
        html += "<h2>" + (section.title.map { HTMLText.name($0) + " " } ?? "") + "<code>\(HTMLText.name(section.file))</code></h2>\n"
        if !section.coverage.isEmpty {
            html += "<dl class=\"figures\">" + section.coverage.map { figure in
                "<div><dt>\(figure.kind.plural)</dt><dd" + coverageAttributes(figure) + ">" + coverageText(figure) + "</dd></div>"
            }.joined() + "</dl>\n"
        }
        for diagram in section.diagrams {
            let caption = diagram.kind == "change" ? "The change: added green, changed orange, removed red and dashed." : "The flow"
                + (section.coverage.isEmpty ? "" : ", with the scenarios' coverage") + "; ⚠ marks findings."
            html += "<figure class=\"diagram\(diagram.large ? " large" : "")\">\n" + diagram.svg + "\n<figcaption>\(caption)</figcaption></figure>\n"
        }
        if let note = section.diagramNote { html += "<p class=\"muted\">\(HTMLText.text(note))</p>\n" }
        if !section.changes.isEmpty {
            html += "<h3>Changes (\(section.changes.count))</h3>\n" + changes(section.changes)
        }
        if !section.findings.isEmpty {
            html += "<h3>Findings (\(section.findings.count))</h3>\n<ol class=\"findings\">\n"
            for finding in section.findings { html += self.finding(finding) }
            html += "</ol>\n"
        }
        if !section.scenarios.isEmpty {
            let passed = section.scenarios.filter(\.result.passed).count
            html += "<h3>Scenarios (\(passed) passed, \(section.scenarios.count - passed) failed)</h3>\n"
            html += "<p class=\"muted\">Select a scenario to mark the steps it visited and the options it took on the diagram.</p>\n<ol class=\"scenarios\">\n"
            for run in section.scenarios { html += scenario(run) }
            html += "</ol>\n"
        }
        return html + "</section>\n"
    }

    private static func finding(_ finding: FlowReport.Finding) -> String {
        let diagnostic = finding.diagnostic
        var attributes = " data-finding=\"\" data-rule=\"\(HTMLText.attribute(diagnostic.rule.rawValue))\" data-severity=\"\(diagnostic.severity.rawValue)\""
            + " data-line=\"\(diagnostic.line)\" data-column=\"\(diagnostic.column)\" data-file=\"\(HTMLText.attribute(diagnostic.file))\""
        if let step = diagnostic.step { attributes += " data-at-step=\"\(HTMLText.attribute(step))\"" }
        var html = "<li\(attributes)>\n<div class=\"head\"><span class=\"severity\">\(diagnostic.severity.rawValue)</span> "
        html += "<code>\(HTMLText.text(diagnostic.rule.rawValue))</code> "
        html += "<span class=\"mono muted\">\(HTMLText.name(diagnostic.file)):\(diagnostic.line):\(diagnostic.column)</span> "
        html += "<button type=\"button\" data-show-step=\"\">" + (diagnostic.step == nil ? "show the diagram" : "show step " + HTMLText.name(diagnostic.step!)) + "</button></div>\n"
        html += "<div class=\"message\">\(HTMLText.text(Identifier.display(diagnostic.message, limit: .max, quoting: false)))</div>\n"
        if !finding.excerpt.isEmpty {
            html += "<pre class=\"excerpt\">" + finding.excerpt.map { line in
                let number = String(line.number).leftPadded(5)
                return "<span" + (line.isAt ? " class=\"at\"" : "") + ">\(number) \(line.isAt ? "▶" : " ") \(HTMLText.text(line.text))</span>"
            }.joined() + "</pre>\n"
        }
        switch finding.witness {
        case .found(let witness)?:
            html += "<div class=\"witness\" data-witness=\"\(HTMLText.attribute(Witnesses.json(witness)))\">e.g. <span class=\"mono\">"
                + HTMLText.text(Identifier.display(Witnesses.text(witness), limit: .max, quoting: false)) + "</span>"
            if let note = Witnesses.fixtureNote(witness) { html += " <span class=\"muted\">(\(HTMLText.text(note)))</span>" }
            html += "</div>\n"
        case .none(let why)?:
            html += "<div class=\"witness muted\">no witness: \(HTMLText.text(Identifier.display(why.description, limit: .max, quoting: false)))</div>\n"
        case nil:
            break
        }
        return html + "</li>\n"
    }

    private static func changes(_ changes: [FlowChange]) -> String {
        "<ul class=\"changes\">\n" + changes.map { change in
            let place = change.new ?? change.old
            let at = place.map { "<span class=\"mono muted\">\(HTMLText.name($0.file)):\($0.line):\($0.column)</span> " } ?? ""
            return "<li data-flow-change=\"\" data-check=\"\(change.check.rawValue)\" data-level=\"\(change.level.rawValue)\"><span class=\"level\">\(change.level.rawValue)</span> "
                + at + HTMLText.text(Identifier.display(change.message, limit: .max, quoting: false)) + " <code class=\"muted\">\(change.check.rawValue)</code></li>\n"
        }.joined() + "</ul>\n"
    }

    private static func scenario(_ run: FlowReport.ScenarioRun) -> String {
        let result = run.result
        var html = "<li data-scenario=\"\(HTMLText.attribute(result.name))\" data-result=\"\(result.passed ? "passed" : "failed")\""
            + " data-script=\"\(HTMLText.attribute(run.script))\" data-path=\"\(HTMLText.attribute(HTMLText.jsonArray(run.visited)))\""
            + " data-edges=\"[\(run.edges.map(String.init).joined(separator: ","))]\">\n"
        html += "<button type=\"button\" data-select-scenario=\"\" aria-pressed=\"false\">\(HTMLText.name(result.name))</button> "
        if result.passed {
            html += "<span class=\"result\">passed</span>: outcome <code>\(HTMLText.name(result.outcome ?? ""))</code> after \(result.path.count) step\(result.path.count == 1 ? "" : "s")"
        } else {
            html += "<span class=\"result\">failed</span>"
        }
        html += " <span class=\"muted\">in <code>\(HTMLText.name(run.script))</code></span>\n"
        if !result.passed {
            html += "<ul class=\"failures\">" + result.failures.map { failure in
                var line = HTMLText.text(Identifier.display(failure.message, limit: .max, quoting: false))
                if let file = failure.file { line += " <span class=\"mono muted\">at \(HTMLText.name(file)):\(failure.position.line):\(failure.position.column)</span>" }
                return "<li>\(line)</li>"
            }.joined() + "</ul>\n"
        }
        html += "<details><summary>trace</summary><pre class=\"trace\">\(HTMLText.text(TextSimulationReporter.trace(result.trace)))</pre></details>\n"
        return html + "</li>\n"
    }
}
