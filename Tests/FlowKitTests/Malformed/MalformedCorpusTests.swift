@testable import FlowKit
import Foundation
import Testing

@Suite("Malformed-input corpus")
struct MalformedCorpusTests {
    /// The corpus files, relative to the corpus folder: every file but the manifest and hidden files (such as
    /// `.gitattributes`), then the fuzz crashers kept in `regressions/` (all but its README).
    static let files: [String] = {
        let manager = FileManager.default
        let top = ((try? manager.contentsOfDirectory(atPath: malformedCorpus)) ?? []).filter { name in
            var isDirectory: ObjCBool = false
            return name != "expected.txt" && !name.hasPrefix(".")
                && manager.fileExists(atPath: malformedCorpus + "/" + name, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        let crashers = ((try? manager.contentsOfDirectory(atPath: malformedCorpus + "/regressions")) ?? []).filter { $0 != "README.md" && !$0.hasPrefix(".") }
        return top.sorted() + crashers.sorted().map { "regressions/" + $0 }
    }()

    /// The manifest, read once.
    static let expectations = Result { try CorpusManifest.load() }

    @Test func theCorpusHasBothFormatsAndScripts() {
        #expect(Self.files.filter { $0.hasSuffix(".json") }.count >= 40)
        #expect(Self.files.filter { $0.hasSuffix(".yaml") }.count >= 90)
        #expect(Self.files.filter { $0.hasPrefix("script-") }.count >= 5)
    }

    @Test func everyFileHasAnExpectationAndEveryExpectationAFile() throws {
        let expectations = try Self.expectations.get()
        let unlisted = Self.files.filter { !$0.hasPrefix("regressions/") && expectations[$0] == nil }
        #expect(unlisted.isEmpty, "files with no line in expected.txt: \(unlisted)")
        let stale = expectations.keys.filter { !Self.files.contains($0) }.sorted()
        #expect(stale.isEmpty, "lines in expected.txt naming no file: \(stale)")
    }

    @Test(.timeLimit(.minutes(1)), arguments: files)
    func lintGivesTheExpectedOutcome(_ name: String) throws {
        MalformedLint(malformedCorpus + "/" + name).check(try Self.expectations.get()[name])
    }

    @Test func manifestLinesAreParsed() throws {
        let expectations = try CorpusManifest.parse("""
            # a comment
            a.json | 1 | schema,syntax | 2:14 | found a list
            b.yaml | 0 | -             | -    | -           | known bug: should be clean
            """)
        let a = try #require(expectations["a.json"])
        #expect(a.exit == 1 && a.rules == ["schema", "syntax"] && a.first == SourcePosition(line: 2, column: 14) && a.message == "found a list")
        let b = try #require(expectations["b.yaml"])
        #expect(b.exit == 0 && b.rules.isEmpty && b.first == nil && b.message == nil && b.knownBug == "should be clean")
        #expect(throws: CorpusManifest.Malformed.self) { try CorpusManifest.parse("a.json | 3 | - | - | -") }
        #expect(throws: CorpusManifest.Malformed.self) { try CorpusManifest.parse("a.json | 1 | - | 2 | -") }
        #expect(throws: CorpusManifest.Malformed.self) { try CorpusManifest.parse("a.json | 1 | - | - | -\na.json | 1 | - | - | -") }
    }
}
