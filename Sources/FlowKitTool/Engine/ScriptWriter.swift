import FlowKit

/// The one writer of simulation scripts (docs/format.md, "Simulation scripts"): a `Script` as YAML that reads back
/// as the same script. Names are plain where YAML reads them as themselves and quoted otherwise, a key too long to
/// be implicit is explicit, values are in flow style with numbers that read back as numbers. `generate scenarios`
/// (a new script, or `--extend`'s added items) and `simulate --interactive` write through it.
package enum ScriptWriter {
    /// The whole script: `header` as comment lines, `flowkit-script: 1`, its flow, then its scenarios, each after
    /// a blank line and its `notes` (comment lines, by scenario).
    package static func text(_ script: Script, header: [String] = [], notes: [[String]] = []) -> String {
        var lines = header.map(commentLine)
        lines += ["flowkit-script: 1"]
        if let flow = script.flow { lines.append("flow: \(string(flow))") }
        guard !script.scenarios.isEmpty else { return (lines + ["scenarios: []"]).joined(separator: "\n") + "\n" }
        lines.append("scenarios:")
        return lines.joined(separator: "\n") + "\n" + items(script.scenarios, notes: notes)
    }

    /// The scenarios alone, as items of a `scenarios:` list at two spaces (to add to an existing script), each
    /// after a blank line and its `notes`.
    package static func items(_ scenarios: [Scenario], notes: [[String]] = []) -> String {
        var lines: [String] = []
        for (index, scenario) in scenarios.enumerated() {
            lines.append("")
            for note in index < notes.count ? notes[index] : [] { lines.append("  " + commentLine(note)) }
            lines.append("  - name: \(string(scenario.name))")
            switch scenario.start {
            case .state(let state):
                if !state.isEmpty { lines.append("    start: { state: \(object(state)) }") }
            case .entry(let name, let params, let state):
                let pairs = params.keys.sorted().map { pair($0, string(params[$0]!)) }
                lines.append("    start: { entry: \(Self.name(name.text)), params: { \(pairs.joined(separator: ", ")) }"
                             + (state.isEmpty ? "" : ", state: \(object(state))") + " }")
            case .url(let url, let state):
                lines.append("    start: { url: \(string(url.text))" + (state.isEmpty ? "" : ", state: \(object(state))") + " }")
            }
            lines.append(scenario.steps.isEmpty ? "    steps: []" : "    steps:")
            for step in scenario.steps {
                var parts: [String] = []
                if let event = step.event { parts.append("event: \(name(event.text))") }
                if let result = step.result { parts.append("result: \(object(result))") }
                if step.back { parts.append("back: true") }
                lines.append("      - " + item(step.step.text, "{" + (parts.isEmpty ? "" : " " + parts.joined(separator: ", ") + " ") + "}"))
            }
            guard let expect = scenario.expect else { continue }
            lines.append("    expect:")
            if let outcome = expect.outcome { lines.append("      outcome: \(name(outcome.text))") }
            if let path = expect.path { lines.append("      path: [\(path.map { name($0.text) }.joined(separator: ", "))]") }
            if !expect.state.isEmpty {
                lines.append("      state: { " + expect.state.map { pair($0.key.text, value($0.value)) }.joined(separator: ", ") + " }")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` as a comment line: `# text`, escaped so that it stays one line; `#` alone for no text.
    package static func commentLine(_ text: String) -> String {
        text.isEmpty ? "#" : "# " + Identifier.display(text, limit: .max, quoting: false)
    }

    /// A name (of a step, event, outcome, entry or key) as YAML: plain when it is made of letters, digits, `_`,
    /// `-`, `.` and `/`, starts with a letter or `_` and is not a word YAML reads as something else; quoted otherwise,
    /// so that no name from a flow file can change the script's structure.
    package static func name(_ text: String) -> String {
        let special: Set<String> = ["true", "false", "null", "yes", "no", "on", "off", "y", "n"]
        guard let first = text.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic),
              text.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-./".unicodeScalars.contains($0)) }),
              !special.contains(text.lowercased()) else {
            return string(text)
        }
        return text
    }

    /// The longest key written as YAML's implicit key (`key: value`); a longer one is written as an explicit key
    /// (`? key : value`), since YAML reads no implicit key longer than 1,024 characters.
    static let longestImplicitKey = 1_000

    /// `key: value` in a flow mapping, the key a name; `? key : value` when the key is too long to be implicit.
    static func pair(_ key: String, _ value: String) -> String {
        let written = name(key)
        return written.unicodeScalars.count > longestImplicitKey ? "? \(written) : \(value)" : "\(written): \(value)"
    }

    /// A one-pair mapping as a block sequence item's text: `key: value`, or a flow mapping with an explicit key
    /// when the key is too long to be implicit.
    static func item(_ key: String, _ value: String) -> String {
        let written = name(key)
        return written.unicodeScalars.count > longestImplicitKey ? "{ ? \(written) : \(value) }" : "\(written): \(value)"
    }

    /// A YAML double-quoted string (JSON's escapes are YAML's).
    static func string(_ text: String) -> String {
        JSONText.string(text)
    }

    /// A value in YAML flow style: numbers keep a fraction so that they read back as numbers.
    static func value(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .number(let number):
            let text = String(number)
            return text.contains(".") || text.contains("e") ? text : text + ".0"
        case .string(let text): return string(text)
        case .object(let fields): return object(fields)
        }
    }

    /// An object in YAML flow style, keys sorted.
    static func object(_ fields: [String: Value]) -> String {
        "{ " + fields.keys.sorted().map { pair($0, value(fields[$0]!)) }.joined(separator: ", ") + " }"
    }
}
