/// Path arithmetic on strings, without Foundation's `NSString` path methods: swift-corelibs-foundation's
/// `deletingLastPathComponent` traps on a one-character relative path (`x`, `-`, `.`, `a/`), which any file name
/// on a command line can be.
package enum FilePath {
    /// The folder part of `path`, as `NSString.deletingLastPathComponent` gives it where that does not trap:
    /// trailing slashes are ignored and runs of slashes are one, `""` for a name with no folder, `/` for a name
    /// at the root (and for `/` or `//`, where Foundation gives `""`).
    package static func directory(of path: String) -> String {
        var rest = Substring(path)
        while rest.count > 1, rest.hasSuffix("/") { rest = rest.dropLast() }
        if rest == "/" { return "/" }
        guard let slash = rest.lastIndex(of: "/") else { return "" }
        var folder = ""
        for character in rest[..<slash] where !(character == "/" && folder.hasSuffix("/")) { folder.append(character) }
        if folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        return folder.isEmpty ? "/" : folder
    }
}
