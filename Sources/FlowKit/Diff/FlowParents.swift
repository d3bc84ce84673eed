import Foundation

/// The flows that run a flow as a nested flow, and the keys of its final state they read as `result.KEY`
/// (docs/format.md, "Parent flows"): what a change to the child's state breaks.
public struct FlowParents: Sendable {
    /// A read of the child's final state by a parent.
    public struct Read: Sendable, Equatable {
        /// The parent file, as found.
        public var file: String
        /// The parent's `flow` step that runs the child.
        public var step: String
        /// Where the read is written in the parent file.
        public var line: Int
        /// The 1-based column.
        public var column: Int
    }

    /// Each key of the child's state that a parent reads, with the reads.
    public var reads: [String: [Read]] = [:]

    /// No parents: nothing reads the child's state.
    public init() {}

    /// The parents of the flow file at `child` among the flow files `candidates` (scripts and files that are not
    /// flows passed over; a file that does not load reads nothing): each `flow` step whose nested flow is that
    /// file, and the `result.KEY` paths in its own `set` and in the options of its handlers and `next`, and of the
    /// `"*"` step's, which an outcome it does not handle goes to.
    public static func find(child: String, among candidates: [String]) -> FlowParents {
        let target = FileFlowResolver.canonical(child)
        var parents = FlowParents()
        for file in candidates where FileFlowResolver.canonical(file) != target {
            guard let document = try? FlowLoader.load(path: file), !document.isScript, let flow = document.flow else { continue }
            let directory = (file as NSString).deletingLastPathComponent
            for step in flow.steps where step.kind == .flow {
                guard let path = step.flowPath,
                      FileFlowResolver.canonical((directory.isEmpty ? path : (directory as NSString).appendingPathComponent(path))) == target else { continue }
                var sources = step.set.map(\.expression)
                for target in (step.on + (flow.anyStep?.on ?? [])).flatMap(\.targets) + (step.next ?? []) + (flow.anyStep?.next ?? []) {
                    sources += [target.condition].compactMap { $0 } + target.set.map(\.expression)
                }
                for source in sources {
                    guard case .success(let parsed) = ExpressionParser.parse(source) else { continue }
                    for read in parsed.paths where read.root == .result {
                        let at = source.position(ofOffset: read.span.start)
                        parents.reads[read.keys[0], default: []].append(Read(file: file, step: step.name.text, line: at.line, column: at.column))
                    }
                }
            }
        }
        return parents
    }
}
