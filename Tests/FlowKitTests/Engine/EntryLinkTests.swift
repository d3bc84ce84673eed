import Foundation
import Testing
import FlowGen
@testable import FlowKit
@testable import FlowKitTool

/// Starting a run from a link (docs/format.md, "Starting from a link").
@Suite("Starting from a link")
struct EntryLinkTests {
    static let flow = """
        flowkit: 1
        flow: shop
        start: home
        state: { id: int?, name: string?, tab: string? }
        entries:
          item: { step: item, path: "/shop/items/{id}" }
          named: { step: item, path: "/shop/{name}/{id}" }
          special: { step: sale, path: "/shop/items/sale" }
          tab: { step: home, path: "/shop/{tab}" }
        steps:
          home: { next: item }
          item: { next: done }
          sale: { next: done }
          done: { kind: finish }
        """

    private func shop() throws -> Flow { try #require(FlowLoader.load(bytes: Array(Self.flow.utf8), file: "shop.yaml", format: .yaml).flow) }

    @Test(arguments: [
        ("/shop/items/42", "item", ["id": "42"]),
        ("https://example.com/shop/items/42?ref=mail#top", "item", ["id": "42"]),
        ("HTTP://example.com/shop/items/42", "item", ["id": "42"]),
        // An app's own scheme (issue 29): the host is the path's first segment.
        ("shopapp://shop/items/42?ref=push", "item", ["id": "42"]),
        ("shopapp://shop/offers", "tab", ["tab": "offers"]),
        ("/shop//items/42/", "item", ["id": "42"]),
        ("/shop/items/sale", "special", [:]),
        ("/shop/caf%C3%A9/7", "named", ["name": "café", "id": "7"]),
        ("/shop/offers", "tab", ["tab": "offers"]),
    ])
    func aLinkFindsTheMostSpecificEntry(link: String, entry: String, params: [String: String]) throws {
        let flow = try shop()
        let found = try #require(EntryPath.entry(matching: link, in: flow))
        #expect(found.name == entry)
        #expect(found.params == params)
    }

    @Test func aLinkNoEntryMatchesIsAClearError() throws {
        let flow = try CompiledFlow(flow: try shop())
        #expect(throws: RunError("no entry of flow 'shop' matches '/shop/items/42/reviews'", kind: .invalidStart)) {
            try FlowRun(flow: flow, start: .url("/shop/items/42/reviews", state: [:]))
        }
        #expect(throws: RunError.self) { try FlowRun(flow: flow, start: .url("/shop/items/x", state: [:])) }
        let run = try FlowRun(flow: flow, start: .url("/shop/items/42", state: [:]))
        #expect(run.currentStep == "item" && run.state["id"] == .int(42))
    }

    /// Property: for random parameter values (any text, percent-encoded in the link), the link built from an
    /// entry's path matches that entry and gives the values back.
    @Test func aLinkBuiltFromAPathGivesItsValuesBack() throws {
        var random = SplitMix64(seed: 0x11_2233)
        let alphabet = Array("abcXYZ09 -_.~é/?#%{}")
        for _ in 0..<300 {
            let values = (0..<2).map { _ in String((0..<Int.random(in: 1...8, using: &random)).map { _ in alphabet.randomElement(using: &random)! }) }
            let encoded = values.map { $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
            let params = try #require(EntryPath.match("/shop/{name}/x/{id}", link: "/shop/\(encoded[0])/x/\(encoded[1])"))
            #expect(params == ["name": values[0], "id": values[1]], "\(encoded)")
        }
    }

    /// Property: `EntryPath.link` fills an entry's path with any non-empty values (slashes, percent signs, braces,
    /// any Unicode), and the link matches that path and gives the same values back; an entry's link starts a run at
    /// that entry.
    @Test func entryPathLinkRoundTrips() throws {
        var random = SplitMix64(seed: 0x11_2234)
        let alphabet = Array("aZ0 -_.~é/?#%{}+&=\u{0}\n🙂")
        for _ in 0..<1_000 {
            let values = (0..<2).map { _ in String((0..<random.int(in: 1...8)).map { _ in alphabet[random.below(alphabet.count)] }) }
            let link = EntryPath.link("/shop/{name}/x/{id}", params: ["name": values[0], "id": values[1]])
            #expect(link.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.generalCategory != .control }, "\(link)")
            #expect(EntryPath.match("/shop/{name}/x/{id}", link: link) == ["name": values[0], "id": values[1]], "\(link)")
        }
        #expect(EntryPath.link("/shop/items/{id}", params: ["id": "42"]) == "/shop/items/42")
        let flow = try CompiledFlow(flow: try shop())
        let run = try FlowRun(flow: flow, start: .url(EntryPath.link("/shop/{name}/{id}", params: ["name": "a b/c", "id": "7"]), state: [:]))
        #expect(run.state["name"] == .string("a b/c") && run.state["id"] == .int(7))
    }

    @Test func scriptsStartFromALinkAndLintChecksIt() throws {
        let folder = NSTemporaryDirectory() + "flowkit-links-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.flow.write(toFile: folder + "/shop.yaml", atomically: true, encoding: .utf8)
        let script = """
            flowkit-script: 1
            flow: shop.yaml
            scenarios:
              - name: a link to an item
                start: { url: "/shop/items/42" }
                steps:
                  - item: {}
                expect: { path: [item, done], state: { id: 42 } }
              - name: a link nothing matches
                start: { url: "/nowhere" }
            """
        try script.write(toFile: folder + "/s.yaml", atomically: true, encoding: .utf8)
        let document = try FlowLoader.load(path: folder + "/s.yaml")
        let findings = Linter.lint(document, rules: [ScriptRule.self])
        #expect(findings.map(\.message) == ["no entry of the flow matches '/nowhere'"], "\(findings.map(\.message))")
        let root = try #require(document.root)
        let decoded = try #require(ScriptDecoder.decode(root, file: folder + "/s.yaml").script)
        let flow = try CompiledFlow(flow: try shop())
        let results = ScriptRunner.run(decoded, flow: flow, resolver: nil)
        #expect(results[0].passed && results[0].entry == "item", "\(results[0].failures)")
        #expect(!results[1].passed && results[1].error?.hasPrefix("no entry of flow 'shop' matches '/nowhere'") == true)
    }
}
