/// Deep-link paths: `/transfer/{amount}/tariffs` binds the state key `amount`.
public enum EntryPath {
    /// The path of a link: an `http` or `https` URL loses its scheme and host, a URL of any other scheme (an app's
    /// own, `bankapp://loans/offer/8000/48`) its scheme only, the host becoming the first segment; and any link
    /// loses its query and fragment.
    public static func pathOnly(_ link: String) -> String {
        var text = Substring(link)
        if let scheme = text.range(of: "://") {
            let name = text[..<scheme.lowerBound].lowercased()
            let afterScheme = text[scheme.upperBound...]
            if name == "http" || name == "https" {
                text = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? ""
            } else {
                text = Substring("/" + afterScheme)
            }
        }
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<cut] }
        return String(text)
    }

    /// The parameters `link` gives when it matches the entry path `pattern`, nil when it does not
    /// (docs/format.md, "Starting from a link").
    public static func match(_ pattern: String, link: String) -> [String: String]? {
        let wanted = pattern.split(separator: "/")
        let given = pathOnly(link).split(separator: "/")
        guard wanted.count == given.count else { return nil }
        var params: [String: String] = [:]
        for (segment, value) in zip(wanted, given) {
            if segment.hasPrefix("{") && segment.hasSuffix("}") && segment.count > 2 {
                params[String(segment.dropFirst().dropLast())] = String(value).removingPercentEncoding ?? String(value)
            } else if segment != value {
                return nil
            }
        }
        return params
    }

    /// The entry of `flow` that `link` starts at, with its parameters: the match with the most literal segments,
    /// then the first in the file.
    public static func entry(matching link: String, in flow: Flow) -> (name: String, params: [String: String])? {
        var best: (name: String, params: [String: String], literals: Int)?
        for entry in flow.entries {
            guard let params = match(entry.path, link: link) else { continue }
            let literals = entry.path.split(separator: "/").count - params.count
            if best == nil || literals > best!.literals { best = (entry.name.text, params, literals) }
        }
        return best.map { ($0.name, $0.params) }
    }

    /// The link `pattern` gives with its parameters filled in: each `{key}` segment becomes the value of `key`,
    /// percent-encoded (all but ASCII letters, digits and `-._~`), so that `match(pattern, link:)` gives the values
    /// back. A parameter with no value, or an empty one, leaves its segment empty, which no entry matches.
    public static func link(_ pattern: String, params: [String: String]) -> String {
        let segments = pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment.hasPrefix("{") && segment.hasSuffix("}") && segment.count > 2 else { return String(segment) }
            return percentEncoded(params[String(segment.dropFirst().dropLast())] ?? "")
        }
        return segments.joined(separator: "/")
    }

    /// `text` with every byte but ASCII letters, digits and `-._~` written as `%XX`.
    static func percentEncoded(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                output.unicodeScalars.append("%")
                output.unicodeScalars.append(digits[Int(byte >> 4)])
                output.unicodeScalars.append(digits[Int(byte & 15)])
            }
        }
        return output
    }

    /// The parameter names of `path`, in order.
    public static func parameters(_ path: String) -> [String] {
        var names: [String] = []
        var current: String?
        for character in path {
            if character == "{" {
                current = ""
            } else if character == "}" {
                if let name = current { names.append(name) }
                current = nil
            } else if current != nil {
                current!.append(character)
            }
        }
        return names
    }
}
