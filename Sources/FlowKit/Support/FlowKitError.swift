import Foundation

/// The errors of the core library: problems that stop flowkit from doing its work at all (not findings in a file).
public enum FlowKitError: LocalizedError, Equatable, Sendable {
    /// The path names nothing.
    case noSuchFile(String)
    /// The path names something that is not a regular file (a directory, a device, a socket).
    case notAFile(String)
    /// The file exists but could not be read.
    case unreadable(String, reason: String)
    /// A file could not be written.
    case unwritable(String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .noSuchFile(let path): return "\(path): no such file or directory"
        case .notAFile(let path): return "\(path): not a regular file"
        case .unreadable(let path, let reason): return "\(path): cannot read the file: \(reason)"
        case .unwritable(let path, let reason): return "\(path): cannot write the file: \(reason)"
        }
    }
}
