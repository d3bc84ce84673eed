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

        let coverage = try flowkit(["report", "flows/transfer.yaml", "--script", "flows/broken/script.yaml", "--min-coverage", "steps=100", "-o", output])
        #expect(coverage.status == 1, "\(coverage.stderr)")
        try FileManager.default.removeItem(atPath: output)

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
        let breaking = html.components(separatedBy: "data-level=\"breaking\"><span").count - 1
        #expect(html.contains("data-count=\"breaking\">\(breaking)</dd>"))
        #expect(result.status == (breaking > 0 ? 1 : 0), "\(result.stderr)")
    }
}
