import Foundation
import Testing

/// Every example command in the help texts and the README runs as shown: the help's examples succeed on the sample
/// flows, and the README's console examples print what the README says they print.
@Suite("Examples in the help and the README")
struct ExamplesTests {
    /// README commands that are meant to fail, with the exit status they show.
    static let expectedFailures = ["flowkit lint flows/broken/undefined_step.yaml": Int32(1)]

    /// A scratch folder holding a copy of the sample flows (without `broken/` unless asked), with `flowkit` on the
    /// PATH, so that examples that write files write them there.
    private func sandbox(withBroken: Bool) throws -> String {
        let path = try folder(with: [:])
        try FileManager.default.copyItem(atPath: packageRoot + "/flows", toPath: path + "/flows")
        if !withBroken { try FileManager.default.removeItem(atPath: path + "/flows/broken") }
        // The README's example of a changed flow, compared with the samples.
        try FileManager.default.createDirectory(atPath: path + "/docs", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: packageRoot + "/docs/examples", toPath: path + "/docs/examples")
        try FileManager.default.createDirectory(atPath: path + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path + "/bin/flowkit", withDestinationPath: flowkitBinary)
        return path
    }

    /// Runs `command` with the shell in `directory`.
    private func shell(_ command: String, in directory: String) throws -> RunResult {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = directory + "/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["NO_COLOR"] = "1"
        environment["COLUMNS"] = "80"
        return try runProcess("/bin/sh", ["-c", command], in: directory, environment: environment)
    }

    /// The commands under "Examples:" in a help text, continuation lines (ending in `\`) joined.
    static func examples(inHelp help: String) -> [String] {
        var commands: [String] = []
        var inExamples = false
        var pending = ""
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "Examples:" { inExamples = true; continue }
            guard inExamples else { continue }
            if line.isEmpty { break }
            pending += pending.isEmpty ? line.trimmingCharacters(in: .whitespaces) : " " + line.trimmingCharacters(in: .whitespaces)
            if pending.hasSuffix("\\") {
                pending.removeLast()
                pending = pending.trimmingCharacters(in: .whitespaces)
            } else {
                commands.append(pending)
                pending = ""
            }
        }
        return commands
    }

    @Test func everyHelpExampleSucceedsOnTheSampleFlows() throws {
        let path = try sandbox(withBroken: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The sample flows committed, for the examples that compare with a git revision.
        let git = try shell("git init -q && git add flows && git -c user.name=flowkit -c user.email=flowkit@example.com commit -q -m samples", in: path)
        #expect(git.status == 0, "\(git.stderr)")
        var count = 0
        for command in [[], ["lint"], ["render"], ["simulate"], ["coverage", "merge"], ["generate", "swift"], ["generate", "scenarios"], ["diff"], ["report"], ["schema"], ["rules"], ["explain"]] {
            let help = try shell((["flowkit"] + command + ["--help"]).joined(separator: " "), in: path)
            #expect(help.status == 0)
            let examples = Self.examples(inHelp: help.stdout)
            #expect(!examples.isEmpty, "'flowkit \(command.joined(separator: " ")) --help' has examples")
            for example in examples {
                #expect(example.hasPrefix("flowkit "), "an example line is a whole command (not wrapped): \(example)")
                let result = try shell(example, in: path)
                #expect(result.status == 0, "\(example)\n\(result.stdout)\(result.stderr)")
                count += 1
            }
        }
        #expect(count >= 15)
    }

    /// The commands of the README's `sh` and `console` blocks, with the output a `console` block shows for each.
    static func readmeExamples() throws -> [(command: String, shown: String?)] {
        let text = try String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)
        var examples: [(command: String, shown: String?)] = []
        var block: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                block = block == nil ? String(line.dropFirst(3)) : nil
                continue
            }
            switch block {
            case "sh"?:
                if line.hasPrefix("flowkit ") { examples.append((line, nil)) }
            case "console"?:
                if line.hasPrefix("$ ") {
                    examples.append((String(line.dropFirst(2)), ""))
                } else if let last = examples.last, let shown = last.shown {
                    examples[examples.count - 1].shown = shown + line + "\n"
                }
            default: break
            }
        }
        return examples
    }

    @Test func everyREADMEExampleRunsAndPrintsWhatTheREADMEShows() throws {
        let path = try sandbox(withBroken: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let examples = try Self.readmeExamples()
        #expect(examples.count >= 8)
        for (command, shown) in examples {
            #expect(command.hasPrefix("flowkit "))
            let result = try shell(command, in: path)
            #expect(result.status == (Self.expectedFailures[command] ?? 0), "\(command)\n\(result.stdout)\(result.stderr)")
            if let shown { #expect(result.stdout == shown, "\(command)") }
        }
    }

    /// Every relative link in the README and the docs names a file that is there (anchors aside).
    @Test func everyRelativeLinkNamesAFile() throws {
        for document in ["README.md", "docs/format.md", "flows/README.md"] {
            let text = try String(contentsOfFile: packageRoot + "/" + document, encoding: .utf8)
            let directory = (document as NSString).deletingLastPathComponent
            var links = 0
            var rest = Substring(text)
            while let open = rest.range(of: "](") {
                rest = rest[open.upperBound...]
                guard let close = rest.firstIndex(of: ")") else { break }
                let target = String(rest[..<close]).split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
                guard !target.isEmpty, !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                let path = packageRoot + "/" + (directory.isEmpty ? target : directory + "/" + target)
                #expect(FileManager.default.fileExists(atPath: path), "\(document) links to \(target), which is not there")
                links += 1
            }
            if document == "README.md" { #expect(links >= 4) }
        }
    }
}
