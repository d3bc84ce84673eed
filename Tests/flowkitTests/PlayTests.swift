import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool

/// `flowkit simulate FLOW --interactive` and the `PlaySession` under it (docs/format.md, "Playing a flow").
@Suite("Playing a flow by hand")
struct PlayTests {
    private func transfer() throws -> CompiledFlow {
        let document = try FlowLoader.load(path: packageRoot + "/flows/transfer.yaml")
        return try CompiledFlow(flow: try #require(document.flow))
    }

    @Test func theMenuOffersWhatTheStepTakes() throws {
        var session = try PlaySession(flow: try transfer(), state: ["country": .string("RU")])
        #expect(session.choices.map(\.label) == ["event error", "a result { amount: int }, as JSON or key=value pairs"])
        #expect(session.prompt.hasPrefix("step 'amount': Enter amount (screen)\n  1) event error\n"))
        #expect(session.handle("amount=300") == .moved("  1  amount  result {amount: 300}  -> tariffs  amount = 300\n"))
        #expect(session.choices.map(\.move) == [.event("error"), .result([:], step: nil), .back])
        #expect(session.handle("bakc") == .invalid("step 'tariffs' takes no 'bakc'; did you mean 'back'?"))
        #expect(session.handle("9") == .invalid("choose 1 to 3"))
        guard case .runError(let message) = session.handle("tariff=premium") else {
            Issue.record("a result that does not fit is a run error")
            return
        }
        #expect(message.contains("'tariffs'") && message.contains("premium"), "\(message)")
        #expect(session.run.currentStep == "tariffs", "a run error leaves the run as it was")
        #expect(session.handle("{\"tariff\": \"business\"}") == .moved("  2  tariffs  result {tariff: 'business'}  -> confirmation  tariff = 'business'\n"))
        #expect(session.run.currentStep == "confirmation")
        // Derived events are not offered; confirmation has no next.
        #expect(!session.choices.contains { $0.move == .next })
        #expect(session.handle("confirmationE") == .invalid("'confirmationE' could be 'confirmationEditAmount' or 'confirmationEditTariff'"))
        guard case .moved = session.handle("3") else {
            Issue.record("choice 3 is 'event confirmationEditTariff'")
            return
        }
        #expect(session.run.currentStep == "tariffs")
    }

    @Test func aPipedSessionPlaysToTheEndAndSavesAScriptThatPasses() throws {
        let path = try folder(with: [:])
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.copyItem(atPath: packageRoot + "/flows/transfer.yaml", toPath: path + "/transfer.yaml")
        try "keep me\n".write(toFile: path + "/taken.yaml", atomically: true, encoding: .utf8)
        let input = ["amount=50", "next", "{\"amount\": 300}", "back", "amount=250", "tariff=economy", "err", "back", "confirmationC", "2",
                     path + "/taken.yaml", "first try", path + "/played.yaml", "happy path"].joined(separator: "\n") + "\n"
        let result = try flowkit(["simulate", path + "/transfer.yaml", "--state", #"{"country": "RU"}"#, "--interactive"], input: input)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("the flow finished with outcome 'finish'"))
        #expect(result.stdout.contains("taken.yaml: cannot write the file: it already exists; give another file"), "\(result.stdout)")
        #expect(try String(contentsOfFile: path + "/taken.yaml", encoding: .utf8) == "keep me\n", "an existing file is never replaced")
        let script = try String(contentsOfFile: path + "/played.yaml", encoding: .utf8)
        #expect(script.contains("flow: \"transfer.yaml\""))
        #expect(script.contains("- tariffs: { back: true }"))
        let replay = try flowkit(["simulate", "--script", path + "/played.yaml"])
        #expect(replay.status == 0, "\(replay.stdout)")
        #expect(replay.stdout.hasSuffix("1 passed, 0 failed\n"))
        let lint = try flowkit(["lint", path + "/played.yaml"])
        #expect(lint.status == 0, "\(lint.stdout)")
    }

    @Test func inputThatEndsEarlyOrAMissingInputIsAnError() throws {
        let early = try flowkit(["simulate", "flows/transfer.yaml", "--state", #"{"country": "RU"}"#, "--interactive"], input: "amount=300\n")
        #expect(early.status == 1)
        #expect(early.stderr.contains("the input ended at step 'tariffs' before the flow finished"))
        let missing = try flowkit(["simulate", "flows/transfer.yaml", "--interactive"], input: "")
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("the run starts without the input 'country', which the flow requires; give it with --state"), "\(missing.stderr)")
    }
}
