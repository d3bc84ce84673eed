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
}
