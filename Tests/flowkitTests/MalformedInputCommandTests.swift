import Foundation
import Testing

/// The malformed-input corpus of the library tests, relative to the package root.
let malformedCorpus = "Tests/FlowKitTests/Malformed/Corpus"

/// Expects a run that could not do its work: exit 2 and one clear error line naming `path`, with no Foundation
/// error domain, crash report or backtrace.
func expectCleanFailure(_ result: RunResult, naming path: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.status == 2, "\(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stderr.hasPrefix("flowkit: error: \(path): \(reason)"), "\(result.stderr)", sourceLocation: sourceLocation)
    expectNoCrashReport(result, sourceLocation: sourceLocation)
}

/// Expects nothing in the output that only a crash or an unfiltered Foundation error prints.
func expectNoCrashReport(_ result: RunResult, sourceLocation: SourceLocation = #_sourceLocation) {
    for hazard in ["Error Domain", "Fatal error", "Stack dump", "backtrace", "Backtracing", "Program crashed", "Current stack trace"] {
        #expect(!(result.stdout + result.stderr).contains(hazard), "\(result.stderr)", sourceLocation: sourceLocation)
    }
}

@Suite("flowkit on malformed input")
struct MalformedInputCommandTests {
    /// Files, scripts and outputs whose names are one character (Foundation's `deletingLastPathComponent` traps
    /// on those): every command reads and writes them as any other.
    @Test func oneCharacterFileNamesWorkInEveryCommand() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let flow = try String(contentsOfFile: packageRoot + "/flows/transfer.yaml", encoding: .utf8)
        try flow.write(toFile: folder + "/t", atomically: false, encoding: .utf8)
        try flow.replacingOccurrences(of: "title: Amount", with: "title: How much").write(toFile: folder + "/u", atomically: false, encoding: .utf8)
        let script = try String(contentsOfFile: packageRoot + "/flows/scripts/transfer.yaml", encoding: .utf8)
        try script.replacingOccurrences(of: "flow: ../transfer.yaml", with: "flow: t").write(toFile: folder + "/s", atomically: false, encoding: .utf8)
        let commands: [[String]] = [
            ["lint", "t"], ["lint", "s"], ["lint", "t", "--report", "json:r"], ["lint", "t", "--write-baseline", "b"],
            ["render", "t"], ["render", "t", "--dot", "-o", "x"], ["render", "t", "--mermaid", "-o", "-"], ["render", "--diff", "t", "u", "--mermaid", "-o", "-"],
            ["simulate", "--script", "s"], ["simulate", "--script", "s", "--coverage-report", "json:c", "--trace-out", "z"],
            ["diff", "t", "u"], ["generate", "scenarios", "t", "-o", "y"], ["generate", "swift", "t", "-o", "g"],
        ]
        for command in commands {
            let result = try flowkit(command, in: folder)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            expectNoCrashReport(result)
        }
        for written in ["r", "b", "t.svg", "x", "c", "z", "y", "g/t.flowkit.swift"] {
            #expect(FileManager.default.fileExists(atPath: folder + "/" + written), "\(written)")
        }
    }

    @Test func theWholeCorpusIsLintedInOneRun() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: packageRoot + "/" + malformedCorpus)
            .filter { ["json", "yaml", "yml"].contains(($0 as NSString).pathExtension) }
        let result = try flowkit(["lint", "--verbose", "--format", "json", malformedCorpus])
        #expect(result.status == 1)
        // The documents that are not flows at all (a top-level list or scalar) are skipped in a directory walk, and
        // listed; every other file is read and checked.
        let skipped = result.stderr.split(separator: "\n")
        #expect(skipped.allSatisfy { $0.hasPrefix("skipped ") && $0.hasSuffix(": not a flow file (no top-level 'flowkit' or 'flowkit-script' key)") },
                "every corpus file can be read: \(result.stderr)")
        #expect(skipped.count == 5)
        expectNoCrashReport(result)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let summary = try #require(report?["summary"] as? [String: Int])
        #expect(summary["files"]! + skipped.count == files.count)
    }

    /// Commands given a directory where they take a file; `DIR` stands for the directory.
    @Test(arguments: [
        ["render", "DIR"], ["simulate", "DIR"], ["simulate", "flows/transfer.yaml", "--script", "DIR"],
        ["lint", "--config", "DIR", "flows/transfer.yaml"], ["lint", "--baseline", "DIR", "flows/transfer.yaml"],
    ])
    func directoryGivenAsAFile(_ arguments: [String]) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let directory = folder + "/flow.yaml"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let result = try flowkit(arguments.map { $0 == "DIR" ? directory : $0 })
        expectCleanFailure(result, naming: directory, "not a regular file")
    }

    @Test(.timeLimit(.minutes(1)))
    func namedPipeIsRefusedWithoutWaiting() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipe = folder + "/pipe.yaml"
        try #require(mkfifo(pipe, 0o600) == 0)
        expectCleanFailure(try flowkit(["lint", pipe]), naming: pipe, "not a regular file")
    }

    @Test(.enabled(if: geteuid() != 0, "root reads a file whatever its permissions"))
    func fileWithoutReadPermission() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/locked.yaml"
        try "flowkit: 1\n".write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: path)
        expectCleanFailure(try flowkit(["lint", path]), naming: path, "cannot read the file: permission denied")
    }

    /// A regular file that no one can read, root included: reading a process's memory at address 0 fails.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/mem"), "Linux only"), arguments: ["lint", "render", "simulate"])
    func regularFileThatFailsToRead(_ command: String) throws {
        expectCleanFailure(try flowkit([command, "/proc/self/mem"]), naming: "/proc/self/mem", "cannot read the file")
    }

    /// `lint` prints findings to standard output; `render` and `simulate` to standard error.
    @Test func fileOverTheSizeLimitIsASyntaxFinding() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/big.yaml"
        let flow = "flowkit: 1\nflow: big\nstart: done\nsteps:\n  done: { kind: finish }\n# "
        try (flow + String(repeating: "x", count: 17 << 20) + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        for arguments in [["lint", path], ["render", path, "-o", "-"], ["simulate", path, "--events", "next"]] {
            let result = try flowkit(arguments)
            let output = result.stdout + result.stderr
            #expect(result.status == 1, "\(arguments[0]): \(output)")
            #expect(output.contains("\(path):1:1: error: ") && output.contains("the limit is 16777216 bytes [syntax]"), "\(arguments[0]): \(output)")
            expectNoCrashReport(result)
        }
    }

    @Test func aRunErrorsPositionIsPrintedOnce() throws {
        let result = try flowkit(["simulate", malformedCorpus + "/run-errors.script.yaml", "--scenario", "division by zero"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("failed: division by zero in '100 / result.n'\n    at \(malformedCorpus)/run-errors.yaml:28:19\n"))
        #expect(result.stdout.components(separatedBy: "run-errors.yaml:28:19").count == 2, "\(result.stdout)")
    }

    @Test func runErrorsFailTheirScenarios() throws {
        let result = try flowkit(["simulate", "--format", "json", malformedCorpus + "/run-errors.script.yaml"])
        #expect(result.status == 1)
        expectNoCrashReport(result)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let scenarios = try #require(report?["scenarios"] as? [[String: Any]])
        let errors = Dictionary(uniqueKeysWithValues: scenarios.map { ($0["name"] as? String ?? "", $0["error"] as? String ?? "") })
        #expect(errors.count == 7 && scenarios.allSatisfy { $0["passed"] as? Bool == false })
        // The position is given once, as the error's location, not again inside the message.
        let division = try #require(scenarios.first { $0["name"] as? String == "division by zero" })
        let location = try #require(division["errorLocation"] as? [String: Any])
        #expect(location["file"] as? String == malformedCorpus + "/run-errors.yaml")
        #expect(location["line"] as? Int == 28 && location["column"] as? Int == 19)
        #expect(errors["division by zero"] == "division by zero in '100 / result.n'")
        let expected = [
            "division by zero": "division by zero in '100 / result.n'",
            "remainder by zero": "division by zero in '100 % result.n'",
            "int overflow": "int overflow in 'result.n * 2'",
            "negating the smallest int": "int overflow in '-result.n'",
            "a number that is not finite": "number overflow in 'result.x * 1e308'",
            "reading an unset state key": "state key 'whole' is not set",
            "reading result at a completion without one": "the step completed without a result",
        ]
        for (name, fragment) in expected {
            #expect(errors[name]?.contains(fragment) == true, "\(name): \(errors[name] ?? "no such scenario")")
        }
    }
}
