/// Text for people (a finding's message, an error) whose interpolated values are escaped as they go in
/// (docs/format.md, "Diagnostics and exit codes"), so that a message is escaped where it is written rather than by
/// a call at every name:
///
/// - `\(name: x)`: a name, shown by `Identifier.display` (control and format characters, `'` and `\` escaped; cut
///   at 60 characters with `…`); `\(name: x, limit: n)` cut at `n`;
/// - `\(path: p)`: a path (of a file, or in an expression) or a text from a file (a scenario's name), escaped whole
///   (no cut; quotes as they are);
/// - `\(message)`: another message, as it is (already escaped);
/// - `\(verbatim: text)`: text this program wrote (a list of names it escaped, a suggestion), as it is;
/// - anything else (numbers, kinds, types): as it describes itself. A string must say which it is: an unlabelled
///   one does not compile.
package struct Message: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The text, escaped.
    package let text: String

    package init(stringLiteral value: String) {
        text = value
    }

    package init(stringInterpolation: Interpolation) {
        text = stringInterpolation.text
    }

    /// Text this program wrote, as it is.
    package init(verbatim text: String) {
        self.text = text
    }

    package var description: String { text }

    /// Names in single quotes, each escaped and cut as a name: `'a', 'b', 'c'`.
    package static func quoted(_ names: some Sequence<String>, separator: String = ", ") -> Message {
        Message(verbatim: names.map { "'" + Identifier.display($0) + "'" }.joined(separator: separator))
    }

    /// Names in single quotes as a sentence lists them: `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`; past `atMost`
    /// names, the first `atMost` and how many more.
    package static func listed(_ names: [String], atMost: Int = .max) -> Message {
        let shown = names.prefix(atMost).map { "'" + Identifier.display($0) + "'" }
        if names.count > atMost { return Message(verbatim: shown.joined(separator: ", ") + " and \(names.count - atMost) more") }
        guard let last = shown.last, shown.count > 1 else { return Message(verbatim: shown.first ?? "") }
        return Message(verbatim: shown.dropLast().joined(separator: ", ") + " and " + last)
    }

    /// Joins messages: `a + b`.
    package static func + (lhs: Message, rhs: Message) -> Message {
        Message(verbatim: lhs.text + rhs.text)
    }

    /// Builds a message, escaping what is interpolated as the parameter's label says.
    package struct Interpolation: StringInterpolationProtocol {
        var text = ""

        package init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        package mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// A name: escaped, cut at `limit` characters.
        package mutating func appendInterpolation(name: some StringProtocol, limit: Int = 60) {
            text += Identifier.display(String(name), limit: limit)
        }

        /// A name that describes itself (a path in an expression): its description, escaped, cut at `limit`.
        package mutating func appendInterpolation(name: some CustomStringConvertible, limit: Int = 60) {
            text += Identifier.display(name.description, limit: limit)
        }

        /// A path or a text from a file: escaped, whole unless a `limit` is given.
        package mutating func appendInterpolation(path: some StringProtocol, limit: Int = .max) {
            text += Identifier.display(String(path), limit: limit, quoting: false)
        }

        /// A path that describes itself (a path in an expression): its description, escaped whole.
        package mutating func appendInterpolation(path: some CustomStringConvertible) {
            text += Identifier.display(path.description, limit: .max, quoting: false)
        }

        /// Another message, already escaped.
        package mutating func appendInterpolation(_ message: Message) {
            text += message.text
        }

        /// Text this program wrote, as it is.
        package mutating func appendInterpolation(verbatim: some StringProtocol) {
            text += verbatim
        }

        /// A number.
        package mutating func appendInterpolation(_ number: some BinaryInteger) {
            text += "\(number)"
        }

        /// A number.
        package mutating func appendInterpolation(_ number: Double) {
            text += "\(number)"
        }
    }
}
