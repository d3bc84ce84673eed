import Foundation
import Testing

/// What `flowkit lint DIR` checks and skips, what a file named on the command line must be, JUnit's verdict against
/// the exit code, and a configuration that cannot be used (docs/format.md, "What a directory walk checks").
@Suite("flowkit lint: directory walks, JUnit verdicts, bad configurations")
struct DirectoryWalkTests {
    static let warningsOnly = "flowkit: 1\nflow: w\nstart: a\nevents: { never: }\nsteps:\n  a: { next: done }\n  done: { kind: finish }\n"

    /// A copy of the sample flows, with the schema and a trace written into it as the README says.
    private func samplesWithSchemaAndTrace() throws -> String {
        let path = try folder(with: [:])
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: packageRoot + "/flows", toPath: path)
        try FileManager.default.removeItem(atPath: path + "/broken")
        let schema = try flowkit(["schema"])
        try schema.stdout.write(toFile: path + "/flow.schema.json", atomically: true, encoding: .utf8)
        let trace = try flowkit(["simulate", "--quiet", "--script", path + "/scripts/transfer.yaml", "--trace-out", path + "/run.json"])
        #expect(trace.status == 0, "\(trace.stderr)")
        return path
    }

    @Test func theREADMEsCIStepPassesWithTheSchemaAndATraceBesideTheFlows() throws {
        let path = try samplesWithSchemaAndTrace()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try flowkit(["lint", path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix("files checked, 2 skipped (not flow files): no findings\n"), "\(result.stdout)")
        #expect(!result.stdout.contains("flow.schema.json") && !result.stdout.contains("run.json"))
        #expect(result.stderr.isEmpty, "skipped files are listed only with --verbose: \(result.stderr)")

        let verbose = try flowkit(["lint", "--verbose", path])
        #expect(verbose.status == 0)
        #expect(verbose.stderr.contains("skipped \(path)/flow.schema.json: not a flow file (no top-level 'flowkit' or 'flowkit-script' key)"))
        #expect(verbose.stderr.contains("skipped \(path)/run.json: not a flow file"))
        #expect(verbose.stderr.split(separator: "\n").count == 2)

        // JUnit and JSON list only the files checked.
        let junit = try flowkit(["lint", "--format", "junit", path])
        #expect(junit.status == 0)
        #expect(!junit.stdout.contains("schema.json") && !junit.stdout.contains("run.json"))
    }

    @Test func aFileNamedOnTheCommandLineMustBeAFlowOrAScript() throws {
        let path = try samplesWithSchemaAndTrace()
        defer { try? FileManager.default.removeItem(atPath: path) }
        for name in ["flow.schema.json", "run.json"] {
            let result = try flowkit(["lint", path + "/" + name])
            #expect(result.status == 1)
            #expect(result.stdout == "\(path)/\(name):1:1: error: this is not a flow file: a flow has the top-level keys 'flowkit', 'flow', 'start' and 'steps' (a simulation script has 'flowkit-script') [schema]\n1 file checked: 1 error\n")
        }
    }

    @Test func aDirectoryOfOtherDocumentsHasNoFlowFiles() throws {
        let path = try folder(with: ["package.json": "{\"name\": \"app\"}", "list.yaml": "- a\n- b\n"])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try flowkit(["lint", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("flowkit: error: \(path): no flow files found (2 are not flow files)"), "\(result.stderr)")
    }

    @Test func brokenAndMisspeltFlowsInADirectoryAreCheckedNotSkipped() throws {
        let path = try folder(with: [
            "broken.yaml": "flowkit: 1\nflow: [oops\n",
            "binary.json": "{\"flowkit\": 1, \"flow\": \"x\"",
            "typo.yaml": "flowkt: 1\nflow: t\nstart: a\nsteps:\n  a: { kind: finish }\n",
            "other.yaml": "name: not a flow\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try flowkit(["lint", path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("broken.yaml:"), "a file that does not parse is reported: \(result.stdout)")
        #expect(result.stdout.contains("binary.json:"))
        #expect(result.stdout.contains("typo.yaml:1:1: error: unknown key 'flowkt' in the flow; did you mean 'flowkit'? [schema]"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("3 files checked, 1 skipped (not flow files): 4 errors\n"), "\(result.stdout)")
    }

    @Test(arguments: [false, true]) func junitFailsExactlyWhenTheRunFails(strict: Bool) throws {
        let path = try folder(with: ["w.yaml": Self.warningsOnly])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try flowkit(["lint", "--format", "junit", path + "/w.yaml"] + (strict ? ["--strict"] : []))
        #expect(result.status == (strict ? 1 : 0))
        #expect(result.stdout.contains("<testsuites name=\"flowkit lint\" tests=\"1\" failures=\"\(strict ? 1 : 0)\" errors=\"0\">"), "\(result.stdout)")
        #expect(result.stdout.contains(strict ? "<failure message=\"1 warning\"" : "<system-out>\(path)/w.yaml:4:11: warning:"), "\(result.stdout)")
    }

    @Test func simulateJUnitNamesTheFlowByItsNormalisedPath() throws {
        let result = try flowkit(["simulate", "--quiet", "--script", "flows/scripts/transfer.yaml", "--format", "junit"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("classname=\"flowkit.flows/transfer.yaml\""), "\(result.stdout)")
        #expect(!result.stdout.contains(".."))
    }

    @Test func aBadConfigurationStopsTheLintBeforeAnyFinding() throws {
        let path = try folder(with: [
            ".flowkit.yml": "severity: { unused_event: eror }\n",
            "w.yaml": Self.warningsOnly,
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        for target in [path, path + "/w.yaml"] {
            let result = try flowkit(["lint", target])
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty, "no finding is printed: \(result.stdout)")
            #expect(result.stderr.contains(".flowkit.yml:1:27: severity 'eror' must be error, warning or note; did you mean 'error'?"), "\(result.stderr)")
        }
        let messages = [
            "disabled: dead_end\n": "1:11: 'disabled' takes a list of rules, found a string",
            "disabled: [dead_ends]\n": "1:12: unknown rule 'dead_ends'; did you mean 'dead_end'?",
            "disable: [dead_end]\n": "1:1: unknown key 'disable'; did you mean 'disabled'?",
            "severity: [dead_end]\n": "1:11: 'severity' maps rules to error, warning or note, found a list",
            "severity: { dead_end: }\n": "1:23: the severity of 'dead_end' must be error, warning or note, found null",
            "include: [\"\"]\n": "1:11: an 'include' pattern must be a non-empty string, found a string",
        ]
        for (text, message) in messages {
            try text.write(toFile: path + "/.flowkit.yml", atomically: true, encoding: .utf8)
            let result = try flowkit(["lint", path])
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains(".flowkit.yml:" + message), "\(text): \(result.stderr)")
        }
    }
}
