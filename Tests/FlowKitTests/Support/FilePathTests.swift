import Foundation
import Testing
@testable import FlowKit

/// `FilePath.directory(of:)` is `NSString.deletingLastPathComponent` without its trap on one-character names.
@Suite("File paths")
struct FilePathTests {
    /// Whether swift-corelibs-foundation's `deletingLastPathComponent` traps on `path`: one character other than
    /// `/`, once trailing slashes are dropped (`x`, `-`, `.`, `a/`).
    static func foundationTraps(_ path: String) -> Bool {
        var rest = Substring(path)
        while rest.count > 1, rest.hasSuffix("/") { rest = rest.dropLast() }
        return rest.count == 1 && rest != "/"
    }

    /// Every path of up to 6 characters over `a`, `b`, `/`, `.` and `-`: the same folder as Foundation gives,
    /// where Foundation does not trap; where it traps on a one-character name, no folder. Paths that start with
    /// `//` are left out: Foundation traps on some (`///a//`) and gives `""` for `//`.
    @Test func agreesWithFoundationWhereFoundationDoesNotTrap() {
        var paths: [String] = [""]
        var compared = 0
        for _ in 1...6 {
            paths = paths.flatMap { path in ["a", "b", "/", ".", "-"].map { path + $0 } }
            for path in paths {
                if Self.foundationTraps(path) {
                    #expect(FilePath.directory(of: path) == "", "\(path)")
                } else if !path.hasPrefix("//") {
                    #expect(FilePath.directory(of: path) == (path as NSString).deletingLastPathComponent, "\(path)")
                    compared += 1
                }
            }
        }
        #expect(compared > 10_000)
    }

    @Test func examples() {
        #expect(FilePath.directory(of: "x") == "")
        #expect(FilePath.directory(of: "-") == "")
        #expect(FilePath.directory(of: "a/") == "")
        #expect(FilePath.directory(of: "/x") == "/")
        #expect(FilePath.directory(of: "/") == "/")
        #expect(FilePath.directory(of: "//") == "/")
        #expect(FilePath.directory(of: "flows/nested/x.yaml") == "flows/nested")
        #expect(FilePath.directory(of: "flows//x.yaml") == "flows")
        #expect(FilePath.directory(of: "//a//b/c") == "/a/b")
    }
}
