import Foundation
import FlowGen
import Testing
@testable import FlowKit
@testable import FlowKitTool

/// A large flow's steps are decoded in two halves on two cores. Whatever the steps (well formed or not, the `"*"`
/// step anywhere, names that are not names), the flow and the findings must be those of decoding them in order.
@Suite("Parallel step decoding")
struct ParallelDecodeTests {
    /// Step bodies, well formed and not, each giving its own findings.
    static let bodies = [
        "{ kind: screen, on: { go: s%next } }",
        "{ kind: action, result: { ok: bool }, next: [{ if: \"ok\", forward: s%next }, { back: true }] }",
        "{ kind: finish, outcome: done }",
        "{ kind: finish, outcome: 7x }",
        "{ kind: screne, on: { go: s%next } }",
        "{ kind: [1], next: s%next }",
        "{ kind: screen, colour: red, on: { go: s%next } }",
        "{ kind: screen, outcome: done, next: s%next }",
        "{ kind: flow }",
        "{ kind: action, input: { a: 1 }, next: s%next }",
        "[not, a, mapping]",
        "",
        "{ kind: screen, on: { go: { forward: s%next, sideways: 1 } } }",
        "{ kind: screen, set: { count: \"count + 1\" }, on: 3 }",
        "{ kind: screen, lint: { disable: [dead_end] }, on: { go: s%next } }",
    ]

    /// A YAML flow of `count` steps drawn from `bodies`, some named with names that are not names, and the `"*"`
    /// step at `anyAt` (or nowhere).
    static func flow(count: Int, anyAt: Int?, _ generator: inout SplitMix64) -> String {
        var text = "flowkit: 1\nflow: big\nstart: s0\nsteps:\n"
        for index in 0..<count {
            if index == anyAt { text += "  \"*\": { on: { error: { back: true } }, oops: 1 }\n" }
            let name = generator.below(40) == 0 ? "\(index)bad" : "s\(index)"
            let body = bodies[generator.below(bodies.count)].replacingOccurrences(of: "%next", with: String(index + 1))
            text += "  \(name): \(body)\n"
        }
        if anyAt == count { text += "  \"*\": { on: { error: { back: true } }, oops: 1 }\n" }
        return text
    }

    /// Decodes `bytes` in order and in halves, and expects the same flow and findings; false when the bytes are no
    /// document to decode.
    @discardableResult
    static func expectSameBothWays(_ bytes: [UInt8], format: DocumentFormat, sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        let parsed = FlowLoader.parse(bytes: bytes, file: "big", format: format)
        guard let root = parsed.root else { return false }
        let inOrder = FlowDecoder.decode(root, file: "big", parallelStepCount: .max)
        let inHalves = FlowDecoder.decode(root, file: "big", parallelStepCount: 1)
        #expect(inHalves.flow == inOrder.flow, sourceLocation: sourceLocation)
        #expect(inHalves.diagnostics == inOrder.diagnostics, sourceLocation: sourceLocation)
        return true
    }

    @Test func randomFlowsDecodeTheSameInHalves() throws {
        var generator = SplitMix64(seed: 2_048)
        var findings = 0
        for round in 0..<60 {
            let count = 2 + generator.below(300)
            // The '*' step first, last, at the middle (where the halves meet), just before it, anywhere, or not at all.
            let places: [Int?] = [0, count, count / 2, count / 2 - 1, generator.below(count), nil]
            let text = Self.flow(count: count, anyAt: places[round % places.count], &generator)
            let parsed = FlowLoader.parse(bytes: Array(text.utf8), file: "big", format: .yaml)
            findings += FlowDecoder.decode(try #require(parsed.root), file: "big").diagnostics.count
            try Self.expectSameBothWays(Array(text.utf8), format: .yaml)
        }
        // The flows are malformed enough that the order of the findings is tested.
        #expect(findings > 500)
    }

    @Test func aFlowOverTheThresholdDecodesTheSameInHalves() throws {
        var generator = SplitMix64(seed: 7)
        let count = FlowDecoder.parallelStepCount + 101
        let text = Self.flow(count: count, anyAt: (count + 1) / 2, &generator)
        let parsed = FlowLoader.parse(bytes: Array(text.utf8), file: "big", format: .yaml)
        let byDefault = FlowDecoder.decode(try #require(parsed.root), file: "big")
        let inOrder = FlowDecoder.decode(try #require(parsed.root), file: "big", parallelStepCount: .max)
        #expect(byDefault.flow == inOrder.flow)
        #expect(byDefault.diagnostics == inOrder.diagnostics)
        #expect(byDefault.flow?.anyStep != nil)
    }

    /// Every sample, broken flow and malformed input, decoded in halves however few its steps.
    @Test func theSamplesAndTheMalformedCorpusDecodeTheSameInHalves() throws {
        var checked = 0
        for folder in ["flows", "flows/nested", "flows/broken", "Tests/FlowKitTests/Malformed/Corpus", "Tests/FlowKitTests/Malformed/Corpus/regressions"] {
            let path = packageRoot + "/" + folder
            for name in try FileManager.default.contentsOfDirectory(atPath: path).sorted() {
                guard let format = DocumentFormat(path: name) else { continue }
                if try Self.expectSameBothWays(Array(try Data(contentsOf: URL(fileURLWithPath: path + "/" + name))), format: format) { checked += 1 }
            }
        }
        #expect(checked > 100)
    }
}
