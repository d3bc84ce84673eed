import Foundation
import FlowKit

/// One thing a flow's runs can cover (docs/format.md, "Coverage"): a step shown, an option of a target list taken,
/// a derived event raised, an outcome reached, an entry used. It stays at the position of its text in the file.
package struct CoverageItem: Codable, Hashable, Sendable {
    /// What kind of item it is.
    package enum Kind: String, Codable, CaseIterable, Sendable {
        case step, transition, event, outcome, entry

        /// The plural the tables and `--min-coverage` use: `steps`, `transitions`, ….
        package var plural: String { self == .entry ? "entries" : rawValue + "s" }

        /// What the runs did not do with an item of this kind: `never shown`, `never taken`, ….
        package var missedPhrase: String {
            switch self {
            case .step: return "never shown"
            case .transition: return "never taken"
            case .event: return "never raised"
            case .outcome: return "never reached"
            case .entry: return "never used"
            }
        }
    }

    /// What it is.
    package var identity: CoverageIdentity
    /// For people: `step 'amount'`, `tariffs --on editAmount--> amount`, `event 'invalidAmount'`.
    package var description: String
    /// The line of its text.
    package var line: Int
    /// The column of its text.
    package var column: Int
    /// How many times the runs covered it.
    package var hits: Int
    /// False for an option lint proves can never be taken (`unreachable_option`): listed, not counted.
    package var coverable: Bool

    /// What kind of item it is.
    package var kind: Kind { identity.kind }
    /// Its identity as coverage files write it (`CoverageIdentity.key`).
    package var key: String { identity.key }
    /// For a `"*"` option used at a step: that option of the `"*"` step, for the folded view.
    package var shared: CoverageIdentity.StarOption? { identity.starOption }

    /// Creates an item.
    package init(_ identity: CoverageIdentity, description: String, line: Int, column: Int, hits: Int = 0, coverable: Bool = true) {
        self.identity = identity
        self.description = description
        self.line = line
        self.column = column
        self.hits = hits
        self.coverable = coverable
    }

    private enum CodingKeys: String, CodingKey {
        case kind, key, description, line, column, hits, coverable, shared
    }

    /// Reads an item of a coverage file: its key must name an item of its kind (and its `shared`, if any, the
    /// `"*"` option the key names).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let key = try container.decode(String.self, forKey: .key)
        guard let identity = CoverageIdentity(key: key), try container.decode(Kind.self, forKey: .kind) == identity.kind,
              try container.decodeIfPresent(String.self, forKey: .shared) == identity.starOption?.key else {
            throw DecodingError.dataCorruptedError(forKey: .key, in: container, debugDescription: "not the key of a coverage item of its kind")
        }
        self.init(identity, description: try container.decode(String.self, forKey: .description), line: try container.decode(Int.self, forKey: .line),
                  column: try container.decode(Int.self, forKey: .column), hits: try container.decode(Int.self, forKey: .hits),
                  coverable: try container.decode(Bool.self, forKey: .coverable))
    }

    /// Writes the item as coverage files have it: `kind`, `key` and, for a `"*"` option at a step, `shared`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(key, forKey: .key)
        try container.encode(description, forKey: .description)
        try container.encode(line, forKey: .line)
        try container.encode(column, forKey: .column)
        try container.encode(hits, forKey: .hits)
        try container.encode(coverable, forKey: .coverable)
        try container.encodeIfPresent(shared?.key, forKey: .shared)
    }
}

/// What a coverage item is, as a value (docs/format.md, "Coverage"). Coverage files write it as its `key`
/// (`step amount`, `transition amount on invalidAmount 0`, `transition alert * next 0`, `event invalidAmount`,
/// `outcome finish`, `entry editTariff`), which `init(key:)` reads back.
package enum CoverageIdentity: Hashable, Sendable {
    /// A step shown.
    case step(String)
    /// The option at `index` of a target list of `step`: its own (`viaStar` false), or the `"*"` step's, used at
    /// `step` because `step` does not handle the event itself.
    case transition(step: String, list: OptionList, index: Int, viaStar: Bool)
    /// A derived event raised.
    case event(String)
    /// An outcome reached.
    case outcome(String)
    /// An entry used.
    case entry(String)

    /// A target list of a step: its `next`, or its handler of an event.
    package enum OptionList: Hashable, Sendable {
        case next
        case on(String)

        /// `next`, `on EVENT`.
        package var text: String {
            switch self {
            case .next: return "next"
            case .on(let event): return "on " + event
            }
        }
    }

    /// An option of the `"*"` step, whichever step uses it.
    package struct StarOption: Hashable, Sendable {
        /// Its target list.
        package var list: OptionList
        /// Its place in the list.
        package var index: Int

        /// `* on error 0`, as coverage files write it.
        package var key: String { "* \(list.text) \(index)" }
    }

    /// What kind of item it is.
    package var kind: CoverageItem.Kind {
        switch self {
        case .step: return .step
        case .transition: return .transition
        case .event: return .event
        case .outcome: return .outcome
        case .entry: return .entry
        }
    }

    /// The `"*"` option a transition taken through the `"*"` step is.
    package var starOption: StarOption? {
        guard case .transition(_, let list, let index, true) = self else { return nil }
        return StarOption(list: list, index: index)
    }

    /// The step a step or transition belongs to.
    package var step: String? {
        switch self {
        case .step(let name), .transition(let name, _, _, _): return name
        case .event, .outcome, .entry: return nil
        }
    }

    /// How coverage files write it.
    package var key: String {
        switch self {
        case .step(let name): return "step " + name
        case .transition(let step, let list, let index, let viaStar): return "transition \(step) " + (viaStar ? "* " : "") + "\(list.text) \(index)"
        case .event(let name): return "event " + name
        case .outcome(let name): return "outcome " + name
        case .entry(let name): return "entry " + name
        }
    }

    /// The identity a coverage file's `key` writes, or nil for text no item has.
    package init?(key: String) {
        let words = key.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard words.count >= 2, !words[1].isEmpty else { return nil }
        switch (words[0], words.count) {
        case ("step", 2): self = .step(words[1])
        case ("event", 2): self = .event(words[1])
        case ("outcome", 2): self = .outcome(words[1])
        case ("entry", 2): self = .entry(words[1])
        case ("transition", _):
            var rest = Array(words.dropFirst(2))
            let viaStar = rest.first == "*"
            if viaStar { rest.removeFirst() }
            guard let last = rest.last, let index = Int(last), index >= 0, String(index) == last else { return nil }
            rest.removeLast()
            switch rest.count {
            case 1 where rest[0] == "next": self = .transition(step: words[1], list: .next, index: index, viaStar: viaStar)
            case 2 where rest[0] == "on" && !rest[1].isEmpty: self = .transition(step: words[1], list: .on(rest[1]), index: index, viaStar: viaStar)
            default: return nil
            }
        default: return nil
        }
    }
}

/// The coverage of one flow file: its items in file order.
package struct FileCoverage: Codable, Equatable, Sendable {
    /// The flow file, relative to the working directory.
    package var file: String
    /// Its items, in the order of their text.
    package var items: [CoverageItem]

    /// Creates a file's coverage.
    package init(file: String, items: [CoverageItem]) {
        self.file = file
        self.items = items
    }

    /// Covered and total coverable items of `kind`. A `"*"` option counts once among the transitions, covered when
    /// it was taken at any step that uses it (`starSteps` counts it once per step).
    package func count(_ kind: CoverageItem.Kind) -> (covered: Int, total: Int) {
        var covered = 0
        var total = 0
        var shared: [CoverageIdentity.StarOption: Bool] = [:]
        for item in items where item.kind == kind && item.coverable {
            if let key = item.shared {
                shared[key] = (shared[key] ?? false) || item.hits > 0
            } else {
                total += 1
                if item.hits > 0 { covered += 1 }
            }
        }
        return (covered + shared.values.filter { $0 }.count, total + shared.count)
    }

    /// Covered and total `"*"` options counted once per step that uses them (`star-steps` in the reports), or nil
    /// when the file has none.
    package var starSteps: (covered: Int, total: Int)? {
        let uses = items.filter { $0.shared != nil && $0.coverable }
        return uses.isEmpty ? nil : (uses.filter { $0.hits > 0 }.count, uses.count)
    }

    /// The percentage of coverable items of `kind` covered; 100 when there are none.
    package func percent(_ kind: CoverageItem.Kind) -> Double {
        let (covered, total) = count(kind)
        return total == 0 ? 100 : Double(covered) * 100 / Double(total)
    }

    /// The coverable items no run covered, in file order.
    package var missed: [CoverageItem] { items.filter { $0.coverable && $0.hits == 0 } }

    /// Each `"*"` option with the number of steps that use it and of those at which it was taken.
    package var folded: [(shared: CoverageIdentity.StarOption, description: String, taken: Int, steps: Int)] {
        var order: [CoverageIdentity.StarOption] = []
        var counts: [CoverageIdentity.StarOption: (description: String, taken: Int, steps: Int)] = [:]
        for item in items {
            guard let shared = item.shared else { continue }
            if counts[shared] == nil {
                order.append(shared)
                let description = item.description.range(of: " at ", options: .backwards).map { String(item.description[..<$0.lowerBound]) } ?? item.description
                counts[shared] = (description, 0, 0)
            }
            counts[shared]!.steps += 1
            if item.hits > 0 { counts[shared]!.taken += 1 }
        }
        return order.map { ($0, counts[$0]!.description, counts[$0]!.taken, counts[$0]!.steps) }
    }
}

/// The coverage of every flow file some runs ran: what `--coverage-report json:PATH` writes and `flowkit coverage
/// merge` adds up.
package struct Coverage: Codable, Equatable, Sendable {
    /// The flow files, in the order they were first run.
    package var files: [FileCoverage]

    /// Creates coverage of `files`.
    package init(files: [FileCoverage]) {
        self.files = files
    }

    private enum CodingKeys: String, CodingKey {
        case version = "flowkit-coverage"
        case files
    }

    /// Decodes the JSON form; a `flowkit-coverage` other than 1 is refused.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard try container.decode(Int.self, forKey: .version) == 1 else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: container, debugDescription: "only version 1 is known")
        }
        files = try container.decode([FileCoverage].self, forKey: .files)
    }

    /// Encodes the JSON form with `"flowkit-coverage": 1`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(1, forKey: .version)
        try container.encode(files, forKey: .files)
    }

    /// The JSON form, keys sorted, ending in a newline.
    package func json() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [UInt8(ascii: "\n")]
    }

    /// Why coverage files could not be read or merged.
    package struct MergeError: Error, Sendable, CustomStringConvertible {
        /// A lowercase message naming the file.
        package let message: CommandMessage
        package var description: String { message.description }
    }

    /// Reads the coverage JSON at `path`.
    package static func read(path: String) throws(MergeError) -> Coverage {
        let bytes: [UInt8]
        do {
            bytes = try FlowLoader.read(path: path, limit: 256 << 20)
        } catch {
            throw MergeError(message: CommandMessage(describing: error))
        }
        guard let coverage = try? JSONDecoder().decode(Coverage.self, from: Data(bytes)) else {
            throw MergeError(message: "'\(name: path, limit: .max)' is not coverage written by 'flowkit simulate \(CommandOption.coverageReport) json:PATH'")
        }
        // Counts and positions a run cannot write are refused, so that no sum or report traps on them.
        for file in coverage.files {
            for item in file.items where item.hits < 0 || item.line < 1 || item.column < 1 || item.line > Int(Int32.max) || item.column > Int(Int32.max) {
                throw MergeError(message: "'\(path: path)': the item '\(name: item.key)' of '\(path: file.file)' "
                                 + "has a count or position no run writes (hits \(item.hits), line \(item.line), column \(item.column))")
            }
        }
        return coverage
    }

    /// The coverage of all `parts`: the hits of the same item (file and key) added. A file whose items differ
    /// between parts (the flow changed between runs) is an error.
    package static func merged(_ parts: [Coverage]) throws(MergeError) -> Coverage {
        var order: [String] = []
        var files: [String: FileCoverage] = [:]
        for part in parts {
            for file in part.files {
                guard var existing = files[file.file] else {
                    order.append(file.file)
                    files[file.file] = file
                    continue
                }
                guard existing.items.map(\.identity) == file.items.map(\.identity) else {
                    throw MergeError(message: "the coverage of '\(name: file.file, limit: .max)' has other items in one of the files: the flow changed between the runs; run them again on one version")
                }
                for index in existing.items.indices {
                    // Hits saturate: a sum past the largest count stays there rather than trap.
                    let (sum, overflow) = existing.items[index].hits.addingReportingOverflow(file.items[index].hits)
                    existing.items[index].hits = overflow ? Int.max : max(sum, 0)
                }
                files[file.file] = existing
            }
        }
        return Coverage(files: order.map { files[$0]! })
    }
}
