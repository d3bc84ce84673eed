import FlowKit
import Foundation
import Testing

@Suite("flowkit schema")
struct SchemaCommandTests {
    /// Writes `flowkit schema` and the JSON form of each document to a temporary folder and runs the validator.
    func validate(_ documents: [(name: String, value: Any)]) throws -> RunResult {
        let directory = NSTemporaryDirectory() + "/flowkit-schema-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let schema = try flowkit(["schema"])
        #expect(schema.status == 0)
        try schema.stdout.write(toFile: directory + "/schema.json", atomically: true, encoding: .utf8)
        var paths: [String] = []
        for (index, document) in documents.enumerated() {
            let path = directory + "/\(index)-\(document.name).json"
            try JSONSerialization.data(withJSONObject: document.value, options: [.fragmentsAllowed]).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let result = try runProcess("/usr/bin/env", ["python3", packageRoot + "/Tests/schema/validate.py", directory + "/schema.json"] + paths)
        return RunResult(stdout: result.stdout + result.stderr, stderr: "", status: result.status)
    }

    @Test func schemaIsJSON() throws {
        let result = try flowkit(["schema"])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(object?["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    }

    @Test func everySampleFlowValidates() throws {
        let documents = try sampleFlows.map { path -> (String, Any) in
            let document = try FlowLoader.load(path: packageRoot + "/" + path)
            return (URL(fileURLWithPath: path).lastPathComponent, try #require(document.root).foundationValue)
        }
        let result = try validate(documents)
        #expect(result.status == 0, "\(result.stdout)")
    }

    @Test func brokenDocumentsDoNotValidate() throws {
        let broken = [
            "flowkit: 1\nflow: t\nstart: a\nsteps:\n  a: { nxt: b }\n",
            "flowkit: 1\nflow: t\nsteps:\n  a: { kind: finish }\n",
            "flowkit: 1\nflow: t\nstart: a\nsteps:\n  b c: { kind: finish }\n",
            "flowkit: 1\nflow: t\nstart: a\nsteps:\n  a: { next: { back: false } }\n",
            "flowkit: 2\nflow: t\nstart: a\nsteps:\n  a: { kind: finish }\n",
        ]
        for text in broken {
            let document = FlowLoader.load(bytes: Array(text.utf8), file: "t.yaml", format: .yaml)
            let result = try validate([("broken", try #require(document.root).foundationValue)])
            #expect(result.status == 1, "should not validate: \(text)")
        }
    }
}
