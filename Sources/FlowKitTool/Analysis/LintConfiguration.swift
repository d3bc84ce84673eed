import Foundation
import FlowKit

/// A lint configuration (`.flowkit.yml`): rules turned off, per-rule severities, and which files to check.
///
/// ```yaml
/// disabled: [shadowed_handler]
/// severity: { unused_event: error, maybe_unset: note }
/// include: ["flows/**"]
/// exclude: ["flows/broken/**"]
/// ```
package struct LintConfiguration: Sendable {
    /// The file name searched for, upward from the linted path.
    package static let fileName = ".flowkit.yml"

    /// Rules that do not run.
    package var disabled: Set<RuleID> = []
    /// Severities that replace the rules' own.
    package var severities: [RuleID: Severity] = [:]
    /// Files to check (globs relative to `directory`); empty means every file.
    package var include: [Glob] = []
    /// Files not to check, even when included.
    package var exclude: [Glob] = []
    /// `diff: { levels: { CHECK: LEVEL } }`: the level `flowkit diff` gives each change of a check, in place of
    /// the check's own.
    package var diffLevels: [ChangeCheck: ChangeLevel] = [:]
    /// `coverage: { minimum: { KIND: PERCENT } }`: the least coverage `flowkit report` holds a flow file to.
    package var coverageMinimum: CoverageThreshold?
    /// The folder the globs are relative to.
    package var directory: String
    /// The configuration file, when there is one.
    package var file: String?

    /// The configuration used when no file is found: every rule at its own severity, every file.
    package init(directory: String = FileManager.default.currentDirectoryPath) {
        self.directory = directory
    }

    /// The nearest `.flowkit.yml` in the folder of `path` or above it.
    package static func find(from path: String) -> String? {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        var isDirectory: ObjCBool = false
        if !(FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue) {
            url.deleteLastPathComponent()
        }
        while true {
            let candidate = url.appendingPathComponent(fileName).path
            if FileManager.default.fileExists(atPath: candidate) {
                return DisplayPath.relative(FileFlowResolver.canonical(candidate), to: FileFlowResolver.canonical(FileManager.default.currentDirectoryPath))
            }
            if url.path == "/" || url.path.isEmpty { return nil }
            url.deleteLastPathComponent()
        }
    }

    /// Reads and checks the configuration file at `path`.
    package static func load(path: String) throws -> LintConfiguration {
        let bytes = try FlowLoader.read(path: path, limit: 1 << 20)
        let parsed = YAMLReader.parse(bytes, file: path)
        func fail(_ message: CommandMessage, _ position: SourcePosition) -> ConfigurationError {
            ConfigurationError(message: "\(path: path):\(position.line):\(position.column): \(message)")
        }
        if let problem = parsed.diagnostics.first, parsed.root != nil || problem.message != "the file is empty" {
            throw fail(CommandMessage(problem.message), problem.position)
        }
        var configuration = LintConfiguration(directory: URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path)
        configuration.file = path
        guard let root = parsed.root else { return configuration }
        if let scalar = root.scalar, scalar.kind == .null { return configuration }
        guard let entries = root.entries else { throw fail("the configuration must be a mapping", root.position) }
        let known = Linter.rules.map { $0.description.identifier.rawValue }
        func rule(_ node: Node) throws -> RuleID {
            guard let name = node.scalar?.text else { throw fail("a rule name must be a string, found \(verbatim: node.kindDescription)", node.position) }
            guard known.contains(name) else {
                throw fail("unknown rule '\(name: name)'\(verbatim: Suggestions.didYouMean(name, in: known))", node.position)
            }
            return RuleID(rawValue: name)
        }
        func globs(_ node: Node, key: String) throws -> [Glob] {
            guard let items = node.items else { throw fail("'\(name: key)' takes a list of path patterns, found \(verbatim: node.kindDescription)", node.position) }
            return try items.map { item in
                guard let text = item.scalar?.text, item.scalar?.kind != .null, !text.isEmpty else {
                    throw fail("an '\(name: key)' pattern must be a non-empty string, found \(verbatim: item.kindDescription)", item.position)
                }
                return Glob(text)
            }
        }
        // A key that holds a mapping of one setting, itself a mapping (`diff: { levels: { … } }`): each of its pairs.
        func setting(_ entry: Node.Entry, _ name: String, maps what: String) throws -> [Node.Entry] {
            guard let settings = entry.value.entries else {
                throw fail("'\(name: entry.key)' takes a mapping with '\(name: name)', found \(verbatim: entry.value.kindDescription)", entry.value.position)
            }
            var pairs: [Node.Entry] = []
            for setting in settings {
                guard setting.key == name else {
                    throw fail("unknown key '\(name: setting.key)' in '\(name: entry.key)'\(verbatim: Suggestions.didYouMean(setting.key, in: [name]))", setting.keyPosition)
                }
                guard let entries = setting.value.entries else {
                    throw fail("'\(name: name)' maps \(verbatim: what), found \(verbatim: setting.value.kindDescription)", setting.value.position)
                }
                pairs += entries
            }
            return pairs
        }
        for entry in entries {
            switch entry.key {
            case "disabled":
                guard let items = entry.value.items else { throw fail("'disabled' takes a list of rules, found \(verbatim: entry.value.kindDescription)", entry.value.position) }
                configuration.disabled = Set(try items.map(rule))
            case "severity":
                guard let pairs = entry.value.entries else {
                    throw fail("'severity' maps rules to error, warning or note, found \(verbatim: entry.value.kindDescription)", entry.value.position)
                }
                for pair in pairs {
                    _ = try rule(Node(.scalar(Scalar(kind: .string, text: pair.key, quoted: false)), at: pair.keyPosition))
                    guard let text = pair.value.scalar?.text, pair.value.scalar?.kind != .null else {
                        throw fail("the severity of '\(name: pair.key)' must be error, warning or note, found \(verbatim: pair.value.kindDescription)", pair.value.position)
                    }
                    guard let severity = Severity(rawValue: text) else {
                        let severities = Severity.allCases.map(\.rawValue)
                        throw fail("severity '\(name: text)' must be error, warning or note\(verbatim: Suggestions.didYouMean(text, in: severities))", pair.value.position)
                    }
                    configuration.severities[RuleID(rawValue: pair.key)] = severity
                }
            case "include": configuration.include = try globs(entry.value, key: "include")
            case "exclude": configuration.exclude = try globs(entry.value, key: "exclude")
            case "diff":
                let checks = ChangeCheck.allCases.map(\.rawValue)
                let levels = ChangeLevel.allCases.map(\.rawValue)
                for pair in try setting(entry, "levels", maps: "checks to breaking, warning or info") {
                    guard let check = ChangeCheck(rawValue: pair.key) else {
                        throw fail("unknown check '\(name: pair.key)'\(verbatim: Suggestions.didYouMean(pair.key, in: checks))", pair.keyPosition)
                    }
                    guard let text = pair.value.scalar?.text, pair.value.scalar?.kind != .null else {
                        throw fail("the level of '\(name: pair.key)' must be breaking, warning or info, found \(verbatim: pair.value.kindDescription)", pair.value.position)
                    }
                    guard let level = ChangeLevel(rawValue: text) else {
                        throw fail("level '\(name: text)' must be breaking, warning or info\(verbatim: Suggestions.didYouMean(text, in: levels))", pair.value.position)
                    }
                    configuration.diffLevels[check] = level
                }
            case "coverage":
                var minimums: [CoverageItem.Kind: Double] = [:]
                let kinds = CoverageItem.Kind.allCases.map(\.plural)
                for pair in try setting(entry, "minimum", maps: "kinds of coverage item to percentages") {
                    guard let kind = CoverageItem.Kind.allCases.first(where: { $0.plural == pair.key }) else {
                        throw fail("'\(name: pair.key)' is not a kind of coverage item\(verbatim: Suggestions.didYouMean(pair.key, in: kinds)); the kinds are steps, transitions, events, outcomes and entries", pair.keyPosition)
                    }
                    guard let scalar = pair.value.scalar, scalar.kind != .null, let value = Double(scalar.text), value >= 0, value <= 100 else {
                        let found: CommandMessage = pair.value.scalar.map { "'\(name: $0.text)'" } ?? "\(verbatim: pair.value.kindDescription)"
                        throw fail("the minimum of '\(name: pair.key)' must be a percentage from 0 to 100, found \(found)", pair.value.position)
                    }
                    minimums[kind] = value
                }
                configuration.coverageMinimum = CoverageThreshold(minimums: minimums)
            default:
                throw fail("unknown key '\(name: entry.key)'\(verbatim: Suggestions.didYouMean(entry.key, in: ["disabled", "severity", "include", "exclude", "diff", "coverage"]))", entry.keyPosition)
            }
        }
        return configuration
    }

    /// The problems of the configurations `files` use (each file's nearest `.flowkit.yml`, each read once), as
    /// messages starting with `file:line:column:`, so that a lint can stop before it prints any finding.
    package static func problems(for files: [String]) -> [String] {
        problems(for: files, lookup: ConfigurationLookup())
    }

    /// `problems(for:)`, with the nearest configurations looked up through `lookup`.
    static func problems(for files: [String], lookup: ConfigurationLookup) -> [String] {
        var paths: [String] = []
        var seen = Set<String>()
        for file in files {
            if let path = lookup.find(from: file), seen.insert(path).inserted { paths.append(path) }
        }
        return paths.compactMap { path in
            do {
                _ = try load(path: path)
                return nil
            } catch {
                return (error as? LocalizedError)?.errorDescription ?? "\(path): \(error)"
            }
        }
    }

    /// Whether `file` is to be checked: included (or no include list) and not excluded.
    package func includes(_ file: String) -> Bool {
        let absolute = URL(fileURLWithPath: file).standardizedFileURL.path
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        let relative = absolute.hasPrefix(base) ? String(absolute.dropFirst(base.count)) : absolute
        if !include.isEmpty && !include.contains(where: { $0.matches(relative) }) { return false }
        return !exclude.contains { $0.matches(relative) }
    }

    /// The findings without disabled rules, with configured severities.
    package func apply(_ findings: [Diagnostic]) -> [Diagnostic] {
        guard !disabled.isEmpty || !severities.isEmpty else { return findings }
        return findings.compactMap { finding in
            if disabled.contains(finding.rule) { return nil }
            var result = finding
            if let severity = severities[finding.rule] { result.severity = severity }
            return result
        }
    }
}

/// `LintConfiguration.find(from:)` answered once per directory, for one run over many files: the files of a
/// directory share their nearest `.flowkit.yml`, and looking it up walks the folders above with a `stat` each.
final class ConfigurationLookup: @unchecked Sendable {
    private var byDirectory: [String: String?] = [:]
    private let lock = NSLock()

    /// The nearest `.flowkit.yml` to the file at `path` (a file, not a directory).
    func find(from path: String) -> String? {
        let directory = FilePath.directory(of: path)
        lock.lock()
        if let known = byDirectory[directory] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let found = LintConfiguration.find(from: path)
        lock.lock()
        byDirectory[directory] = found
        lock.unlock()
        return found
    }
}

/// A configuration file that cannot be used; the message starts with `file:line:column:`.
package struct ConfigurationError: LocalizedError, Sendable {
    /// What is wrong and where.
    package let message: CommandMessage

    package var errorDescription: String? { message.description }
}
