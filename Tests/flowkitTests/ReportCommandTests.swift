import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `flowkit report` run as a user runs it, with Graphviz drawing the diagrams (docs/format.md, "The HTML report").
@Suite("flowkit report")
struct ReportCommandTests {
    /// Whether `text` is well-formed XML, as the spec says the report is.
    func isWellFormedXML(_ text: String) -> Bool {
        XMLParser(data: Data(text.utf8)).parse()
    }

    @Test func writesOneSelfContainedFileWithAHookedDiagramPerFlow() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = folder + "/report.html"
        let result = try flowkit(["report", "flows/transfer.yaml", "flows/booking.json", "--script", "flows/scripts/transfer.yaml",
                                  "--script", "flows/scripts/booking.yaml", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("wrote \(output)\n"))
        #expect(result.stderr.contains("11 scenarios passed, 0 failed"))
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(isWellFormedXML(html))
        // Self-contained: no reference to anything outside the file.
        for outside in ["src=\"http", "href=\"http", "url(http", "@import", "<link", "src=\"//", "<img"] { #expect(!html.contains(outside), "\(outside)") }
        #expect(html.components(separatedBy: "<svg data-diagram=\"flow\"").count == 4)  // transfer, booking, sign-in
        for step in ["amount", "tariffs", "confirmation", "success", "finish", "invalidAmount", "alert"] {
            #expect(html.contains("data-step=\"\(step)\""), "\(step)")
        }
        #expect(html.contains("section id=\"file-") && html.contains("data-flow=\"flows/nested/sign-in.yaml\""))
    }

    @Test func dashWritesToStandardOutputAndTheDefaultIsInTheWorkingDirectory() throws {
        let stdout = try flowkit(["report", "flows/signup.yaml", "-o", "-"])
        #expect(stdout.status == 0, "\(stdout.stderr)")
        #expect(stdout.stdout.hasPrefix("<!DOCTYPE html>") && stdout.stdout.hasSuffix("</html>\n"))
        #expect(!stdout.stderr.contains("wrote"))
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/signup.yaml", toPath: folder + "/signup.yaml")
        let result = try flowkit(["report", "signup.yaml"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/flowkit-report.html"))
    }

    /// A failed check still writes the report (a CI job keeps it); what cannot start writes nothing.
    @Test func exitStatusAndWhatIsWritten() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = folder + "/report.html"
        let broken = try flowkit(["report", "flows/broken/dead_end.yaml", "-o", output])
        #expect(broken.status == 1)
        #expect(FileManager.default.fileExists(atPath: output))
        try FileManager.default.removeItem(atPath: output)

        let missing = try flowkit(["report", "flows/signup.yaml", "flows/nope.yaml", "-o", output])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("flows/nope.yaml"))
        #expect(FileManager.default.fileExists(atPath: output))
        try FileManager.default.removeItem(atPath: output)

        // Scenarios that pass but miss a threshold fail the report; the same with a threshold they meet passes.
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/transfer.yaml", toPath: folder + "/transfer.yaml")
        let script = try String(contentsOfFile: packageRoot + "/flows/scripts/transfer.yaml", encoding: .utf8)
            .replacingOccurrences(of: "flow: ../transfer.yaml", with: "flow: transfer.yaml")
        try script.components(separatedBy: "\n  - name:").prefix(2).joined(separator: "\n  - name:")
            .write(toFile: folder + "/one.yaml", atomically: true, encoding: .utf8)
        for (minimum, status) in [("transitions=100", Int32(1)), ("steps=10", Int32(0))] {
            let result = try flowkit(["report", folder + "/transfer.yaml", "--script", folder + "/one.yaml", "--min-coverage", minimum, "-o", output])
            #expect(result.status == status, "\(minimum): \(result.stderr)")
            #expect(result.stderr.contains("1 scenario passed, 0 failed"))
            try FileManager.default.removeItem(atPath: output)
        }

        for arguments in [["--config", folder + "/none.yml"], ["--git", "no-such-revision-\(UUID().uuidString)"], ["--min-coverage", "stepz=1"]] {
            let result = try flowkit(["report", "flows/signup.yaml", "-o", output] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output), "\(arguments)")
        }
        #expect(try flowkit(["report", "-o", output]).status == 2)

        // A layout past --timeout stops the command with nothing written.
        try jumpyFlow(steps: 400).write(toFile: folder + "/big.yaml", atomically: true, encoding: .utf8)
        let slow = try flowkit(["report", folder + "/big.yaml", "--timeout", "0.05", "-o", output])
        #expect(slow.status == 2)
        #expect(slow.stderr.contains("gave up after 0.05 s laying out"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// Graphviz decodes character references in labels: text that looks like one stays text, and a character
    /// XML cannot hold never reaches the SVG; a self-loop drawn for two options carries the findings of both.
    @Test func labelsStayTextThroughGraphviz() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let title = "A &amp; B &#27; C &#x1b; &copy; <i>x</i> \u{FFFE}"
        let flow: [String: Any] = [
            "flowkit": 1, "flow": "labels", "title": title, "start": "a", "state": ["n": "int?"],
            "events": ["e3": NSNull(), "e4": NSNull()],
            "steps": ["a": ["title": "&#1; step", "on": ["e3": "a", "e4": ["forward": "a", "if": "state.n > 3"]], "next": "b"],
                      "b": ["kind": "finish"]],
        ]
        try JSONSerialization.data(withJSONObject: flow).write(to: URL(fileURLWithPath: folder + "/labels.json"))
        let output = folder + "/report.html"
        let result = try flowkit(["report", folder + "/labels.json", "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(isWellFormedXML(html))
        let svg = try #require(html.components(separatedBy: "<svg data-diagram=\"flow\"").last?.components(separatedBy: "</svg>").first)
        #expect(svg.contains("A &amp;amp; B &amp;#27; C &amp;#x1b; &amp;copy; &lt;i&gt;x&lt;/i&gt;"))
        #expect(svg.contains("&amp;#1; step"))
        #expect(!svg.unicodeScalars.contains { $0.value == 0xFFFE || $0.value == 0x1B || $0.value == 0x1 })
        #expect(svg.contains("⚠ 2"))
        #expect(svg.components(separatedBy: "data-from=\"a\" data-to=\"a\"").count == 2)
    }

    /// Two scripts that count one nested flow differently (each reads nested flows from its own flow's folder):
    /// the coverage cannot be added up, which is a problem (exit 2), and the report is written all the same.
    @Test func coverageThatCannotBeAddedUpIsAProblemNotALostReport() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = folder + "/report.html"
        let result = try flowkit(["report", ".", "-o", output], in: packageRoot + "/Tests/Fixtures/report-two-roots")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("cannot add up the scripts' coverage"))
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(isWellFormedXML(html))
        #expect(html.contains("cannot add up the scripts&#39; coverage"))
        #expect(html.components(separatedBy: "<svg data-diagram=\"flow\"").count - 1 == 4)
    }

    @Test func changesSinceARevisionAreDrawn() throws {
        // The booking sample before its sign-in became a nested flow.
        let log = Process()
        log.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        log.arguments = ["git", "-C", packageRoot, "log", "--format=%H", "--", "flows/booking.json"]
        let pipe = Pipe()
        log.standardOutput = pipe
        log.standardError = FileHandle.nullDevice
        try log.run()
        let revisions = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        log.waitUntilExit()
        // A shallow clone may not have the history: then there is nothing to compare with.
        guard log.terminationStatus == 0, revisions.count >= 2 else { return }
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = folder + "/report.html"
        let result = try flowkit(["report", "flows/booking.json", "--git", String(revisions[1]), "-o", output])
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(isWellFormedXML(html))
        #expect(html.contains("<svg data-diagram=\"change\""))
        #expect(html.contains("data-check=\"step_kind_changed\""))
        #expect(html.contains("data-count=\"changes\""))
        // The exit status follows the breaking changes the summary counts (the style sheet names the level too).
        // The same file named twice is compared once.
        let twice = try flowkit(["report", "flows/booking.json", "flows/booking.json", "--git", String(revisions[1]), "-o", output + ".2"])
        let doubled = try String(contentsOfFile: output + ".2", encoding: .utf8)
        func changes(_ html: String) -> String? { html.components(separatedBy: "data-count=\"changes\">").dropFirst().first?.components(separatedBy: "<").first }
        #expect(changes(doubled) == changes(html) && changes(html) != nil, "\(twice.stderr)")
        let breaking = html.components(separatedBy: "data-level=\"breaking\"><span").count - 1
        #expect(html.contains("data-count=\"breaking\">\(breaking)</dd>"))
        #expect(result.status == (breaking > 0 ? 1 : 0), "\(result.stderr)")
    }
}
