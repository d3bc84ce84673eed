import Foundation
import Testing

/// The findings of `flowkit lint --format json`, byte for byte, on every input speed work must not change
/// (issue 16): the sample flows and scripts, the malformed-input corpus, and the bench's generated flows (made by
/// `bench/flowgen.py` with the bench's own seeds). A change that makes lint faster keeps these golden files as
/// they are; a change of findings on purpose records them again (`FLOWKIT_RECORD=1`) and shows in review.
@Suite("Findings, byte for byte")
struct FindingsGoldenTests {
    /// Each file's lint, run from `directory` with the file named relative to it: a header line with the name
    /// and exit status, then the JSON output.
    static func lint(_ files: [String], in directory: String = packageRoot) throws -> String {
        var output = ""
        for file in files {
            let process = try runProcess(flowkitBinary, ["lint", "--format", "json", file], in: directory, environment: ["NO_COLOR": "1"],
                                         keepStandardError: true)
            output += "== \(file) (exit \(process.status))\n" + process.stdout + (process.stderr.isEmpty ? "" : "stderr: " + process.stderr)
        }
        return output
    }

    static func files(under folder: String, in root: String = packageRoot) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root + "/" + folder)
        var found: [String] = []
        while let name = enumerator?.nextObject() as? String {
            guard name.hasSuffix(".yaml") || name.hasSuffix(".yml") || name.hasSuffix(".json") else { continue }
            found.append(folder + "/" + name)
        }
        return found.sorted()
    }

    @Test func theSamplesFindingsStayTheSame() throws {
        try expectGolden(try Self.lint(Self.files(under: "flows")), "findings-samples.txt")
    }

    @Test func theCorpusFindingsStayTheSame() throws {
        try expectGolden(try Self.lint(Self.files(under: "Tests/FlowKitTests/Malformed/Corpus")), "findings-corpus.txt")
    }

    @Test func theBenchFlowsFindingsStayTheSame() throws {
        let folder = NSTemporaryDirectory() + "flowkit-bench-flows-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The bench's inputs (bench/harness.py's generate): three sizes with their seeds, their controls without
        // the "*" handler, and the first small flows of the directory lint.
        let script = """
            import random, sys
            sys.path.insert(0, sys.argv[1] + "/bench")
            import flowgen
            out = sys.argv[2]
            for size in (100, 1000, 10000):
                flow = flowgen.generate(size, seed=size, defects=flowgen.defects_for(size))
                open(f"{out}/flow-{size}.yaml", "w").write(flowgen.flow_yaml(flow))
                open(f"{out}/flow-{size}.json", "w").write(flowgen.flow_json(flow))
                open(f"{out}/control-{size}.yaml", "w").write(flowgen.flow_yaml(flowgen.without_alert(flow)))
            sizes = random.Random(7)
            for number in range(20):
                flow = flowgen.generate(sizes.randint(20, 60), seed=100_000 + number, defects=0)
                flow.name = f"small{number}"
                name = f"small-{number:04}." + ("json" if number % 2 else "yaml")
                open(f"{out}/{name}", "w").write(flowgen.flow_json(flow) if number % 2 else flowgen.flow_yaml(flow))
            """
        let generated = try runProcess("/usr/bin/env", ["python3", "-c", script, packageRoot, folder])
        #expect(generated.status == 0, "\(generated.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names.count == 29)
        try expectGolden(try Self.lint(names, in: folder), "findings-bench.txt")
    }
}
