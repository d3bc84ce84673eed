@testable import FlowKit
import Foundation
import Testing

/// The JSON Schema (`flowkit schema`) and the decoder say the same about every document at the schema level
/// (docs/format.md, "The JSON Schema"): the samples, the broken flows, the malformed-input corpus and the cases the
/// two once disagreed on. A document the schema rejects gets a `schema` finding from lint, and one lint gives a
/// `schema` finding is rejected by the schema. (Documents with `syntax` or `duplicate_key` findings have no one JSON
/// form, and references between parts of a flow are other rules' work: both are outside the comparison.)
@Suite("The JSON Schema and lint agree")
struct SchemaAgreementTests {
    /// The documents, by name, as the decoder reads them (documents that are not flows, or cannot be read as a
    /// document at all, are outside the schema's reach and left out).
    static func documents() throws -> [(name: String, document: LoadedDocument)] {
        var paths: [String] = []
        for folder in ["flows", "flows/nested", "flows/broken", "Tests/FlowKitTests/Malformed/Corpus"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/" + folder).sorted()
            paths += names.filter { ["json", "yaml", "yml"].contains(($0 as NSString).pathExtension) }.map { folder + "/" + $0 }
        }
        var documents = try paths.map { path in (path, try FlowLoader.load(path: packageRoot + "/" + path)) }
        for (index, text) in Self.decidedCases.enumerated() {
            documents.append(("case \(index): \(text)", FlowLoader.load(bytes: Array(text.utf8), file: "case.yaml", format: .yaml)))
        }
        return documents.filter { $0.1.root != nil && !$0.1.isScript && $0.1.isFlowFile && !$0.1.diagnostics.contains { $0.rule == "syntax" } }
    }

    /// The cases the issue found the two disagreeing on, each decided once in docs/format.md.
    static let decidedCases = [
        "flowkit: 1\nflow: t\nstart: a\nsteps:\n  \"*\": { title: X }\n  a: { kind: finish }\n",
        "flowkit: 1\nflow: t\nstart: a\nsteps:\n  a: { kind: finish, lint: { allow: [dead_end] } }\n",
        // (issue 29) `lint` without `allow`, with only a reason or nothing.
        "flowkit: 1\nflow: t\nstart: a\nsteps:\n  a: { kind: finish, lint: { reason: r } }\n",
        "flowkit: 1\nflow: t\nstart: a\nsteps:\n  a: { kind: finish, lint: {} }\n",
        "flowkit: 1\nflow: t\nstart: a\nsteps:\n  a: { kind: finish, lint: { allow: [syntax], reason: r } }\n",
        "flowkit: 1\nflow: t\nstart: a\nsteps:\n  a: { kind: finish, lint: { allow: [no_such_rule], reason: r } }\n",
        "flowkit: 1.0\nflow: t\nstart: a\nsteps:\n  a: { kind: finish }\n",
        "flowkit: 1\nflow: t\nstart: a\nsteps:\n  a: { next: c }\n  c:\n",
        "flowkit: 1\nflow: t\nstart: a\nsteps:\n  a: { kind: finish, title: 42 }\n",
        "flowkit: 1\nflow: t\nstart: a\nstate: { n: [1, 2] }\nsteps:\n  a: { kind: finish }\n",
        "flowkit: 1\nflow: t\nstart: a\nsteps:\n  a: { next: null }\n  b: { kind: finish }\n",
        "flowkit: 1\nflow: t\nstart: a\nsteps:\n  a: { kind: finish, lint: { allow: dead_end, reason: \"  \" } }\n",
        "flowkit: 1\nflow: t\nstart: a\nsteps:\n  \"*\":\n  a: { kind: finish }\n",
        "flowkit: 1\nflow: t\nstart: a\nstate: { n: [\"1\", \"2\"] }\ninputs: [m]\nsteps:\n  a: { kind: finish, title: true }\n",
        "flowkit: 2.0\nflow: t\nstart: a\nsteps:\n  a: { kind: finish }\n",
        "flowkit: \"1\"\nflow: t\nstart: a\nsteps:\n  a: { kind: finish }\n",
        "flowkit: 1\nflow: t\nstart: a\nentries:\n  r: { step: a, entry: reset, path: /r }\nsteps:\n  a: { kind: flow, flow: c.yaml, next: b }\n  b: { kind: finish }\n",
        "flowkit: 1\nflow: t\nstart: a\nentries:\n  r: { step: a, entry: 5, path: /r }\nsteps:\n  a: { kind: flow, flow: c.yaml, next: b }\n  b: { kind: finish }\n",
    ] + [32, 33].map { levels in
        // A result shape as deep as it may nest, and one level deeper (the result mapping is level 1).
        "flowkit: 1\nflow: t\nstart: a\nsteps:\n  a: { kind: action, result: " + String(repeating: "{ f: ", count: levels) + "int"
            + String(repeating: " }", count: levels) + ", next: b }\n  b: { kind: finish }\n"
    }

    @Test func theSchemaAndTheDecoderAcceptTheSameDocuments() throws {
        let documents = try Self.documents()
        #expect(documents.count > 100)
        let directory = NSTemporaryDirectory() + "flowkit-agreement-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let schema = try flowkit(["schema"])
        try schema.stdout.write(toFile: directory + "/schema.json", atomically: true, encoding: .utf8)
        var files: [String] = []
        for (index, entry) in documents.enumerated() {
            let file = directory + "/\(index).json"
            try entry.document.root!.jsonText.write(toFile: file, atomically: true, encoding: .utf8)
            files.append(file)
        }
        let validation = try runProcess("/usr/bin/env", ["python3", packageRoot + "/Tests/schema/validate.py", directory + "/schema.json"] + files)
        let output = validation.stdout
        #expect(validation.status != 2, "the validator could not run: \(output)\(validation.stderr)")
        var schemaErrors: [String: [String]] = [:]
        for line in output.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            schemaErrors[String(line[..<colon]), default: []].append(String(line[line.index(after: colon)...]))
        }
        var disagreements: [String] = []
        for (index, entry) in documents.enumerated() {
            let lint = Linter.lint(entry.document, rules: [SchemaRule.self]).filter { $0.rule == "schema" }
            let rejected = schemaErrors[files[index]] ?? []
            if lint.isEmpty != rejected.isEmpty {
                disagreements.append("\(entry.name): lint \(lint.isEmpty ? "accepts" : "rejects (\(lint[0].message))"), the schema \(rejected.isEmpty ? "accepts" : "rejects (\(rejected[0]))")")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements:\n\(disagreements.joined(separator: "\n"))")
    }
}
