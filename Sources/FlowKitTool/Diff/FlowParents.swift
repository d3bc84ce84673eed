import Foundation
import FlowKit

/// The flows that run a flow as a nested flow, and the keys of its final state they read as `result.KEY`
/// (docs/format.md, "Parent flows"): what a change to the child's state breaks.
package struct FlowParents: Sendable {
    /// A read of the child's final state by a parent.
    package struct Read: Sendable, Equatable {
        /// The parent file, as found.
        package var file: String
        /// The parent's `flow` step that runs the child.
        package var step: String
        /// Where the read is written in the parent file.
        package var line: Int
        /// The 1-based column.
        package var column: Int
    }

    /// Each key of the child's state that a parent reads, with the reads.
    package var reads: [String: [Read]] = [:]

    /// No parents: nothing reads the child's state.
    package init() {}

    /// The parents of the flow file at `child` among the flow files `candidates` (scripts and files that are not
    /// flows passed over; a file that does not load reads nothing): each `flow` step whose nested flow is that
    /// file, and the `result.KEY` paths in its own `set` and in the options of its handlers and `next`, and of the
    /// `"*"` step's, which an outcome it does not handle goes to.
    package static func find(child: String, among candidates: [String]) -> FlowParents {
        Neighbourhood(candidates).parents(of: child)
    }

    /// The flows and scripts around compared files, each read once: what every flow's nested flows read of them,
    /// and which scripts run which flow (by canonical path), so that comparing many files costs one reading of
    /// their neighbours, not one per file.
    package struct Neighbourhood: Sendable {
        /// The reads of each nested flow's state, by the nested flow's canonical path.
        var readsByChild: [String: [String: [Read]]] = [:]
        /// The scripts of each flow, by the flow's canonical path.
        var scriptsByFlow: [String: [String]] = [:]
        /// The scripts that cannot be read (a `flowkit-script` key, but no script that reads): `--fix-scripts` stops
        /// on one rather than pass it over.
        public private(set) var unreadableScripts: [String] = []

        /// Reads `candidates` (files that cannot be read, or read as neither flow nor script, are passed over:
        /// `flowkit lint` reports them). With `names`, only files that name one of these file names (the last
        /// component of a path, such as `sign-in.yaml`) are parsed: a parent or a script names the file it runs.
        package init(_ candidates: [String], naming names: Set<String>? = nil) {
            for file in candidates {
                guard let bytes = try? FlowLoader.read(path: file, limit: ReaderLimits.standard.maxBytes) else { continue }
                if let names, !Self.names(in: bytes, any: names) { continue }
                let document = FlowLoader.load(bytes: bytes, file: file)
                let directory = FilePath.directory(of: file)
                func resolved(_ path: String) -> String {
                    FileFlowResolver.canonical(directory.isEmpty ? path : (directory as NSString).appendingPathComponent(path))
                }
                if document.isScript || (document.root == nil && SourceText.showsKey("flowkit-script", in: bytes)) {
                    if let script = ScriptFixer.decode(bytes, file: file) {
                        if let reference = script.flow { scriptsByFlow[resolved(reference), default: []].append(file) }
                    } else {
                        unreadableScripts.append(file)
                    }
                    continue
                }
                guard let flow = document.flow else { continue }
                let own = FileFlowResolver.canonical(file)
                for step in flow.steps where step.kind == .flow {
                    guard let path = step.flowPath else { continue }
                    let child = resolved(path)
                    guard child != own else { continue }
                    var sources = step.set.map(\.expression)
                    for target in (step.on + (flow.anyStep?.on ?? [])).flatMap(\.targets) + (step.next ?? []) + (flow.anyStep?.next ?? []) {
                        sources += [target.condition].compactMap { $0 } + target.set.map(\.expression)
                    }
                    var reads = readsByChild[child] ?? [:]
                    for source in sources {
                        guard case .success(let parsed) = ExpressionParser.parse(source) else { continue }
                        for read in parsed.paths where read.root == .result {
                            let at = source.position(ofOffset: read.span.start)
                            reads[read.keys[0], default: []].append(Read(file: file, step: step.name.text, line: at.line, column: at.column))
                        }
                    }
                    readsByChild[child] = reads
                }
            }
        }

        /// Whether `bytes` hold a file name of `names`: a run of bytes ending in `.yaml`, `.yml` or `.json`, from
        /// the last delimiter (quote, space, `/`, `:`, bracket, comma, line break) before it. Linear in the bytes.
        static func names(in bytes: [UInt8], any names: Set<String>) -> Bool {
            let delimiters: Set<UInt8> = Set(" \t\r\n\"'/\\:,[]{}=".utf8)
            let extensions: [[UInt8]] = [Array(".yaml".utf8), Array(".yml".utf8), Array(".json".utf8)]
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: ".") else {
                    index += 1
                    continue
                }
                for suffix in extensions where index + suffix.count <= bytes.count && Array(bytes[index..<index + suffix.count]) == suffix {
                    let end = index + suffix.count
                    var start = index
                    while start > 0, !delimiters.contains(bytes[start - 1]), index - start < 1_024 { start -= 1 }
                    if names.contains(String(decoding: bytes[start..<end], as: UTF8.self)) { return true }
                }
                index += 1
            }
            return false
        }

        /// What the parents of the flow at `child` read of it.
        package func parents(of child: String) -> FlowParents {
            var parents = FlowParents()
            parents.reads = readsByChild[FileFlowResolver.canonical(child)] ?? [:]
            return parents
        }

        /// The scripts whose `flow` is the file at `flow`, in the order found.
        package func scripts(of flow: String) -> [String] {
            scriptsByFlow[FileFlowResolver.canonical(flow)] ?? []
        }
    }
}
