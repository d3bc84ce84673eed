import FlowKit

/// `--format sarif`: a SARIF 2.1.0 log for GitHub code scanning and other SARIF viewers.
///
/// The log has one run whose `tool.driver` describes flowkit and its rules (by default every rule of `Linter.rules`, in
/// that order; a result's `ruleIndex` is its rule's index there, left out for a rule not in the list), and whose `results` array holds one result per finding, in the
/// report's order; it is present, and empty, when there are no findings. Columns count Unicode scalars, which the
/// run says with `columnKind: "unicodeCodePoints"`.
///
/// Each result carries `partialFingerprints["flowkitFindingHash/v2"]`: the FNV-1a 64-bit hash of the rule, file,
/// step and subject (the message for a finding without a subject; never the position, so a finding keeps its
/// identity when lines are added above it, nor a message that may describe a path), as 16 lowercase hex digits, then `:` and the occurrence of that hash in the log (1 for the first), the form GitHub uses
/// for its own `primaryLocationLineHash`, so that identical findings in one file stay distinct.
///
/// A result's `artifactLocation.uri` is the file's path as flowkit was given it, made a URI reference (see
/// `uri(forPath:)`): run flowkit from the repository's root with relative paths for GitHub to place the findings.
///
/// The output is deterministic: keys in a fixed order, pretty-printed with two-space indentation, ending in a newline.
package struct SARIFReporter: Reporter {
    /// "sarif", as `--format` takes it.
    package static let identifier = "sarif"

    /// The `$schema` the log names.
    package static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    /// The tool's home page, `tool.driver.informationUri`.
    package static let informationURI = "https://github.com/flowkit/flowkit"
    /// The key of flowkit's fingerprint in each result's `partialFingerprints`.
    package static let fingerprintKey = "flowkitFindingHash/v2"

    /// The rules described in `tool.driver.rules`, in order.
    package var rules: [RuleDescription]

    /// Creates a SARIF reporter that describes `rules` (every rule flowkit has unless told otherwise); the version of
    /// flowkit it names (`tool.driver.version`) is the report's.
    package init(rules: [RuleDescription] = Linter.rules.map { $0.description }) {
        self.rules = rules
    }

    /// The SARIF log of `report`, ending in a newline. Positions below 1 are written as 1, the least SARIF allows.
    package func render(_ report: LintReport) -> String {
        var ruleIndex: [RuleID: Int] = [:]
        for (index, rule) in rules.enumerated() where ruleIndex[rule.identifier] == nil { ruleIndex[rule.identifier] = index }

        var occurrences: [String: Int] = [:]
        let results = report.diagnostics.map { diagnostic -> SARIFNode in
            let hash = Self.fingerprint(diagnostic)
            occurrences[hash, default: 0] += 1
            var fields: [(String, SARIFNode)] = [("ruleId", .string(diagnostic.rule.rawValue))]
            if let index = ruleIndex[diagnostic.rule] { fields.append(("ruleIndex", .integer(index))) }
            fields += [
                ("level", .string(Self.level(diagnostic.severity))),
                ("message", .object([("text", .string(diagnostic.message))])),
                ("locations", .array([
                    .object([("physicalLocation", .object([
                        ("artifactLocation", .object([("uri", .string(Self.uri(forPath: diagnostic.file)))])),
                        ("region", .object([
                            ("startLine", .integer(max(diagnostic.line, 1))),
                            ("startColumn", .integer(max(diagnostic.column, 1))),
                        ])),
                    ]))]),
                ])),
                ("partialFingerprints", .object([(Self.fingerprintKey, .string("\(hash):\(occurrences[hash]!)"))])),
            ]
            if let edit = report.fixEdits[diagnostic], let fix = diagnostic.fix {
                fields.append(("fixes", .array([.object([
                    ("description", .object([("text", .string(fix.title))])),
                    ("artifactChanges", .array([.object([
                        ("artifactLocation", .object([("uri", .string(Self.uri(forPath: diagnostic.file)))])),
                        ("replacements", .array([.object([
                            ("deletedRegion", .object([
                                ("startLine", .integer(edit.start.line)), ("startColumn", .integer(edit.start.column)),
                                ("endLine", .integer(edit.end.line)), ("endColumn", .integer(edit.end.column)),
                            ])),
                            ("insertedContent", .object([("text", .string(edit.newText))])),
                        ])])),
                    ])])),
                ])])))
            }
            switch report.witnesses?[diagnostic] {
            case .found(let witness)?:
                fields.append(("properties", .object([("witness", .json(Witnesses.json(witness)))] + (Witnesses.fixtureNote(witness).map { [("witnessNote", .string($0))] } ?? []))))
            case .none(let why)?: fields.append(("properties", .object([("witness", .json("null")), ("witnessNote", .string(why.description))])))
            case nil: break
            }
            return .object(fields)
        }

        let driver = SARIFNode.object([
            ("name", .string("flowkit")),
            ("informationUri", .string(Self.informationURI)),
            ("version", .string(report.toolVersion)),
            ("rules", .array(rules.map(Self.descriptor))),
        ])
        let log = SARIFNode.object([
            ("$schema", .string(Self.schemaURI)),
            ("version", .string("2.1.0")),
            ("runs", .array([
                .object([
                    ("tool", .object([("driver", driver)])),
                    ("columnKind", .string("unicodeCodePoints")),
                    ("results", .array(results)),
                ]),
            ])),
        ])
        var output = ""
        log.write(to: &output, indent: "")
        return output + "\n"
    }

    /// The `reportingDescriptor` of a rule.
    static func descriptor(_ rule: RuleDescription) -> SARIFNode {
        .object([
            ("id", .string(rule.identifier.rawValue)),
            ("name", .string(upperCamelCase(rule.name))),
            ("shortDescription", .object([("text", .string(rule.summary))])),
            ("fullDescription", .object([("text", .string(rule.rationale))])),
            ("help", .object([("text", .string(rule.rationale + "\n\nRun 'flowkit explain \(rule.identifier)' for examples."))])),
            ("defaultConfiguration", .object([("level", .string(level(rule.severity)))])),
        ])
    }

    /// SARIF's `level` for a severity: `error`, `warning` or `note`.
    package static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "note"
        }
    }

    /// `"Finish step with transitions"` as `"FinishStepWithTransitions"`: words split at anything not a letter or
    /// digit, each word's first letter uppercased and the rest kept.
    package static func upperCamelCase(_ name: String) -> String {
        name.split { !($0.isLetter || $0.isNumber) }.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// A file path as given to flowkit, as a relative (or, for an absolute path, absolute-path) URI reference: a
    /// leading `./` is dropped and every byte other than an unreserved character, a sub-delimiter, `@` or `/` is
    /// percent-encoded (a space becomes `%20`, `:` becomes `%3A` so no segment reads as a scheme, and non-ASCII
    /// text is encoded as its UTF-8 bytes).
    package static func uri(forPath path: String) -> String {
        var path = Substring(path)
        while path.hasPrefix("./") { path = path.dropFirst(2) }
        var output = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"), UInt8(ascii: "@"),
                 UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
                 UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                output += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return output
    }

    /// The FNV-1a 64-bit hash of a finding's rule, file, step and subject, or message when it has no subject (each
    /// as UTF-8, separated by a NUL byte), as 16 lowercase hex digits. The position is left out on purpose, and so
    /// is the message of a finding with a subject (it may name a path that an unrelated step changes).
    package static func fingerprint(_ diagnostic: Diagnostic) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let key = [diagnostic.rule.rawValue, diagnostic.file, diagnostic.step ?? "", diagnostic.subject ?? diagnostic.message].joined(separator: "\u{0}")
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// A JSON value whose object keys keep the order they were given in, written the way SARIF tools and people expect:
/// two-space indentation, `"key": value`, empty arrays and objects as `[]` and `{}`.
enum SARIFNode {
    case string(String)
    case integer(Int)
    case array([SARIFNode])
    case object([(String, SARIFNode)])
    /// JSON text written as it is (a witness, compact).
    case json(String)

    /// Appends the value to `output`; `indent` is the indentation of the line the value starts on.
    func write(to output: inout String, indent: String) {
        switch self {
        case .string(let text):
            output += JSONText.string(text)
        case .integer(let value):
            output += String(value)
        case .json(let text):
            output += text
        case .array(let items):
            guard !items.isEmpty else { output += "[]"; return }
            let inner = indent + "  "
            output += "["
            for (index, item) in items.enumerated() {
                output += (index == 0 ? "\n" : ",\n") + inner
                item.write(to: &output, indent: inner)
            }
            output += "\n" + indent + "]"
        case .object(let fields):
            guard !fields.isEmpty else { output += "{}"; return }
            let inner = indent + "  "
            output += "{"
            for (index, (key, value)) in fields.enumerated() {
                output += (index == 0 ? "\n" : ",\n") + inner + JSONText.string(key) + ": "
                value.write(to: &output, indent: inner)
            }
            output += "\n" + indent + "}"
        }
    }
}
