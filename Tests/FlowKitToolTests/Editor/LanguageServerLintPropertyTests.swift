import Foundation
import Testing
import TestSupport
@testable import FlowKit
@testable import FlowKitTool

/// The editor's diagnostics are lint's (issue 32): on every sample, broken flow, script and corpus file, opened in
/// the server as an editor sends it, the diagnostics published are `LintSession`'s findings for that file (what
/// `flowkit lint DIR --format json` prints for it), rule for rule, message for message, at the same positions.
@Suite("flowkit lsp: diagnostics are lint's")
struct LanguageServerLintPropertyTests {
    static func files() -> [String] {
        var files: [String] = []
        for folder in ["flows", "flows/broken", "flows/scripts", "Tests/FlowKitTests/Malformed/Corpus"] {
            let path = packageRoot + "/" + folder
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
            where ["yaml", "yml", "json"].contains((name as NSString).pathExtension) {
                files.append(path + "/" + name)
            }
        }
        return files
    }

    @Test func everyFileGetsLintsFindings() throws {
        var compared = 0
        var findings = 0
        var notUTF8: [String] = []
        for path in Self.files() {
            let bytes = try FlowLoader.read(path: path, limit: ReaderLimits.standard.maxBytes)
            // An editor holds text: a file that is not UTF-8 reaches the server as other text than the file.
            guard let text = String(validating: bytes, as: UTF8.self) else {
                notUTF8.append((path as NSString).lastPathComponent)
                continue
            }
            let folder = (path as NSString).deletingLastPathComponent
            // As a directory walk finds it: a document that is not a flow or a script is skipped (an editor opens
            // every YAML and JSON file), the others linted as `flowkit lint FILE` lints them.
            let expected = LintSession(roots: [folder]).run([path], discovered: [path]).diagnostics
                .filter { FileFlowResolver.canonical($0.file) == FileFlowResolver.canonical(path) }
            let client = TestClient()
            try client.initialize(root: folder)
            let published = try client.open(path, text: text)
            let document = EditorDocument(uri: client.uri(path), path: path, version: 1, text: text)
            let got = published.map { diagnostic -> String in
                let range = diagnostic["range"] as? [String: [String: Int]]
                return "\(range?["start"]?["line"] ?? -1):\(range?["start"]?["character"] ?? -1) \(diagnostic["code"] as? String ?? "") \(diagnostic["message"] as? String ?? "")"
            }
            let want = expected.map { finding -> String in
                let start = document.lspPosition(finding.position)
                return "\(start.line):\(start.character) \(finding.rule) \(finding.message)"
            }
            #expect(got == want, "\(path)")
            // The conversion goes back: a position inside its line is the same position again.
            for finding in expected {
                let start = document.lspPosition(finding.position)
                let back = document.sourcePosition(start)
                let line = text.split(separator: "\n", omittingEmptySubsequences: false)
                let length = finding.position.line - 1 < line.count ? line[finding.position.line - 1].unicodeScalars.count : 0
                if finding.position.column <= length { #expect(back == finding.position, "\(path) \(finding.position)") }
            }
            compared += 1
            findings += expected.count
        }
        print("lsp: \(compared) files compared, \(findings) findings; not UTF-8 (an editor cannot send them as they are): \(notUTF8.joined(separator: ", "))")
        #expect(compared > 150 && findings > 150)
    }
}
