import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The sample scripts.
let sampleScripts: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/flows/scripts")) ?? []
    return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted().map { "flows/scripts/" + $0 }
}()

/// Writes `files` (name to text) into a fresh temporary folder and returns its path.
func folder(with files: [String: String]) throws -> String {
    let path = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("flowkit-sim-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    for (name, text) in files { try text.write(toFile: path + "/" + name, atomically: true, encoding: .utf8) }
    return path
}

let transferScript = """
    flowkit-script: 1
    flow: transfer.yaml
    scenarios:
      - name: ok
        start: { state: { country: RU } }
        steps:
          - amount: { result: { amount: 500 } }
          - tariffs: { result: { tariff: economy } }
          - confirmation: { event: confirmationContinue }
          - success: {}
        expect:
          outcome: finish
          state: { amount: 500 }
      - name: wrong amount expected
        start: { state: { country: RU } }
        steps:
          - amount: { result: { amount: 500 } }
          - tariffs: { result: { tariff: economy } }
          - confirmation: { event: confirmationContinue }
          - success: {}
        expect:
          state: { amount: 600 }
      - name: wrong step
        start: { state: { country: RU } }
        steps:
          - amount: { result: { amount: 50 } }
          - tariffs: {}
      - name: ends early
        start: { state: { country: RU } }
        steps:
          - amount: { result: { amount: 500 } }
    """

@Suite("flowkit simulate")
struct SimulateCommandTests {
    @Test func thereIsAScriptForEverySample() {
        for flow in sampleFlows where flow != "flows/transfer.json" {
            let name = URL(fileURLWithPath: flow).deletingPathExtension().lastPathComponent
            #expect(sampleScripts.contains { $0.hasPrefix("flows/scripts/\(name).") }, "no script for \(flow)")
        }
    }

    @Test(arguments: sampleScripts)
    func sampleScriptPasses(_ script: String) throws {
        let result = try flowkit(["simulate", "--script", script])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix(" passed, 0 failed\n"))
    }

    @Test func theTransferScriptAgainstTheJSONTwin() throws {
        let result = try flowkit(["simulate", "flows/transfer.json", "--script", "flows/scripts/transfer.yaml"])
        #expect(result.status == 0, "\(result.stdout)")
    }

    @Test func failuresSayExactlyWhatDiffered() throws {
        let path = try folder(with: ["s.yaml": transferScript])
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/transfer.yaml", toPath: path + "/transfer.yaml")
        let result = try flowkit(["simulate", "--script", path + "/s.yaml"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("expected state.amount = 600, but it is 500\n    at \(path)/s.yaml:22:16"))
        #expect(result.stdout.contains("expected the run at step 'tariffs', but it is at 'invalidAmount'\n    at \(path)/s.yaml:27:9"))
        #expect(result.stdout.contains("the script ended at step 'tariffs' before the flow finished"))
        #expect(result.stdout.hasSuffix("1 passed, 3 failed\n"))
        let one = try flowkit(["simulate", "--script", path + "/s.yaml", "--scenario", "ok"])
        #expect(one.status == 0)
        #expect(one.stdout.hasSuffix("1 passed, 0 failed\n"))
        let unknown = try flowkit(["simulate", "--script", path + "/s.yaml", "--scenario", "okk"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("the script has no scenario 'okk'; did you mean 'ok'?"))
    }

    @Test func junitIsValidXMLWithOneTestCasePerScenario() throws {
        let path = try folder(with: ["s.yaml": transferScript])
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/transfer.yaml", toPath: path + "/transfer.yaml")
        let result = try flowkit(["simulate", "--script", path + "/s.yaml", "--format", "junit"])
        #expect(result.status == 1)
        let document = try XMLDocument(data: Data(result.stdout.utf8))
        let cases = try document.nodes(forXPath: "//testcase")
        #expect(cases.count == 4)
        #expect(try document.nodes(forXPath: "//testcase/failure").count == 3)
        let suites = try document.nodes(forXPath: "/testsuites") as? [XMLElement]
        #expect(suites?.first?.attribute(forName: "failures")?.stringValue == "3")
    }

    @Test func jsonHasTheDesignShape() throws {
        let result = try flowkit(["simulate", "--script", "flows/scripts/transfer.yaml", "--format", "json"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let scenarios = try #require(object?["scenarios"] as? [[String: Any]])
        let first = try #require(scenarios.first)
        #expect(first["name"] as? String == "retry after an invalid amount")
        #expect(first["passed"] as? Bool == true)
        #expect(first["path"] as? [String] == ["amount", "invalidAmount", "amount", "tariffs", "confirmation", "success", "finish"])
        #expect(first["outcome"] as? String == "finish")
        #expect((first["state"] as? [String: Any])?["amount"] as? Int == 500)
        #expect((first["trace"] as? [[String: Any]])?.first?["event"] as? String == "invalidAmount")
        #expect((object?["summary"] as? [String: Int]) == ["passed": scenarios.count, "failed": 0])
    }

    @Test func eventsFromTheCommandLine() throws {
        let path = try folder(with: ["f.yaml": """
            flowkit: 1
            flow: f
            start: a
            events: { go: , stop: }
            steps:
              a: { on: { go: b } }
              b: { on: { stop: done } }
              done: { kind: finish }
            """])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ok = try flowkit(["simulate", path + "/f.yaml", "--events", "go,stop"])
        #expect(ok.status == 0, "\(ok.stdout)")
        #expect(ok.stdout.contains("passed: outcome 'done' after 3 steps"))
        let bad = try flowkit(["simulate", path + "/f.yaml", "--events", "go,go"])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("step 'b' has no transition for event 'go'"))
    }

    @Test func malformedScriptsNameTheLine() throws {
        let path = try folder(with: [
            "a.yaml": "flowkit-script: 1\nflow: f.yaml\nscenarios: { x: 1 }\n",
            "b.yaml": "flowkit-script: 1\nflow: f.yaml\nscenarios:\n  - name: x\n    stepz: []\n",
            "c.yaml": "flowkit-script: 1\nflow: f.yaml\nscenarios:\n  - name: x\n    steps:\n      - [a]\n",
            "f.yaml": "flowkit: 1\nflow: f\nstart: a\nsteps:\n  a: { kind: finish }\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expectations = [
            ("a.yaml", "a.yaml:3:12: error: 'scenarios' must be a list, found a mapping [script]"),
            ("b.yaml", "b.yaml:5:5: error: unknown key 'stepz' in a scenario; did you mean 'steps'? [script]"),
            ("c.yaml", "c.yaml:6:9: error: each step is a mapping of one step name to how it completes"),
        ]
        for (file, message) in expectations {
            let result = try flowkit(["simulate", "--script", path + "/" + file])
            #expect(result.status == 1)
            #expect(result.stderr.contains(path + "/" + message), "\(result.stderr)")
        }
    }

    @Test func aFlowWithAnExpressionErrorDoesNotRun() throws {
        let path = try folder(with: ["f.yaml": """
            flowkit: 1
            flow: f
            start: a
            state: { n: int }
            steps:
              a: { set: { n: "1 +" }, next: done }
              done: { kind: finish }
            """])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try flowkit(["simulate", path + "/f.yaml", "--events", ""])
        #expect(result.status == 1)
        #expect(result.stderr.contains("[expression]"))
        #expect(result.stdout.isEmpty)
    }

    @Test func aRunDrawnOnTheDiagram() throws {
        let path = try folder(with: [:])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let simulate = try flowkit(["simulate", "--script", "flows/scripts/transfer.yaml", "--trace-out", path + "/run.json"])
        #expect(simulate.status == 0)
        let dot = try flowkit(["render", "--dot", "flows/transfer.yaml", "--trace", path + "/run.json", "-o", "-"])
        #expect(dot.status == 0, "\(dot.stderr)")
        #expect(dot.stdout.contains("label=\"1: on invalidAmount\""))
        #expect(dot.stdout.contains("label=\"5: on confirmationContinue\""), "edges are numbered in run order")
        #expect(dot.stdout.contains("\t\tlabel=6,"), "plain edges get their number as label")
        #expect(dot.stdout.contains("color=\"#d35400\""))
    }
}

@Suite("flowkit simulate: numbers that are not finite")
struct SimulateNonFiniteTests {
    @Test func yamlNaNAndInfinityInAScriptFailTheirScenariosNamingTheKey() throws {
        let path = try folder(with: [
            "flow.yaml": """
                flowkit: 1
                flow: t
                start: a
                state: { total: number? }
                steps:
                  a: { result: { x: number }, next: [{ forward: big, if: "result.x > 1" }, small] }
                  big: { kind: finish }
                  small: { kind: finish }
                """,
            "script.yaml": """
                flowkit-script: 1
                flow: flow.yaml
                scenarios:
                  - name: nan result
                    steps: [a: { result: { x: .nan } }]
                  - name: infinite result
                    steps: [a: { result: { x: -.inf } }]
                  - name: infinite start
                    start: { state: { total: .inf } }
                    steps: [a: { result: { x: 2 } }]
                  - name: huge result
                    steps: [a: { result: { x: 1e308 } }]
                """,
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try flowkit(["simulate", "--format", "json", path + "/script.yaml"])
        #expect(result.status == 1)
        expectNoCrashReport(result)
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let scenarios = try #require(report?["scenarios"] as? [[String: Any]])
        let errors = Dictionary(uniqueKeysWithValues: scenarios.map { ($0["name"] as? String ?? "", $0["error"] as? String) })
        #expect(errors["nan result"] == "the result of step 'a', key 'x': expected a finite number, found nan")
        #expect(errors["infinite result"] == "the result of step 'a', key 'x': expected a finite number, found -inf")
        #expect(errors["infinite start"] == "the initial state of 'total': expected a finite number, found inf")
        #expect(errors["huge result"] == .some(nil), "1e308 is finite: \(String(describing: errors["huge result"]))")
    }
}
