import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// What a failing scenario says: every `expect` mismatch, in every format (docs/format.md, "Simulation scripts").
@Suite("flowkit simulate: failure messages")
struct SimulateMessageTests {
    static let script = """
        flowkit-script: 1
        flow: transfer.yaml
        scenarios:
          - name: everything differs
            start: { state: { country: RU } }
            steps:
              - amount: { result: { amount: 500 } }
              - tariffs: { result: { tariff: economy } }
              - confirmation: { event: confirmationContinue }
              - success: {}
            expect:
              outcome: cancelled
              path: [amount, tariffs, review, success, finish]
              state: { amount: 600, tariff: premium, country: RU }
        """

    private func run(_ format: String) throws -> (RunResult, String) {
        let path = try folder(with: ["s.yaml": Self.script])
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/transfer.yaml", toPath: path + "/transfer.yaml")
        let result = try flowkit(["simulate", "--script", path + "/s.yaml", "--format", format])
        try? FileManager.default.removeItem(atPath: path)
        return (result, path)
    }

    @Test func everyExpectMismatchIsReportedInTheText() throws {
        let (result, path) = try run("text")
        #expect(result.status == 1)
        let expected = """
              failed: 4 expectations do not hold
              - expected outcome 'cancelled', but the flow finished with 'finish'
                at \(path)/s.yaml:12:16
              - expected path [amount, tariffs, review, success, finish], but it was [amount, tariffs, confirmation, success, finish]: step 3 should be 'review', not 'confirmation'
                at \(path)/s.yaml:13:31
              - expected state.amount = 600, but it is 500
                at \(path)/s.yaml:14:16
              - expected state.tariff = 'premium', but it is 'economy'
                at \(path)/s.yaml:14:29

            """
        #expect(result.stdout.contains(expected), "\(result.stdout)")
    }

    @Test func everyExpectMismatchIsInTheJSONAndJUnitReports() throws {
        let (json, _) = try run("json")
        #expect(json.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let scenario = try #require((object?["scenarios"] as? [[String: Any]])?.first)
        let failures = try #require(scenario["failures"] as? [[String: Any]])
        #expect(failures.count == 4)
        #expect(failures.map { $0["line"] as? Int } == [12, 13, 14, 14])
        #expect(scenario["error"] as? String == failures.first?["message"] as? String)

        let (junit, path) = try run("junit")
        let document = try XMLDocument(xmlString: junit.stdout)
        let failure = try #require(try document.nodes(forXPath: "//testcase/failure").first)
        let lines = (failure.stringValue ?? "").split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { $0.hasPrefix("\(path)/s.yaml:1") })
    }

    @Test func movesCompleteStepsWithResultsNextAndTheBackButton() throws {
        let result = try flowkit(["simulate", "flows/transfer.yaml", "--state", #"{"country": "RU"}"#,
                                  "--events", #"amount={"amount": 150},back,amount={"amount": 50},next"#,
                                  "--events", #"={"amount": 250}, tariffs={"tariff": "business"},confirmationContinue,next"#])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("  2  tariffs        back button                                <- back to amount\n"), "\(result.stdout)")
        #expect(result.stdout.contains("-> invalidAmount"))
        #expect(result.stdout.contains("passed: outcome 'finish' after 9 steps"))

        let wrongStep = try flowkit(["simulate", "flows/transfer.yaml", "--state", #"{"country": "RU"}"#, "--events", #"tariffs={"tariff": "economy"}"#])
        #expect(wrongStep.status == 1)
        #expect(wrongStep.stdout.contains("failed: move 1: the move gives a result for step 'tariffs', but the run is at 'amount'"), "\(wrongStep.stdout)")

        let bad = try flowkit(["simulate", "flows/transfer.yaml", "--events", #"amount={"amount": 150,}"#])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("'--events <moves>': column 22: the result is not valid JSON: trailing comma before '}'"), "\(bad.stderr)")
    }

    @Test func aScriptStepCanPressTheBackButton() throws {
        let script = """
            flowkit-script: 1
            flow: transfer.yaml
            scenarios:
              - name: back from tariffs
                start: { state: { country: RU } }
                steps:
                  - amount: { result: { amount: 150 } }
                  - tariffs: { back: true }
                  - amount: { result: { amount: 300 } }
                  - tariffs: { result: { tariff: economy } }
                  - confirmation: { event: confirmationContinue }
                  - success: {}
                expect:
                  path: [amount, tariffs, amount, tariffs, confirmation, success, finish]
                  state: { amount: 300 }
            """
        let bad = """
            flowkit-script: 1
            flow: transfer.yaml
            scenarios:
              - name: back with a result too
                start: { state: { country: RU } }
                steps:
                  - amount: { back: true, result: { amount: 1 } }
                  - amount: { back: yes }
            """
        let path = try folder(with: ["s.yaml": script, "bad.yaml": bad])
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/transfer.yaml", toPath: path + "/transfer.yaml")
        let lint = try flowkit(["lint", path + "/s.yaml", path + "/bad.yaml"])
        #expect(lint.stdout.contains("bad.yaml:7:25: error: step 'amount' goes back with the back button: it takes no 'event' or 'result' as well [script]"), "\(lint.stdout)")
        #expect(lint.stdout.contains("bad.yaml:8:25: error: 'back' must be true (the back button), found a string [script]"), "\(lint.stdout)")
        #expect(!lint.stdout.contains("s.yaml:"), "\(lint.stdout)")
        let result = try flowkit(["simulate", "--script", path + "/s.yaml"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func handlingAnUndeclaredOutcomeSaysOutcomesAreEventsAndNamesThem() throws {
        let path = try folder(with: [
            "parent.yaml": """
                flowkit: 1
                flow: checkout
                start: signIn
                events: { signedIn: }
                steps:
                  signIn: { kind: flow, flow: child.yaml, on: { signedIn: done, gaveUp: done, canceled: done } }
                  done: { kind: finish }
                """,
            "child.yaml": """
                flowkit: 1
                flow: child
                start: password
                events: { cancel: }
                steps:
                  password: { on: { cancel: gaveUp }, next: signedIn }
                  signedIn: { kind: finish }
                  gaveUp: { kind: finish }
                  stop: { kind: finish, outcome: cancelled }
                """,
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try flowkit(["lint", path + "/parent.yaml"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("parent.yaml:6:65: error: step 'signIn' handles 'gaveUp', which 'events' does not declare; a nested flow's outcomes are handled as events, so declare 'gaveUp' in 'events' (nested flow 'child.yaml' finishes with 'signedIn', 'gaveUp', 'cancelled') [undeclared_event]"), "\(result.stdout)")
        #expect(result.stdout.contains("error: step 'signIn' handles 'canceled', which 'events' does not declare; a nested flow's outcomes are handled as events, so declare it in 'events'; did you mean the outcome 'cancelled'? (nested flow 'child.yaml' finishes with 'signedIn', 'gaveUp', 'cancelled') [undeclared_event]"), "\(result.stdout)")
    }

    @Test func aNestedTraceLineNamesItsTargetAndARunErrorPrintsNoUsage() throws {
        let booking = try flowkit(["simulate", "--script", "flows/scripts/booking.yaml", "--scenario",
                                   "giving up the nested sign-in returns to the checkout, and a reset link signs in"])
        #expect(booking.status == 0)
        let line = booking.stdout.split(separator: "\n").first { $0.contains("signIn/email") && $0.contains("event cancel") } ?? ""
        #expect(line.hasSuffix("-> signIn/gaveUp"), "a nested trace line names where it went: \(line)")

        for arguments in [["--events", "error"], ["--state", #"{"country": "RU"}"#, "--events", "next"],
                          ["--state", #"{"country": "RU"}"#, "--events", #"amount={"amount": "x"}"#]] {
            let result = try flowkit(["simulate", "flows/transfer.yaml"] + arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(!result.stdout.contains("Usage") && !result.stderr.contains("Usage"), "a run error is not a bad argument: \(result.stderr)")
        }
    }
}
