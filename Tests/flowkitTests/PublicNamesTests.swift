import FlowKit
import Foundation
import Testing

/// FlowKit is the library an app links: its public API is small, documented and usable beside Foundation.
/// The public top-level types are read from the sources (`public struct|enum|class|protocol|actor|typealias` at the
/// start of a line), so a new one is checked without editing this file.
@Suite("Public names")
struct PublicNamesTests {
    static let sources = packageRoot + "/Sources/FlowKit"

    /// FlowKit's public top-level types, by name, with the file that declares each.
    static func publicTypes() throws -> [(name: String, file: String)] {
        let pattern = try NSRegularExpression(pattern: #"^public (?:final |indirect )?(?:struct|enum|class|protocol|actor|typealias) ([A-Za-z_][A-Za-z0-9_]*)"#,
                                              options: [.anchorsMatchLines])
        var found: [(name: String, file: String)] = []
        guard let walk = FileManager.default.enumerator(atPath: sources) else { throw FlowKitError.noSuchFile(sources) }
        for case let file as String in walk where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                found.append((String(text[Range(match.range(at: 1), in: text)!]), file))
            }
        }
        return found.sorted { $0.name < $1.name }
    }

    @Test func atMostFortyPublicTypesEachInTheCatalog() throws {
        let types = try Self.publicTypes()
        #expect(types.count >= 30, "the scan found only \(types.count) public types: is the pattern still right?")
        #expect(types.count <= 40, "FlowKit has \(types.count) public types: \(types.map(\.name))")
        let catalog = try String(contentsOfFile: Self.sources + "/FlowKit.docc/FlowKit.md", encoding: .utf8)
        for type in types {
            #expect(catalog.contains("- ``\(type.name)``"), "\(type.name) (\(type.file)) is not listed in FlowKit.docc/FlowKit.md")
        }
    }

    /// A file that imports Foundation and FlowKit, as an app's does, names every public type unqualified: none
    /// clashes with Foundation's (Foundation's `Expression` is why the parsed expression, internal, is
    /// `FlowExpression`). Compiled from outside the package, so only the public API is seen.
    @Test func everyPublicTypeIsNamedWithFoundationImported() throws {
        let types = try Self.publicTypes()
        let folder = NSTemporaryDirectory() + "flowkit-public-names-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/names.swift"
        let lines = ["import Foundation", "import FlowKit", ""] + types.enumerated().map { "typealias Named\($0.offset) = \($0.element.name)" }
        try lines.joined(separator: "\n").appending("\n").write(toFile: file, atomically: true, encoding: .utf8)
        let check = try typeCheckAgainstFlowKit([file], moduleName: "AppNames")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        // The check sees what an app sees: a type FlowKit keeps inside the package is not found.
        try (["import Foundation", "import FlowKit", "typealias Hidden = FlowGraph"].joined(separator: "\n") + "\n")
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try typeCheckAgainstFlowKit([file], moduleName: "AppNames").status != 0, "an internal type is visible to apps")
    }
}
