import Foundation

/// JSON-RPC 2.0 messages over the Language Server Protocol's base protocol: each message a header part
/// (`Content-Length: N`, other headers ignored, lines ended by CRLF) and N bytes of UTF-8 JSON.
package enum JSONRPC {
    /// The largest message body read (64 MB); a larger one is refused (read and dropped) with a parse error.
    package static let maxBody = 64 << 20

    /// A message's id and method, read before its parameters.
    package struct Header: Decodable, Sendable {
        package var id: LSPRequestID?
        package var method: String?
    }

    /// A message's parameters, read as the method wants them.
    package struct Params<P: Decodable>: Decodable {
        package var params: P
    }

    /// A framed message: the bytes to write.
    package static func frame(_ body: Data) -> Data {
        var data = Data("Content-Length: \(body.count)\r\n\r\n".utf8)
        data.append(body)
        return data
    }

    /// A response with a result (`null` when `result` is nil).
    package static func response<R: Encodable>(id: LSPRequestID?, result: R?) -> Data {
        encode(ResultResponse(id: id, result: result))
    }

    /// A response with an error.
    package static func error(id: LSPRequestID?, _ error: LSPResponseError) -> Data {
        encode(ErrorResponse(id: id, error: error))
    }

    /// A notification.
    package static func notification<P: Encodable>(_ method: String, _ params: P) -> Data {
        encode(Notification(method: method, params: params))
    }

    private static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every value the server sends is made of strings, numbers and its own types: encoding cannot fail.
        return (try? encoder.encode(value)) ?? Data(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"internal error"}}"#.utf8)
    }

    /// Reads framed messages from a byte stream: feed it bytes as they come, take the bodies out.
    package struct Reader: Sendable {
        private var buffer: [UInt8] = []
        private var start = 0
        /// Bytes of an oversized body still to drop.
        private var dropping = 0

        package init() {}

        /// What a frame gave: a body, or a framing error (a header without a length, a body too large), after
        /// which reading goes on at the next frame.
        package enum Frame: Sendable, Equatable {
            case body(Data)
            case malformed(String)
        }

        package mutating func feed(_ bytes: some Sequence<UInt8>) {
            buffer.append(contentsOf: bytes)
        }

        /// The next complete frame, or nil when more bytes are needed.
        package mutating func next() -> Frame? {
            if dropping > 0 {
                let available = buffer.count - start
                let taken = min(available, dropping)
                start += taken
                dropping -= taken
                compact()
                if dropping > 0 { return nil }
            }
            // The header ends at the first empty line.
            guard let end = headerEnd() else {
                // A header that never ends (no CRLF CRLF in 64 KB) is dropped.
                if buffer.count - start > 65_536 {
                    start = buffer.count
                    compact()
                    return .malformed("a header longer than 65536 bytes")
                }
                return nil
            }
            let header = String(decoding: buffer[start..<end], as: UTF8.self)
            var length: Int?
            for line in header.split(separator: "\r\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-length" {
                    length = Int(parts[1].trimmingCharacters(in: .whitespaces))
                }
            }
            guard let length, length >= 0 else {
                start = end + 4
                compact()
                return .malformed("a message without a valid Content-Length header")
            }
            if length > JSONRPC.maxBody {
                start = end + 4
                dropping = length
                compact()
                return .malformed("a message of \(length) bytes, more than \(JSONRPC.maxBody)")
            }
            guard buffer.count - (end + 4) >= length else { return nil }
            let body = Data(buffer[(end + 4)..<(end + 4 + length)])
            start = end + 4 + length
            compact()
            return .body(body)
        }

        private func headerEnd() -> Int? {
            var index = start
            while index + 3 < buffer.count {
                if buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 { return index }
                index += 1
            }
            return nil
        }

        private mutating func compact() {
            if start > 0 && (start >= buffer.count || start > 1 << 20) {
                buffer.removeFirst(start)
                start = 0
            }
        }
    }
}

/// A success response: `result` is always there, `null` for none.
private struct ResultResponse<R: Encodable>: Encodable {
    let id: LSPRequestID?
    let result: R?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode("2.0", forKey: .jsonrpc)
        if let id { try container.encode(id, forKey: .id) } else { try container.encodeNil(forKey: .id) }
        if let result { try container.encode(result, forKey: .result) } else { try container.encodeNil(forKey: .result) }
    }

    enum Keys: String, CodingKey { case jsonrpc, id, result }
}

/// An error response (`id` null when the request's id could not be read).
private struct ErrorResponse: Encodable {
    let id: LSPRequestID?
    let error: LSPResponseError

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode("2.0", forKey: .jsonrpc)
        if let id { try container.encode(id, forKey: .id) } else { try container.encodeNil(forKey: .id) }
        try container.encode(error, forKey: .error)
    }

    enum Keys: String, CodingKey { case jsonrpc, id, error }
}

/// A notification from the server.
private struct Notification<P: Encodable>: Encodable {
    var jsonrpc = "2.0"
    let method: String
    let params: P
}
