import Foundation
import Testing
@testable import FlowKit

/// Passes over a result's type recurse once a level, and some run on worker threads: half the steps of a large
/// flow are decoded on one, and a large flow's rules run on them. Apple platforms give such a thread 512 KiB of
/// stack. Result shapes nest at most `FlowDecoder.maxShapeDepth` levels, so that every pass fits in that, whatever
/// the input; these tests run the passes on a thread of that size, in whatever build the tests are run in (a debug
/// build's frames are the largest).
@Suite struct ShapeDepthTests {
    /// A flow whose one action has a result shape `levels` deep (the result mapping included), used in a `set`, an
    /// `if` and a derived event so that the type rules walk it.
    static func flow(levels: Int) -> String {
        let shape = String(repeating: "{ f: ", count: levels - 1) + "{ f: int, ok: bool }" + String(repeating: " }", count: levels - 1)
        let path = "result" + String(repeating: ".f", count: levels - 1)
        return """
            flowkit: 1
            flow: deep
            start: a
            state: { n: int }
            events: { done: "\(path).ok" }
            steps:
              a: { kind: action, result: \(shape), set: { n: "\(path).f" }, on: { done: b }, next: [{ if: "\(path).ok", forward: b }, { forward: b }] }
              b: { kind: finish }

            """
    }

    /// Runs `work` on a thread with a 512 KiB stack and returns its result.
    static func onSmallStack<T: Sendable>(_ work: @escaping @Sendable () -> T) -> T {
        let box = SmallStackResult<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.value = work()
            done.signal()
        }
        thread.stackSize = 512 << 10
        thread.start()
        done.wait()
        return box.value!
    }

    @Test func theDeepestShapeAllowedIsLintedInASmallStack() {
        let text = Self.flow(levels: FlowDecoder.maxShapeDepth)
        let findings = Self.onSmallStack { Linter.lint(FlowLoader.load(bytes: Array(text.utf8), file: "deep.yaml", format: .yaml)) }
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    @Test func oneLevelDeeperIsAFindingAndTheRestIsKept() throws {
        let document = FlowLoader.load(bytes: Array(Self.flow(levels: FlowDecoder.maxShapeDepth + 1).utf8), file: "deep.yaml", format: .yaml)
        #expect(document.diagnostics.map(\.message) == ["a result shape may nest at most 32 levels; this one is nested deeper"])
        // The shape too deep is left out of its parent (level 32, which keeps no field); the levels above are kept.
        var fields = try #require(document.flow?.steps.first?.result)
        var levels = 1
        while let field = fields.first, case .object(let inner) = field.type.base {
            levels += 1
            fields = inner
        }
        #expect(levels == FlowDecoder.maxShapeDepth)
        #expect(fields.isEmpty)
    }

    /// The deepest document the reader takes, its nesting all in one result, is decoded in a small stack: the
    /// decoder stops at the shape limit rather than following the document down.
    @Test func theDeepestDocumentIsDecodedInASmallStack() throws {
        var levels = 2
        while FlowLoader.parse(bytes: Array(Self.flow(levels: levels + 1).utf8), file: "deep.yaml", format: .yaml).root != nil { levels += 1 }
        #expect(levels > 200)
        let text = Self.flow(levels: levels)
        let messages = Self.onSmallStack { Linter.lint(FlowLoader.load(bytes: Array(text.utf8), file: "deep.yaml", format: .yaml)).map(\.message) }
        #expect(messages.contains("a result shape may nest at most 32 levels; this one is nested deeper"))
    }
}

/// What the small-stack thread hands back.
private final class SmallStackResult<T>: @unchecked Sendable {
    var value: T?
}
