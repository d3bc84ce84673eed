import Foundation

/// `flowkit lsp`'s input and output: frames read from one file descriptor on a thread of their own, handled in
/// order on the caller's, responses written to another. Edits that arrive while the server is busy are all handled
/// before the next lint, so a burst of edits costs one lint (stale work is not done).
package enum LanguageServerLoop {
    /// Serves until `exit` (its status: 0 after `shutdown`, else 1) or the end of input (1).
    package static func run(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, log: @escaping @Sendable (String) -> Void) -> Int32 {
        let server = LanguageServer(log: log)
        let queue = FrameQueue()
        let timing = ProcessInfo.processInfo.environment["FLOWKIT_LSP_LOG"] == "timing"
        let thread = Thread {
            var reader = JSONRPC.Reader()
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { Foundation.read(input, $0.baseAddress!, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                reader.feed(buffer[0..<count])
                while let frame = reader.next() { queue.push(frame) }
            }
            queue.close()
        }
        thread.start()
        func send(_ bodies: [Data]) {
            for body in bodies { write(JSONRPC.frame(body), to: output) }
        }
        while true {
            guard let frames = queue.take(waiting: !server.hasStaleDocuments) else { break }
            for frame in frames {
                switch frame {
                case .body(let body):
                    send(server.handle(body))
                    if let status = server.exitStatus { return status }
                case .malformed(let problem):
                    log("flowkit lsp: \(problem)")
                    send([JSONRPC.error(id: nil, LSPResponseError(code: -32700, message: "parse error: \(problem)"))])
                }
            }
            // Only when nothing newer is waiting: the edits behind it would make this lint stale at once.
            if server.hasStaleDocuments && queue.isEmpty {
                let start = ContinuousClock.now
                let messages = server.lintStale()
                if timing { log("flowkit lsp: timing: lint \(messages.count) document(s) in \(Self.milliseconds(ContinuousClock.now - start)) ms") }
                send(messages)
            }
        }
        return server.exitStatus ?? 1
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.3f", Double(seconds) * 1_000 + Double(attoseconds) / 1e15)
    }

    private static func write(_ data: Data, to descriptor: Int32) {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}

/// Frames read and not yet handled.
private final class FrameQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var frames: [JSONRPC.Reader.Frame] = []
    private var closed = false

    func push(_ frame: JSONRPC.Reader.Frame) {
        condition.lock()
        frames.append(frame)
        condition.signal()
        condition.unlock()
    }

    func close() {
        condition.lock()
        closed = true
        condition.signal()
        condition.unlock()
    }

    var isEmpty: Bool {
        condition.lock()
        defer { condition.unlock() }
        return frames.isEmpty
    }

    /// Every frame waiting (waiting for one when `waiting`); nil once input has ended and all were taken.
    func take(waiting: Bool) -> [JSONRPC.Reader.Frame]? {
        condition.lock()
        defer { condition.unlock() }
        while waiting && frames.isEmpty && !closed { condition.wait() }
        if frames.isEmpty && closed { return nil }
        let taken = frames
        frames = []
        return taken
    }
}
