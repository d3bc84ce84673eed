import Foundation
import Testing
import FlowGen
@testable import FlowKit
@testable import FlowKitTool

/// Markdown for pull request comments (docs/format.md, "Markdown text"): read by a real CommonMark/GFM parser
/// (cmark-gfm, which `make test` installs), no name splits a table cell or becomes markup (issue 29).
@Suite("Markdown text")
struct MarkdownTextTests {
    /// Pieces of hostile names: cell and span ends, tags, entities, links, mentions, emphasis, math, line breaks.
    static let pieces = ["a", "|", "\\|", "\\", "`", "``", "<", ">", "<script>", "</summary>", "<details>", "<!--", "-->", "&lt;b&gt;", "&amp;",
                         "&#64;", "*", "_", "**", "~~", "~", "$", "$x$", "[x](y)", "![i](j)", "https://x.io", "www.a.io", "WWW.b.io", "a@b.io",
                         "@octo", ":smile:", "#", " ", "\n", "\t", "\u{202E}", "é", "🙂", "'", "\"", "=", "-", "1.", "> q", "]]>"]

    static func name(_ rng: inout SplitMix64) -> String {
        (0..<rng.int(in: 1...7)).map { _ in pieces[rng.below(pieces.count)] }.joined()
    }

    /// The HTML cmark-gfm makes of `markdown`, with raw HTML let through (so that any would be seen).
    static func html(_ markdown: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cmark-gfm", "--unsafe", "-e", "table", "-e", "autolink", "-e", "strikethrough"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(markdown.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "cmark-gfm is missing: make test installs it")
        return String(decoding: data, as: UTF8.self)
    }

    /// The tags of `html`, by name, with their attributes.
    static func tags(_ html: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: "<[^>]*>")
        return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { String(html[Range($0.range, in: html)!]) }
    }

    /// `html`'s text: tags dropped, the five entities cmark writes read back.
    static func text(_ html: String) -> String {
        html.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The cells of each row of each table of `html`.
    static func rows(_ html: String) -> [[String]] {
        html.components(separatedBy: "<tr>").dropFirst().map { row in
            let body = row.components(separatedBy: "</tr>")[0]
            return body.components(separatedBy: "\n").filter { $0.hasPrefix("<td") || $0.hasPrefix("<th") }
                .map { $0.replacingOccurrences(of: "^<t[dh][^>]*>|</t[dh]>$", with: "", options: .regularExpression) }
        }
    }

    static let allowed: Set<String> = ["<table>", "</table>", "<thead>", "</thead>", "<tbody>", "</tbody>", "<tr>", "</tr>", "<th>", "</th>",
                                       "<th align=\"right\">", "<td>", "</td>", "<td align=\"right\">", "<code>", "</code>", "<p>", "</p>",
                                       "<h3>", "</h3>", "<h4>", "</h4>", "<details>", "<details open>", "</details>", "<summary>", "</summary>",
                                       "<ul>", "</ul>", "<li>", "</li>", "<pre>", "</pre>", "<code class=\"language-mermaid\">"]

    /// Property: for random hostile names in files, steps, titles and messages, the diff comment, the changelog and
    /// the coverage summary keep every table row at its header's cells, show each message and file name as it is
    /// (as the text report shows it), and hold no tag but their own; a `<summary>` holds text only.
    @Test func noNameSplitsACellOrBecomesMarkup() throws {
        var rng = SplitMix64(seed: 0x3D0C)
        var tables = 0
        for round in 0..<120 {
            var changes: [FlowChange] = []
            for index in 0..<rng.int(in: 1...4) {
                let file = Self.name(&rng)
                let place = FlowChange.Place(file: file, line: index + 1, column: 1)
                let level = [ChangeLevel.info, .warning, .breaking][rng.below(3)]
                changes.append(FlowChange(check: .stepRemoved, level: level, message: "step '\(Self.name(&rng))' removed", old: place, new: rng.chance(0.5) ? place : nil,
                                          was: .step("a"), now: nil, file: file))
            }
            let report = DiffReport(old: Self.name(&rng), new: Self.name(&rng), changes: changes,
                                    pictures: [DiffReport.Picture(file: Self.name(&rng), mermaid: "stateDiagram-v2\n    state \"x\" as n0\n")])
            let comment = try Self.html(DiffMarkdownReporter().render(report))
            let coverage = Coverage(files: [FileCoverage(file: Self.name(&rng), items: [
                CoverageItem(.step("s"), description: "step '\(Self.name(&rng))'", line: 1, column: 1),
            ])])
            let summary = try Self.html(CoverageMarkdownReporter().render(coverage))
            let changelog = try Self.html(DiffChangelogReporter().render(report))
            for html in [comment, summary, changelog] {
                for tag in Self.tags(html) { #expect(Self.allowed.contains(tag), "round \(round): \(tag) in\n\(html)") }
                for summary in html.components(separatedBy: "<summary>").dropFirst() {
                    #expect(!summary.components(separatedBy: "</summary>")[0].contains("<"), "round \(round)")
                }
            }
            // Every row has its header's cells; the diff tables show each change's message and place as they are.
            for html in [comment, summary] {
                for table in html.components(separatedBy: "<table>").dropFirst() {
                    let rows = Self.rows(table.components(separatedBy: "</table>")[0])
                    tables += 1
                    for row in rows { #expect(row.count == rows[0].count, "round \(round): \(row)") }
                }
            }
            let shown = Self.rows(comment).filter { $0.count == 3 && $0[0] != "where" }
            #expect(shown.count == changes.count)
            for (row, change) in zip(shown, changes.sorted { $0.level > $1.level }) where !row.isEmpty {
                let place = change.new ?? change.old!
                #expect(Self.text(row[0]) == MarkdownText.code("\(place.file):\(place.line):\(place.column)"), "round \(round)")
                #expect(Self.text(row[1]) == Identifier.display(change.message, limit: .max, quoting: false), "round \(round)")
            }
            let coverageRow = try #require(Self.rows(summary).last)
            #expect(Self.text(coverageRow[0]) == MarkdownText.code(coverage.files[0].file), "round \(round)")
            #expect(Self.text(summary.components(separatedBy: "<li>").last ?? "").hasPrefix(MarkdownText.code(coverage.files[0].file) + ":1:1 "))
            let pictureSummary = comment.components(separatedBy: "<summary>").last?.components(separatedBy: "</summary>")[0] ?? ""
            #expect(Self.text(pictureSummary) == Identifier.display(report.pictures[0].file, limit: .max, quoting: false), "round \(round)")
        }
        #expect(tables >= 300)
    }
}
