@testable import FlowKit
import FlowGen
import Testing

/// `UndeclaredEventRule.handledEvents(in:)` passes over a handler that names the event the one before it named;
/// whatever the order of handlers, it must list every handled event once, in the order first named.
@Suite struct HandledEventsTests {
    @Test func listsEachHandledEventOnceInFirstOrderWhateverTheHandlers() throws {
        var generator = SplitMix64(seed: 7)
        let alphabet = ["go", "back", "cancel", "help", "retry", "go2", "more"]
        for _ in 0..<300 {
            let stepCount = Int.random(in: 1...12, using: &generator)
            var yaml = "flowkit: 1\nflow: t\nstart: s0\nsteps:\n"
            var written: [String] = []
            if Bool.random(using: &generator) {
                let events = Array(alphabet.shuffled(using: &generator).prefix(Int.random(in: 1...3, using: &generator)))
                written += events
                yaml += "  \"*\": { on: { " + events.map { "\($0): s0" }.joined(separator: ", ") + " } }\n"
            }
            for index in 0..<stepCount {
                // Runs of one event, as flows often have, and mixes.
                let events = Bool.random(using: &generator)
                    ? ["cancel"] : Array(alphabet.shuffled(using: &generator).prefix(Int.random(in: 0...4, using: &generator)))
                written += events
                let on = events.isEmpty ? "" : "on: { " + events.map { "\($0): s0" }.joined(separator: ", ") + " }, "
                yaml += "  s\(index): { \(on)next: s0 }\n"
            }
            let flow = try #require(FlowLoader.load(bytes: Array(yaml.utf8), file: "t.yaml", format: .yaml).flow)
            var expected: [String] = []
            for event in written where !expected.contains(event) { expected.append(event) }
            #expect(UndeclaredEventRule.handledEvents(in: flow) == expected, "\(yaml)")
        }
    }
}
