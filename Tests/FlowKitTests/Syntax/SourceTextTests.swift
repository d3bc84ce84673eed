@testable import FlowKit
import FlowGen
import Testing

/// `SourceText.firstInvalidByte` finds the first byte that makes a text invalid UTF-8, or its first NUL, wherever
/// it is: before, inside or after a run of ASCII that the check reads eight bytes at a time.
@Suite struct SourceTextTests {
    /// The offset of the first invalid sequence or NUL, by the standard library's own UTF-8 parser.
    static func reference(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1 && encoded.first == 0 { return offset }
                offset += encoded.count
            case .error:
                return offset
            case .emptyInput:
                return nil
            }
        }
    }

    static func check(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { SourceText.firstInvalidByte(in: $0)?.offset }
    }

    @Test func agreesWithTheStandardParserOnRandomTexts() {
        var generator = SplitMix64(seed: 16)
        // Mostly ASCII, with a few bytes that may start, continue or break a sequence, or be a NUL.
        let rare: [UInt8] = [0x00, 0x80, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0xA0, 0x9F, 0x90]
        let valid: [[UInt8]] = [[0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xED, 0x9F, 0xBF]]
        var invalid = 0
        for round in 0..<20_000 {
            var bytes: [UInt8] = []
            let length = Int.random(in: 0...(round % 10 == 0 ? 200 : 40), using: &generator)
            while bytes.count < length {
                switch Int.random(in: 0..<100, using: &generator) {
                case 0..<3: bytes.append(rare.randomElement(using: &generator)!)
                case 3..<8: bytes += valid.randomElement(using: &generator)!
                default: bytes.append(UInt8.random(in: 0x01...0x7F, using: &generator))
                }
            }
            let expected = Self.reference(bytes)
            if expected != nil { invalid += 1 }
            #expect(Self.check(bytes) == expected, "bytes \(bytes)")
        }
        // The generator reaches both answers often.
        #expect(invalid > 2_000 && invalid < 18_000)
    }

    @Test func findsABadByteAtEveryOffsetOfALongASCIIText() {
        let ascii = [UInt8](repeating: UInt8(ascii: "a"), count: 40)
        for offset in 0..<ascii.count {
            for bad: UInt8 in [0x00, 0x80, 0xFF, 0xC3] {
                var bytes = ascii
                bytes[offset] = bad
                #expect(Self.check(bytes) == offset, "byte 0x\(String(bad, radix: 16)) at \(offset)")
            }
            #expect(Self.check(Array(ascii[..<offset])) == nil)
        }
    }
}
