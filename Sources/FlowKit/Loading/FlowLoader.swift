import Foundation

/// The two spellings of a flow document.
public enum DocumentFormat: String, Sendable, CaseIterable {
    case json
    case yaml

    /// The format a file's extension names (`.json`, `.yaml`, `.yml`), nil for any other.
    public init?(path: String) {
        switch (path as NSString).pathExtension.lowercased() {
        case "json": self = .json
        case "yaml", "yml": self = .yaml
        default: return nil
        }
    }
}

/// A file read and checked against the format: its tree, what it is, the flow model and the findings so far.
public struct LoadedDocument: Sendable {
    /// The file, as given.
    public var file: String
    /// How it was read.
    public var format: DocumentFormat
    /// The document tree, nil when the text could not be read as a document.
    package var root: Node?
    /// Whether the document is a simulation script (it has a `flowkit-script` key).
    public var isScript: Bool
    /// The flow model, when the document is a flow with its required keys.
    public var flow: Flow?
    /// `syntax`, `duplicate_key` and `schema` findings.
    public var diagnostics: [Diagnostic]

    package init(file: String, format: DocumentFormat, root: Node?, isScript: Bool, flow: Flow?, diagnostics: [Diagnostic]) {
        self.file = file
        self.format = format
        self.root = root
        self.isScript = isScript
        self.flow = flow
        self.diagnostics = diagnostics
    }

    /// Whether a directory walk checks the document (docs/format.md, "What a directory walk checks"): a flow (a
    /// top-level `flowkit` key), a script (`flowkit-script`), a mapping with a top-level key close to either (so
    /// the typo is reported), or a file that could not be read as a document at all or is empty (`---` alone). Anything else, such as a JSON
    /// Schema or a trace, is not a flow file.
    public var isFlowFile: Bool {
        guard let root else { return true }
        guard let entries = root.entries else { return root.scalar?.kind == .null }
        let markers = ["flowkit", "flowkit-script"]
        return entries.contains { entry in
            markers.contains(entry.key) || (entry.key != "flow" && Suggestions.closest(to: entry.key, in: markers) != nil)
        }
    }

    /// Whether the document has no `syntax` or `schema` errors, so its flow model is complete.
    public var isWellFormed: Bool {
        !diagnostics.contains { $0.rule == .syntax || $0.rule == .schema }
    }
}

/// Reads flow files from disk or memory into `LoadedDocument`s, enforcing the reader limits.
public enum FlowLoader {
    /// Parses `bytes` as `format` (or guessed from the first character: `{` or `[` means JSON) and decodes the flow.
    public static func load(bytes: [UInt8], file: String, format: DocumentFormat? = nil, limits: ReaderLimits = .standard) -> LoadedDocument {
        var document = parse(bytes: bytes, file: file, format: format, limits: limits)
        guard let root = document.root else { return document }
        if root["flowkit-script"] != nil {
            document.isScript = true
            return document
        }
        let decoded = FlowPipeline.decodeModel(root, file: file)
        document.flow = decoded.flow
        document.diagnostics += decoded.diagnostics
        return document
    }

    /// The positioned document of `bytes`, not decoded: its syntax tree (`root`) and the reader's findings, with
    /// no flow. `load(bytes:file:format:limits:)` decodes it.
    public static func parse(bytes: [UInt8], file: String, format: DocumentFormat? = nil, limits: ReaderLimits = .standard) -> LoadedDocument {
        let format = format ?? guessFormat(bytes)
        let parsed = FlowPipeline.readDocument(bytes, file: file, format: format, limits: limits)
        return LoadedDocument(file: file, format: format, root: parsed.root, isScript: false, flow: nil, diagnostics: parsed.diagnostics)
    }

    /// FNV-1a 64 of `bytes`, as 16 lowercase hex digits (of a flow's normal form, its `fingerprint`).
    public static func fingerprint(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Reads the file at `path` and loads it; the format comes from the extension, else from the content.
    public static func load(path: String, limits: ReaderLimits = .standard) throws -> LoadedDocument {
        let bytes = try read(path: path, limit: limits.maxBytes)
        return load(bytes: bytes, file: path, format: DocumentFormat(path: path), limits: limits)
    }

    /// Reads a regular file, at most `limit + 1` bytes (enough for the reader to report a file over the limit).
    public static func read(path: String, limit: Int) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw openError(path: path, code: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FlowKitError.unreadable(path, reason: String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw FlowKitError.notAFile(path) }
        let capacity = min(Int(info.st_size), limit) + 1
        var bytes = [UInt8](repeating: 0, count: capacity)
        var count = 0
        while count < capacity {
            let got = bytes.withUnsafeMutableBytes { buffer in
                Foundation.read(descriptor, buffer.baseAddress! + count, capacity - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw FlowKitError.unreadable(path, reason: String(cString: strerror(errno)))
            }
            if got == 0 { break }
            count += got
            // The size the file had when it was opened is all there is to read: no second call to learn so.
            if count == Int(info.st_size) { break }
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    private static func openError(path: String, code: Int32) -> FlowKitError {
        switch code {
        case ENOENT, ENOTDIR: return .noSuchFile(path)
        default: return .unreadable(path, reason: String(cString: strerror(code)).lowercased())
        }
    }

    private static func guessFormat(_ bytes: [UInt8]) -> DocumentFormat {
        for byte in bytes.prefix(4096) {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF: continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
            default: return .yaml
            }
        }
        return .yaml
    }
}
