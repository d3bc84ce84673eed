import Foundation
import FlowKit

/// The one writer of flowkit's output: files named on the command line and standard output. What it does depends
/// on what the destination is (docs/format.md, "Output files"): a regular file is replaced atomically and keeps its
/// mode and owner, a symbolic link is written through, devices, FIFOs and `-` are written as streams, and a
/// directory is refused. A failure never leaves a half-written file where a good one was.
package enum OutputFile {
    /// The name that means standard output.
    package static let standardOutputName = "-"

    /// Writes `bytes` to `path` (`-` for standard output) by the rules for its kind of destination.
    package static func write(_ bytes: [UInt8], to path: String) throws {
        if path == standardOutputName {
            try StandardOutput.write(bytes)
            return
        }
        let target = try resolveLinks(path)
        var info = stat()
        if lstat(target, &info) != 0 {
            let code = errno
            guard code == ENOENT else { throw FlowKitError.unwritable(path, reason: reason(code)) }
            try replace(target, with: bytes, keeping: nil, reportedAs: path)
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            try replace(target, with: bytes, keeping: info, reportedAs: path)
        case S_IFDIR:
            throw FlowKitError.unwritable(path, reason: "it is a directory")
        case S_IFCHR, S_IFBLK, S_IFIFO:
            try stream(bytes, to: target, reportedAs: path)
        default:
            throw FlowKitError.unwritable(path, reason: "it is not a file, a device or a FIFO")
        }
    }

    /// Writes `bytes` to a new file at `path`, which must not exist (not even as a dangling link): a file that is
    /// there is never replaced (`FlowKitError.unwritable` with "it already exists"). A failed write removes the
    /// file it created.
    package static func create(_ bytes: [UInt8], at path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw FlowKitError.unwritable(path, reason: code == EEXIST ? "it already exists" : reason(code))
        }
        do {
            try writeAll(bytes, to: descriptor, reportedAs: path)
            guard fsync(descriptor) == 0 else { throw FlowKitError.unwritable(path, reason: reason(errno)) }
        } catch {
            close(descriptor)
            unlink(path)
            throw error
        }
        guard close(descriptor) == 0 else {
            let code = errno
            unlink(path)
            throw FlowKitError.unwritable(path, reason: reason(code))
        }
    }

    /// `path` with its symbolic links followed to what they finally name (which may not exist yet). A loop of
    /// links, or one longer than the system allows, is an error.
    static func resolveLinks(_ path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else { throw FlowKitError.unwritable(path, reason: reason(errno)) }
            let destination = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if destination.hasPrefix("/") {
                current = destination
            } else {
                let directory = FilePath.directory(of: current)
                current = directory.isEmpty ? destination : directory + "/" + destination
            }
        }
        throw FlowKitError.unwritable(path, reason: reason(ELOOP))
    }

    /// Writes `bytes` to a short-named temporary file beside `target`, flushes it, gives it the mode and owner of
    /// `existing` (or the default mode for a new file) and renames it over `target`.
    private static func replace(_ target: String, with bytes: [UInt8], keeping existing: stat?, reportedAs path: String) throws {
        let directory = FilePath.directory(of: target)
        var template = Array(((directory.isEmpty ? "." : directory) + "/.fk-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw FlowKitError.unwritable(path, reason: reason(errno)) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var committed = false
        defer {
            if !committed { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            try writeAll(bytes, to: descriptor, reportedAs: path)
            if let existing {
                // Ownership first: changing the owner may clear set-user-ID bits that the mode then restores.
                _ = fchown(descriptor, existing.st_uid, existing.st_gid)
                guard fchmod(descriptor, existing.st_mode & 0o7777) == 0 else { throw FlowKitError.unwritable(path, reason: reason(errno)) }
            } else {
                let mask = umask(0)
                umask(mask)
                guard fchmod(descriptor, 0o666 & ~mask) == 0 else { throw FlowKitError.unwritable(path, reason: reason(errno)) }
            }
            guard fsync(descriptor) == 0 else { throw FlowKitError.unwritable(path, reason: reason(errno)) }
        }
        guard rename(temporary, target) == 0 else { throw FlowKitError.unwritable(path, reason: reason(errno)) }
        committed = true
        // The rename itself lasts once the directory is flushed; a directory that cannot be opened is no failure.
        let directoryDescriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Writes `bytes` to the device or FIFO at `target` as it is, without a temporary file.
    private static func stream(_ bytes: [UInt8], to target: String, reportedAs path: String) throws {
        var descriptor: Int32
        repeat {
            descriptor = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { throw FlowKitError.unwritable(path, reason: reason(errno)) }
        defer { close(descriptor) }
        try writeAll(bytes, to: descriptor, reportedAs: path)
    }

    /// Writes every byte to `descriptor`, retrying interrupted and partial writes.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, reportedAs path: String?) throws {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Foundation.write(descriptor, buffer.baseAddress! + written, bytes.count - written)
            }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                guard let path else { throw FlowKitError.standardOutput(reason: reason(code)) }
                throw FlowKitError.unwritable(path, reason: reason(code))
            }
            written += count
        }
    }

    /// The system's description of the error number `code`, lowercase, for messages.
    package static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}

/// Standard output and standard error, written with checked system calls rather than `FileHandle` (which stops
/// the process when a write fails) or `print` (which drops the failure).
package enum StandardOutput {
    /// Writes `bytes` to standard output; a failed write (a full disk, a closed pipe) throws
    /// `FlowKitError.standardOutput`.
    package static func write(_ bytes: [UInt8]) throws {
        try OutputFile.writeAll(bytes, to: STDOUT_FILENO, reportedAs: nil)
    }

    /// Writes `text` to standard output as UTF-8.
    package static func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    /// Writes `text` to standard error; a failure there cannot be reported anywhere, so it is ignored.
    package static func writeError(_ text: String) {
        try? OutputFile.writeAll(Array(text.utf8), to: STDERR_FILENO, reportedAs: "standard error")
    }
}
