@testable import FlowKit
import Foundation
import Testing

/// A malformed input written at test time: too deep, too long or too large to commit.
struct GeneratedInput: CustomTestStringConvertible, Sendable {
    /// The file name; its extension decides how the file is read.
    let name: String
    /// Builds the file's contents.
    let text: @Sendable () -> String
    /// What linting it must give.
    let expectation: LintExpectation

    var testDescription: String { name }

    /// A valid flow; the steps' keys are on lines 5 and 7, at column 3.
    static let validFlow = "flowkit: 1\nflow: corpus\nstart: first\nsteps:\n  first:\n    next: done\n  done:\n    kind: finish\n"

    /// The valid flow with `target` replaced by `replacement`.
    static func flow(replacing target: String, with replacement: String) -> String {
        validFlow.replacingOccurrences(of: target, with: replacement)
    }

    /// A valid JSON flow with `title` and a first step named `step`.
    static func jsonFlow(title: String = "", step: String = "first") -> String {
        #"{"flowkit": 1, "flow": "corpus", "title": "\#(title)", "start": "\#(step)", "steps": {"\#(step)": {"next": "done"}, "done": {"kind": "finish"}}}"#
    }

    /// `open`, `inner` and `close` on one line, nested `depth` levels: the first level too deep opens right after
    /// the 256th `open`.
    static func nesting(_ name: String, _ open: String, _ inner: String, _ close: String, depth: Int) -> GeneratedInput {
        let column = open.count * ReaderLimits.standard.maxDepth + 1
        return GeneratedInput(name: name, text: { String(repeating: open, count: depth) + inner + String(repeating: close, count: depth) },
                              expectation: LintExpectation(exit: 1, rules: ["syntax"], first: SourcePosition(line: 1, column: column),
                                                           message: "nesting is deeper than 256 levels"))
    }

    /// An input that lints clean.
    static func clean(_ name: String, _ text: @escaping @Sendable () -> String) -> GeneratedInput {
        GeneratedInput(name: name, text: text, expectation: LintExpectation(exit: 0))
    }
}

/// Something at a path that is not a readable regular file.
struct SpecialFile: CustomTestStringConvertible, Sendable {
    /// What it is.
    let name: String
    /// Makes it in the given folder (or picks a system path) and returns its path.
    let make: @Sendable (_ folder: String) throws -> String
    /// Text the failure contains.
    let message: String

    var testDescription: String { name }
}

@Suite("Malformed inputs made at test time")
struct GeneratedMalformedInputTests {
    static let megabyte = 1 << 20
    static let sizeLimit = ReaderLimits.standard.maxBytes
    static let inputs: [GeneratedInput] = [
        .nesting("depth-10000-json-arrays.json", "[", "", "]", depth: 10_000),
        .nesting("depth-1000000-json-arrays.json", "[", "", "]", depth: 1_000_000),
        .nesting("depth-1000000-json-objects.json", #"{"a":"#, "1", "}", depth: 1_000_000),
        .nesting("depth-10000-yaml-flow.yaml", "[", "", "]", depth: 10_000),
        .nesting("depth-1000000-yaml-flow.yaml", "[", "", "]", depth: 1_000_000),
        .nesting("depth-1000000-yaml-flow-mappings.yaml", "{a: ", "1", "}", depth: 1_000_000),
        .nesting("depth-10000-yaml-block.yaml", "- ", "x\n", "", depth: 10_000),
        .nesting("depth-1000000-yaml-block.yaml", "- ", "x\n", "", depth: 1_000_000),
        // The root and 2,000,000 empty lists: the last list, at column 2 + 3 * 1,999,999, is one value too many.
        GeneratedInput(name: "values-over-limit.json", text: { "[" + String(repeating: "[],", count: 2_000_000) + "0]" },
                       expectation: LintExpectation(exit: 1, rules: ["syntax"], first: SourcePosition(line: 1, column: 2 + 3 * 1_999_999),
                                                    message: "more than 2000000 values")),
        .clean("name-megabyte-long.yaml") { GeneratedInput.flow(replacing: "corpus", with: String(repeating: "a", count: megabyte)) },
        .clean("step-name-megabyte-long.json") { GeneratedInput.jsonFlow(step: String(repeating: "s", count: megabyte)) },
        // YAML 1.2 limits implicit keys to 1,024 characters: libyaml stops at the key's ':'.
        GeneratedInput(name: "step-name-megabyte-long.yaml", text: { GeneratedInput.flow(replacing: "first", with: String(repeating: "s", count: megabyte)) },
                       expectation: LintExpectation(exit: 1, rules: ["syntax"], first: SourcePosition(line: 5, column: 3 + megabyte))),
        .clean("title-megabyte-long.yaml") { GeneratedInput.flow(replacing: "start:", with: "title: \(String(repeating: "é", count: megabyte))\nstart:") },
        .clean("title-megabyte-of-escapes.json") { GeneratedInput.jsonFlow(title: String(repeating: #"\n\u00e9\"\\"#, count: megabyte / 12)) },
        // The condition's text starts at line 6, column 33; the limit is 4,096 characters.
        GeneratedInput(name: "expression-megabyte-long.yaml",
                       text: { GeneratedInput.flow(replacing: "next: done", with: "next: { forward: done, if: \"\(String(repeating: "1 + ", count: megabyte / 4))1 == 2\" }") },
                       expectation: LintExpectation(exit: 1, rules: ["expression"], first: SourcePosition(line: 6, column: 33 + 4096),
                                                    message: "longer than 4096 characters")),
        .clean("file-of-16-mib.yaml") {
            let flow = GeneratedInput.validFlow + "# "
            return flow + String(repeating: "x", count: sizeLimit - flow.utf8.count - 1) + "\n"
        },
        GeneratedInput(name: "file-over-16-mib.yaml",
                       text: {
                           let flow = GeneratedInput.validFlow + "# "
                           return flow + String(repeating: "x", count: sizeLimit - flow.utf8.count) + "\n"
                       },
                       expectation: LintExpectation(exit: 1, rules: ["syntax"], first: .start, message: "the limit is 16777216 bytes")),
        GeneratedInput(name: "file-over-16-mib.json", text: { GeneratedInput.jsonFlow(title: String(repeating: "x", count: 17 * megabyte)) },
                       expectation: LintExpectation(exit: 1, rules: ["syntax"], first: .start, message: "the limit is 16777216 bytes")),
    ]

    static let specialFiles: [SpecialFile] = [
        SpecialFile(name: "a directory", make: { folder in
            try FileManager.default.createDirectory(atPath: folder + "/directory.yaml", withIntermediateDirectories: false)
            return folder + "/directory.yaml"
        }, message: "not a regular file"),
        SpecialFile(name: "a named pipe (no hang)", make: { folder in
            guard mkfifo(folder + "/pipe.yaml", 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            return folder + "/pipe.yaml"
        }, message: "not a regular file"),
        SpecialFile(name: "a character device", make: { _ in "/dev/zero" }, message: "not a regular file"),
        SpecialFile(name: "a symbolic link to itself", make: { folder in
            guard symlink("loop.yaml", folder + "/loop.yaml") == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            return folder + "/loop.yaml"
        }, message: "cannot read the file"),
        SpecialFile(name: "a missing file", make: { folder in folder + "/missing.yaml" }, message: "no such file or directory"),
    ]

    /// A fresh, empty temporary folder.
    static func temporaryFolder() throws -> String {
        let path = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("flowkit-malformed-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test(.timeLimit(.minutes(1)), arguments: inputs)
    func lintGivesTheExpectedOutcome(_ input: GeneratedInput) throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/" + input.name
        try input.text().write(toFile: path, atomically: false, encoding: .utf8)
        MalformedLint(path).check(input.expectation)
    }

    @Test(.timeLimit(.minutes(1)), arguments: specialFiles)
    func specialFilesCannotBeChecked(_ special: SpecialFile) throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        MalformedLint(try special.make(folder)).check(LintExpectation(exit: 2, message: special.message))
    }

    @Test(.enabled(if: geteuid() != 0, "root reads a file whatever its permissions"))
    func fileWithoutReadPermission() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/locked.yaml"
        try GeneratedInput.validFlow.write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: path)
        MalformedLint(path).check(LintExpectation(exit: 2, message: "cannot read the file: permission denied"))
    }

    /// A regular file that no one can read, root included: reading a process's memory at address 0 fails.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/mem"), "Linux only"))
    func regularFileThatFailsToRead() {
        MalformedLint("/proc/self/mem").check(LintExpectation(exit: 2, message: "cannot read the file"))
    }
}
