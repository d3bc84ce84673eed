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
    /// A directory could not be listed, or a path in it could not be examined (too long for the system).
    case unreadableDirectory(String, reason: String)
    /// A directory given to `flowkit lint` holds no flow file to check.
    case noFlowFiles(String, excluded: Int, skipped: Int = 0)
    /// Standard output could not be written (a full disk, a closed pipe).
    case standardOutput(reason: String)

    public var errorDescription: String? {
        switch self {
        case .noSuchFile(let path), .notAFile(let path), .unreadable(let path, _), .unwritable(let path, _),
             .unreadableDirectory(let path, _), .noFlowFiles(let path, _, _):
            return ("\(path: path): \(verbatim: problem)" as Message).text
        case .standardOutput:
            return problem
        }
    }

    /// What went wrong, without the path (for messages that name the file their own way).
    public var problem: String {
        switch self {
        case .noSuchFile: return "no such file or directory"
        case .notAFile: return "not a regular file"
        case .unreadable(_, let reason): return "cannot read the file: \(reason)"
        case .unwritable(_, let reason): return "cannot write the file: \(reason)"
        case .unreadableDirectory(_, let reason): return "cannot read the directory: \(reason)"
        case .noFlowFiles(_, let excluded, let skipped):
            var reasons: [String] = []
            if excluded > 0 { reasons.append("the configuration excludes \(excluded)") }
            if skipped > 0 { reasons.append("\(skipped) \(skipped == 1 ? "is not a flow file" : "are not flow files")") }
            return "no flow files found" + (reasons.isEmpty ? "" : " (" + reasons.joined(separator: "; ") + ")")
        case .standardOutput(let reason): return "cannot write to standard output: \(reason)"
        }
    }
}
