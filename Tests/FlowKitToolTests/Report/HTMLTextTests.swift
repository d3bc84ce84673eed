import Foundation
import Testing
@testable import FlowKit
@testable import FlowKitTool

/// The report's escaping, its SVG hooks and the hash its Content Security Policy names the script by.
@Suite struct HTMLTextTests {
    @Test func sha256MatchesTheStandardsVectors() {
        func hex(_ text: String) -> String { SHA256.digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined() }
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(String(repeating: "a", count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// The policy names the one script by the hash of exactly its text, so that the browser runs it (and nothing else).
    @Test func thePolicyNamesTheScriptByItsHash() throws {
        let html = HTMLReportWriter.write(FlowReport(toolVersion: "1"))
        let script = try #require(html.components(separatedBy: "<script>").last?.components(separatedBy: "</script>").first)
        let hash = Data(SHA256.digest(Array(script.utf8))).base64EncodedString()
        #expect(html.contains("script-src 'sha256-\(hash)'"))
        #expect(html.components(separatedBy: "<script").count == 2)
    }

    /// Property: any text, as an attribute or as content, reads back from an XML parser as itself (C0 controls
    /// but tab, line break and carriage return as U+FFFD in attributes; shown escaped in content), and never
    /// holds markup.
    @Test func escapedTextReadsBack() {
        var generator = SplitMix64(seed: 11)
        let pieces: [String] = ["<", ">", "&", "\"", "'", "]]>", "<!--", "&amp;", "&#10;", "\n", "\r", "\r\n", "\t", "\u{0}", "\u{1}", "\u{1b}",
                                "\u{7f}", "\u{85}", "\u{202e}", "\u{2028}", "\u{FFFE}", "\u{FFFF}", "😀", "é", "a", " ", "</script>"]
        for _ in 0..<500 {
            var text = ""
            for _ in 0..<Int(generator.next() % 12) { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
            let document = ReportDocument("<r a=\"\(HTMLText.attribute(text))\">\(HTMLText.text(text))</r>")
            #expect(document.error == nil, "\(text.debugDescription)")
            let element = document.elements.first
            let expected = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
                (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0xFFFE || scalar.value == 0xFFFF ? "\u{FFFD}" : scalar
            }))
            #expect(element?.attributes["a"] == expected, "\(text.debugDescription)")
            #expect(element?.children.isEmpty == true)
            #expect(!HTMLText.text(text).contains("<") && !HTMLText.attribute(text).contains("<"))
        }
    }

    @Test func hooksGoOnTheElementsOfTheirIdsOnly() throws {
        let svg = """
            <?xml version="1.0"?>
            <!DOCTYPE svg>
            <svg width="1pt" xmlns="http://www.w3.org/2000/svg">
            <g id="d0" class="graph">
            <title>flow</title>
            <g id="d0_n0" class="node">
            <title>n0</title>
            <text>id="d0_n1"</text>
            </g>
            <g id="a_d0_n1"><a xlink:title="x"><g id="d0_n1" class="node">
            <title>n1</title>
            </g></a></g>
            </g>
            </svg>
            """
        let hooks = ["d0": SVGHooks.Hook([], title: "A & B"), "d0_n0": SVGHooks.Hook([("data-step", "a\"b")], title: "a\"b"),
                     "d0_n1": SVGHooks.Hook([("data-step", "c")])]
        let annotated = try #require(SVGHooks.annotate(svg, root: [("data-diagram", "flow")], hooks: hooks))
        #expect(annotated.hasPrefix("<svg data-diagram=\"flow\" width=\"1pt\""))
        #expect(annotated.contains("<g id=\"d0_n0\" data-step=\"a&quot;b\" class=\"node\">\n<title>a&quot;b</title>"))
        #expect(annotated.contains("<g id=\"d0\" class=\"graph\">\n<title>A &amp; B</title>"))
        #expect(annotated.contains("<g id=\"d0_n1\" data-step=\"c\" class=\"node\">\n<title>n1</title>"))
        // Text that looks like an id is text: Graphviz escapes a label's quotes, and this one is not an attribute.
        #expect(annotated.contains("<text>id=\"d0_n1\"</text>"))
        #expect(SVGHooks.annotate("no picture", root: [], hooks: [:]) == nil)
    }
}
