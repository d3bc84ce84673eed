import Foundation

/// Writes files so that a failure never leaves a half-written file where a good one was: the bytes go to a
/// temporary file in the same directory, which is flushed to disk and then renamed over the destination.
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically, with the permissions a new file would get (0666 less the umask).
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var template = Array((directory + "/." + url.lastPathComponent + ".flowkit-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw FlowKitError.unwritable(path, reason: reason(errno)) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var committed = false
        defer {
            if !committed { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { buffer in
                    Foundation.write(descriptor, buffer.baseAddress! + written, bytes.count - written)
                }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw FlowKitError.unwritable(path, reason: reason(errno))
                }
                written += count
            }
            let mask = umask(0)
            umask(mask)
            fchmod(descriptor, 0o666 & ~mask)
            guard fsync(descriptor) == 0 else { throw FlowKitError.unwritable(path, reason: reason(errno)) }
        }
        guard rename(temporary, path) == 0 else { throw FlowKitError.unwritable(path, reason: reason(errno)) }
        committed = true
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
