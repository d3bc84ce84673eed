import Foundation
import FlowKit

/// Turns the paths given to `flowkit lint` (files and directories) into the list of files to check, with every
/// path that could not be used as a problem (docs/format.md, "What a directory walk checks").
package enum FileCollector {
    /// What the paths given lead to.
    package struct Collected: Sendable {
        /// The files to check, in order.
        package var files: [String] = []
        /// The directory trees they come from (for nested flows).
        package var roots: [String] = []
        /// The paths that could not be used, as messages.
        package var problems: [String] = []
        /// Each file found in a directory, with the directory given on the command line it was found in.
        package var directoryOf: [String: String] = [:]
        /// How many files each directory's configuration excludes.
        package var excluded: [String: Int] = [:]
        /// The canonical path of each file found in a directory, known from the walk (the directory's canonical
        /// path and the entry's name, or a link's resolved target), so that the lint need not resolve it again.
        package var canonicalPaths: [String: String] = [:]
    }

    /// The extensions searched for in directories.
    package static let extensions: Set<String> = ["json", "yaml", "yml"]

    /// Files named directly are kept as given; directories are searched recursively in sorted order, without
    /// following symbolic links to directories, keeping the files their configuration includes (an explicit
    /// configuration, else the nearest `.flowkit.yml`). Returns the files, the directory trees they come from
    /// (for nested flows), and the paths that could not be used: a path that cannot be examined, a directory that
    /// cannot be listed or whose paths are too long for the system, and a directory with no flow files, so that
    /// nothing is skipped in silence. With `emptyIsProblem` false (a walk for neighbours, not for files to
    /// check), a directory with no flow files is not a problem.
    package static func collect(_ paths: [String], configuration: LintConfiguration?, allowOutside: Bool, emptyIsProblem: Bool = true) -> Collected {
        collect(paths, configuration: configuration, allowOutside: allowOutside, lookup: ConfigurationLookup(), emptyIsProblem: emptyIsProblem)
    }

    /// `collect`, with the nearest configurations looked up through `lookup`.
    static func collect(_ paths: [String], configuration: LintConfiguration?, allowOutside: Bool, lookup: ConfigurationLookup,
                        emptyIsProblem: Bool = true) -> Collected {
        var collected = Collected()
        var seen = Set<String>()
        for path in paths {
            var info = stat()
            guard lstat(path, &info) == 0 else {
                let code = errno
                let error = code == ENOENT || code == ENOTDIR
                    ? FlowKitError.noSuchFile(path) : FlowKitError.unreadable(path, reason: OutputFile.reason(code))
                collected.problems.append(error.localizedDescription)
                continue
            }
            // A symbolic link that leads nowhere (or to itself) goes to the loader, which says why it cannot be read.
            var target = stat()
            let isDirectory = stat(path, &target) == 0 && target.st_mode & S_IFMT == S_IFDIR
            guard isDirectory else {
                let directory = FilePath.directory(of: path)
                collected.roots.append(directory.isEmpty ? "." : directory)
                if seen.insert(path).inserted { collected.files.append(path) }
                continue
            }
            collected.roots.append(path)
            var found: [(path: String, canonical: String)] = []
            let problemsBefore = collected.problems.count
            let root = FileFlowResolver.canonical(path)
            walk(path, canonical: root, root: root, allowOutside: allowOutside, into: &found, problems: &collected.problems)
            var nearest: [String: LintConfiguration?] = [:]
            var excluded = 0
            var kept = 0
            for (file, canonicalPath) in found.sorted(by: { $0.path < $1.path }) {
                let applicable: LintConfiguration?
                if let configuration {
                    applicable = configuration
                } else if let configPath = lookup.find(from: file) {
                    if nearest[configPath] == nil { nearest[configPath] = try? LintConfiguration.load(path: configPath) }
                    applicable = nearest[configPath] ?? nil
                } else {
                    applicable = nil
                }
                guard applicable?.includes(file) ?? true else {
                    excluded += 1
                    continue
                }
                kept += 1
                if seen.insert(file).inserted {
                    collected.files.append(file)
                    collected.directoryOf[file] = path
                    collected.canonicalPaths[file] = canonicalPath
                }
            }
            if emptyIsProblem && kept == 0 && collected.problems.count == problemsBefore {
                collected.problems.append(FlowKitError.noFlowFiles(path, excluded: excluded).localizedDescription)
            }
            collected.excluded[path] = excluded
        }
        return collected
    }

    /// The directories given whose files were all skipped as not flow files: each is a directory with no flow
    /// files, an error, so that nothing passes having checked nothing.
    package static func emptyDirectories(_ collected: Collected, outcome: LintSession.Outcome) -> [String] {
        let checked = Set(outcome.files)
        var skipped: [String: Int] = [:]
        for file in outcome.skipped { if let directory = collected.directoryOf[file] { skipped[directory, default: 0] += 1 } }
        var withChecked = Set<String>()
        for (file, directory) in collected.directoryOf where checked.contains(file) { withChecked.insert(directory) }
        return skipped.keys.sorted().filter { !withChecked.contains($0) }.map { directory in
            FlowKitError.noFlowFiles(directory, excluded: collected.excluded[directory] ?? 0, skipped: skipped[directory] ?? 0).localizedDescription
        }
    }

    /// Collects flow files below `directory` (whose canonical path is `canonical`), each with its canonical path.
    /// Directory links are not followed; a file link is kept only when its target is a regular file inside `root`
    /// (or with `allowOutside`). A directory that cannot be listed, an entry that cannot be examined (a path too
    /// long for the system) or named in bytes that are not UTF-8 is a problem, never skipped in silence.
    private static func walk(_ directory: String, canonical: String, root: String, allowOutside: Bool,
                             into found: inout [(path: String, canonical: String)], problems: inout [String]) {
        let entries: [(name: String, type: mode_t?)]
        do {
            entries = try list(directory)
        } catch {
            problems.append(error.localizedDescription)
            return
        }
        for (name, listedType) in entries where !name.hasPrefix(".") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            // An entry that is no link is named canonically by its directory's canonical path and its own name.
            let canonicalPath = canonical.hasSuffix("/") ? canonical + name : canonical + "/" + name
            // The type the listing gave, else (a file system that does not say, or a path near the system's limit,
            // whose error `lstat` gives) the entry's own.
            let type: mode_t
            if let listedType, path.utf8.count < 1024 {
                type = listedType
            } else {
                var info = stat()
                guard lstat(path, &info) == 0 else {
                    problems.append(FlowKitError.unreadableDirectory(path, reason: OutputFile.reason(errno)).localizedDescription)
                    continue
                }
                type = info.st_mode & S_IFMT
            }
            if type == S_IFDIR {
                walk(path, canonical: canonicalPath, root: root, allowOutside: allowOutside, into: &found, problems: &problems)
                continue
            }
            guard let dot = name.lastIndex(of: "."), extensions.contains(name[name.index(after: dot)...].lowercased()) else { continue }
            if type == S_IFLNK {
                let target = FileFlowResolver.canonical(path)
                var targetInfo = stat()
                guard stat(target, &targetInfo) == 0, targetInfo.st_mode & S_IFMT == S_IFREG,
                      allowOutside || target == root || target.hasPrefix(root.hasSuffix("/") ? root : root + "/") else { continue }
                found.append((path, target))
                continue
            }
            found.append((path, canonicalPath))
        }
    }

    /// The names in `directory`, `.` and `..` left out; a name that is not UTF-8 cannot be checked and is an error.
    /// Each with its type (`S_IFREG`, `S_IFDIR`, …) when the listing gives it.
    private static func list(_ directory: String) throws -> [(name: String, type: mode_t?)] {
        guard let stream = opendir(directory) else {
            throw FlowKitError.unreadableDirectory(directory, reason: OutputFile.reason(errno))
        }
        defer { closedir(stream) }
        var names: [(name: String, type: mode_t?)] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw FlowKitError.unreadableDirectory(directory, reason: OutputFile.reason(errno)) }
                return names
            }
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            guard let name = String(validating: bytes, as: UTF8.self) else {
                let shown = String(decoding: bytes, as: UTF8.self)
                throw FlowKitError.unreadableDirectory(directory, reason: Message("the name '\(name: shown)' is not UTF-8, so it cannot be checked").text)
            }
            let type: mode_t?
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): type = S_IFREG
            case Int32(DT_DIR): type = S_IFDIR
            case Int32(DT_LNK): type = S_IFLNK
            case Int32(DT_UNKNOWN): type = nil
            default: type = S_IFIFO
            }
            names.append((name, type))
        }
    }
}
