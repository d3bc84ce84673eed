/// A safe fix of a finding (docs/format.md, "Fixes"): one name written at `position` replaced by another, the only
/// suggestion for it. It names what it expects to find there, so that whoever applies it checks the file first and
/// leaves it alone when it does not read so (a changed file, an escape, a name split over lines).
package struct Fix: Hashable, Sendable {
    /// Where the name starts: its first character, or the quote before it.
    package var position: SourcePosition
    /// The name as the file must read there (after an opening quote, when there is one).
    package var old: String
    /// What it becomes.
    package var new: String

    /// A fix replacing `old` at `position` by `new`; nil when `new` is not text every format can hold unquoted and
    /// unescaped in place of `old` (an identifier, or a relative file path of plain characters).
    package init?(at position: SourcePosition, replacing old: String, with new: String) {
        guard !old.isEmpty, old != new, Self.isPlain(new), Self.isPlain(old) else { return nil }
        self.position = position
        self.old = old
        self.new = new
    }

    /// The `"*"` step written unquoted (`*:`, a YAML alias to YAML): the `*` at `position` quoted.
    package static func quotingStar(at position: SourcePosition) -> Fix {
        Fix(position: position, old: "*", new: "\"*\"")
    }

    private init(position: SourcePosition, old: String, new: String) {
        self.position = position
        self.old = old
        self.new = new
    }

    /// What an editor's menu or a report shows for it.
    package var title: String { old == "*" ? "quote '*'" : "replace '\(old)' with '\(new)'" }

    /// Letters, digits, `_`, `-`, `.` and `/`, not starting with `-`, `.` or `/` (so never a YAML indicator, a
    /// number or a path outside the tree), at most 256 characters.
    static func isPlain(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, text.unicodeScalars.count <= 256,
              !["-", ".", "/"].contains(first) else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
                || scalar == "_" || scalar == "-" || scalar == "." || scalar == "/"
        }
    }
}
