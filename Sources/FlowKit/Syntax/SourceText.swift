/// Helpers over a file's raw bytes shared by the readers: strict UTF-8 checks and byte offsets turned into positions.
package enum SourceText {
    /// Whether `bytes` (text that may not read as a document) show `key` as a top-level key: on some line, after
    /// blanks and an optional `{`, the key (bare or in quotes) and then `:`. Reads at most the first MiB.
    package static func showsKey(_ key: String, in bytes: [UInt8]) -> Bool {
        let wanted = Array(key.utf8)
        func blank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        for line in bytes.prefix(1 << 20).split(separator: 0x0A, omittingEmptySubsequences: true) {
            var index = line.startIndex
            while index < line.endIndex, blank(line[index]) { index += 1 }
            if index < line.endIndex, line[index] == UInt8(ascii: "{") { index += 1 }
            while index < line.endIndex, blank(line[index]) { index += 1 }
            let quote = index < line.endIndex && (line[index] == UInt8(ascii: "\"") || line[index] == UInt8(ascii: "'")) ? line[index] : nil
            if quote != nil { index += 1 }
            guard line[index...].starts(with: wanted) else { continue }
            index += wanted.count
            if let quote {
                guard index < line.endIndex, line[index] == quote else { continue }
                index += 1
            }
            while index < line.endIndex, blank(line[index]) { index += 1 }
            if index < line.endIndex, line[index] == UInt8(ascii: ":") { return true }
        }
        return false
    }

    /// The position of the byte at `offset`, counting lines at `\n`, `\r\n` or `\r` and columns in Unicode scalars.
    static func position(ofByteOffset offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> SourcePosition {
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte == 0x0D {
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                    index += 1
                    if index >= end { break }
                }
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return SourcePosition(line: line, column: column)
    }

    /// The offset and a description of the first byte that makes `bytes` invalid UTF-8 (or is a NUL), or nil when the text is valid.
    static func firstInvalidByte(in bytes: UnsafeBufferPointer<UInt8>) -> (offset: Int, message: String)? {
        var index = 0
        let count = bytes.count
        let high: UInt64 = 0x8080_8080_8080_8080
        while index < count {
            // Eight bytes at a time while they are ASCII without a NUL (a flow file is almost all ASCII): a word with
            // a high bit set or a zero byte (`(w - 0x01…) & ~w & 0x80…` is nonzero exactly then) goes byte by byte.
            if index + 8 <= count, let base = bytes.baseAddress {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                if word & high == 0 && (word &- 0x0101_0101_0101_0101) & ~word & high == 0 {
                    index += 8
                    continue
                }
            }
            let byte = bytes[index]
            if byte < 0x80 {
                if byte == 0 { return (index, "the file contains a NUL byte") }
                index += 1
                continue
            }
            let length: Int
            let minimum: UInt32
            var scalar: UInt32
            switch byte {
            case 0xC2...0xDF: length = 2; minimum = 0x80; scalar = UInt32(byte & 0x1F)
            case 0xE0...0xEF: length = 3; minimum = 0x800; scalar = UInt32(byte & 0x0F)
            case 0xF0...0xF4: length = 4; minimum = 0x10000; scalar = UInt32(byte & 0x07)
            default: return (index, "invalid UTF-8 byte 0x\(hex(byte))")
            }
            if index + length > count { return (index, "truncated UTF-8 sequence at the end of the file") }
            for k in 1..<length {
                let next = bytes[index + k]
                if next & 0xC0 != 0x80 { return (index, "invalid UTF-8 sequence starting with byte 0x\(hex(byte))") }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) {
                return (index, "invalid UTF-8 sequence starting with byte 0x\(hex(byte))")
            }
            index += length
        }
        return nil
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
