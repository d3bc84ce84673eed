import FlowKit
import Foundation

/// The names one flow's code uses, decided once so that every enum agrees.
struct FlowNames {
    /// Step name → case name, events, outcomes and entries the same.
    var steps: [String: String] = [:]
    var events: [String: String] = [:]
    var outcomes: [String: String] = [:]
    var entries: [String: String] = [:]
    /// Step name → its result struct and its event enum.
    var resultTypes: [String: String] = [:]
    var eventTypes: [String: String] = [:]

    init(flow: Flow) {
        var taken: Set<String> = []
        for step in flow.steps { steps[step.name.text] = SwiftNames.unique(SwiftNames.member(step.name.text), in: &taken) }
        taken = []
        for event in flow.events { events[event.name.text] = SwiftNames.unique(SwiftNames.member(event.name.text), in: &taken) }
        taken = []
        for outcome in FlowInterface.outcomes(of: flow) { outcomes[outcome] = SwiftNames.unique(SwiftNames.member(outcome), in: &taken) }
        taken = []
        for entry in flow.entries { entries[entry.name.text] = SwiftNames.unique(SwiftNames.member(entry.name.text), in: &taken) }
        // The flow enum's own nested types come first, so that a step's types never take their names.
        var types: Set<String> = ["Step", "Event", "Outcome", "State", "Inputs", "Entry", "Current", "Completion", "EventCompletion", "Run"]
        for step in flow.steps {
            let base = SwiftNames.capitalized(step.name.text)
            if step.result != nil && (step.kind == .screen || step.kind == .action) {
                resultTypes[step.name.text] = SwiftNames.unique(base + "Result", in: &types)
            }
            if !FlowInterface.explicitEvents(of: step, in: flow).isEmpty {
                eventTypes[step.name.text] = SwiftNames.unique(base + "Event", in: &types)
            }
        }
    }
}

/// A struct of fields (a result, a nested shape, the state, the inputs): its properties and nested types.
struct StructShape {
    struct Property {
        let key: String
        let name: String
        let type: TypeRef
        /// The type of an enum or shape field: a nested type of the struct, or the state's (`shared`).
        let nestedType: String?
        /// Whether `nestedType` is the state's enum (`TransferFlow.State.Purpose`), declared there, not here.
        let shared: Bool
    }

    let properties: [Property]

    /// `flowType` is the flow's type, which no nested type may take; `state`, when given, is the flow's state, whose
    /// enum types a field of the same name and values takes instead of declaring its own.
    init(fields: [Field], flowType: String, state: [Field]? = nil) {
        var members: Set<String> = []
        var named: [(Field, String)] = []
        for field in fields { named.append((field, SwiftNames.unique(SwiftNames.member(field.name.text), in: &members))) }
        // Nested types may not take a property's name (a key `Tariff` beside the type of a key `tariff`), nor the
        // flow's type, through which shared types are named.
        var types = members
        types.insert(flowType)
        let stateTypes = state.map { StructShape(fields: $0, flowType: flowType).properties } ?? []
        properties = named.map { field, name in
            var nested: String?
            var shared = false
            switch field.type.base {
            case .enumeration(let values):
                if let owner = stateTypes.first(where: { $0.key == field.name.text }),
                   case .enumeration(let stateValues) = owner.type.base, Set(stateValues) == Set(values) {
                    nested = flowType + ".State." + owner.nestedType!
                    shared = true
                } else {
                    nested = SwiftNames.unique(SwiftNames.type(field.name.text), in: &types)
                }
            case .object: nested = SwiftNames.unique(SwiftNames.type(field.name.text), in: &types)
            default: nested = nil
            }
            return Property(key: field.name.text, name: name, type: field.type, nestedType: nested, shared: shared)
        }
    }

    /// Whether the Codable keys differ from the property names (a `_` was appended somewhere).
    var needsCodingKeys: Bool { properties.contains { $0.name != $0.key } }
}

/// The emitter: the text of one generated file, from one flow and what the driver (`SwiftGenerator`) worked out
/// about all of them (`SwiftGenerator.Context`), written in the order the file reads.
struct SwiftEmitter {
    let flow: Flow
    let file: String
    let context: SwiftGenerator.Context
    let names: FlowNames
    let typeName: String
    private var lines: [String] = []

    init(flow: Flow, file: String, context: SwiftGenerator.Context) {
        self.flow = flow
        self.file = file
        self.context = context
        self.names = FlowNames(flow: flow)
        self.typeName = SwiftGenerator.flowTypeName(flow)
    }

    /// The base name of the flow file, as the embedded flows name it.
    private var baseName: String { file.split(separator: "/").last.map(String.init) ?? file }

    private mutating func line(_ text: String = "", _ depth: Int = 0) {
        lines.append(text.isEmpty ? "" : String(repeating: "    ", count: depth) + text)
    }

    /// The steps an app completes (screens and actions) and the nested flows.
    private var steps: [Step] { flow.steps }

    private func stepCase(_ step: Step) -> String { SwiftNames.code(names.steps[step.name.text]!) }

    mutating func write() -> String {
        line("// Generated by flowkit from \(SwiftNames.comment(baseName)). Do not edit: `flowkit generate swift` writes it again.")
        line()
        line("import FlowKit")
        line()
        line("/// " + SwiftNames.comment(flow.title ?? "The flow '\(flow.name.text)'") + " (`\(SwiftNames.comment(baseName))`).")
        if let description = flow.description, !SwiftNames.comment(description).isEmpty {
            line("///")
            line("/// " + SwiftNames.comment(description))
        }
        line("public enum \(typeName) {")
        writeSource()
        writeStep()
        writeNameEnum("Event", doc: "Every event the flow declares.", names: flow.events.map { ($0.name.text, names.events[$0.name.text]!) })
        writeNameEnum("Outcome", doc: "Every outcome the flow finishes with.", names: FlowInterface.outcomes(of: flow).map { ($0, names.outcomes[$0]!) })
        for step in steps {
            if let resultType = names.resultTypes[step.name.text], let result = step.result {
                line()
                line("/// The result of step '\(step.name.text)'.", 1)
                writeStruct(resultType, shape: shape(result, sharing: true), optionalAll: false, depth: 1)
            }
            if let eventType = names.eventTypes[step.name.text] {
                let events = FlowInterface.explicitEvents(of: step, in: flow)
                writeNameEnum(eventType, doc: "The events step '\(step.name.text)' may complete with.",
                              names: events.map { ($0, names.events[$0] ?? SwiftNames.member($0)) })
            }
        }
        line()
        line("/// The flow's state: every key, nil while it is unset.", 1)
        writeStruct("State", shape: shape(flow.state, sharing: false), optionalAll: true, depth: 1, extra: stateInitializer())
        writeInputs()
        writeEntries()
        writeCurrent()
        writeCompletions()
        writeRun()
        writeHelpers()
        line("}")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: The flow's text, interface and checked flow

    private mutating func writeSource() {
        line("/// The flow file's name.", 1)
        line("public static let file = \(SwiftNames.literal(baseName))", 1)
        line()
        line("/// The flow file's text, byte for byte.", 1)
        line("public static let text = " + SwiftNames.multilineLiteral(context.texts[file] ?? "", indent: "        ").dropFirst(8), 1)
        line()
        line("/// What this code depends on in the flow (`FlowInterface`): a flow from elsewhere must have the same.", 1)
        line("public static let interface = " + SwiftNames.multilineLiteral(FlowInterface(flow).description, indent: "        ").dropFirst(8), 1)
        line()
        // Every flow this one nests, named relative to this file, so that the embedded source resolves them.
        var embedded: [(String, String)] = [(baseName, typeName)]
        var seen: Set<String> = [file]
        var queue = [file]
        while let current = queue.first {
            queue.removeFirst()
            guard let currentFlow = context.flows[current] else { continue }
            for step in currentFlow.steps where step.kind == .flow {
                guard let (name, nested) = context.nested(step, in: current), seen.insert(name).inserted else { continue }
                queue.append(name)
                embedded.append((SwiftGenerator.relative(name, to: file), SwiftGenerator.flowTypeName(nested)))
            }
        }
        line("/// This flow and the flows it nests, by the names they call each other.", 1)
        line("public static let source = FlowKit.EmbeddedFlowSource(files: [", 1)
        for (name, type) in embedded.sorted(by: { $0.0 < $1.0 }) {
            line("\(SwiftNames.literal(name)): \(type).text,", 2)
        }
        line("])", 1)
        line()
        line("/// The embedded flow, linted and compiled once, its nested flows served from `source`.", 1)
        line("public static let checked: Swift.Result<FlowKit.CheckedFlow, FlowKit.FlowRejection> = {", 1)
        line("do throws(FlowKit.FlowRejection) {", 2)
        line("return .success(try FlowKit.CompiledFlow.checked(Swift.Array(text.utf8), name: file, source: source))", 3)
        line("} catch {", 2)
        line("return .failure(error)", 3)
        line("}", 2)
        line("}()", 1)
        line()
        line("/// Checks that `flow` (and each flow it nests, through `resolver`) has the interface this code was generated", 1)
        line("/// from; the first difference is an error (`invalidStart`).", 1)
        line("public static func verify(_ flow: FlowKit.CompiledFlow, resolver: (any FlowKit.FlowResolver)?) throws(FlowKit.RunError) {", 1)
        line("var seen: Swift.Set<Swift.String> = []", 2)
        line("try _verify(flow, resolver: resolver, seen: &seen)", 2)
        line("}", 1)
        line()
        line("static func _verify(_ flow: FlowKit.CompiledFlow, resolver: (any FlowKit.FlowResolver)?, seen: inout Swift.Set<Swift.String>) throws(FlowKit.RunError) {", 1)
        line("guard seen.insert(flow.flow.file).inserted else { return }", 2)
        line("try FlowKit.FlowInterface.check(flow.flow, expected: interface)", 2)
        for step in steps where step.kind == .flow {
            guard let (_, nested) = context.nested(step, in: file) else { continue }
            line("try \(SwiftGenerator.flowTypeName(nested))._verify(FlowKit.FlowInterface.nested(flow, step: \(SwiftNames.literal(step.name.text)), resolver: resolver), resolver: resolver, seen: &seen)", 2)
        }
        line("}", 1)
    }

    // MARK: Enums of names

    private mutating func writeStep() {
        line()
        line("/// Every step of the flow.", 1)
        line("public enum Step: Swift.String, Swift.CaseIterable, Swift.Hashable, Swift.Sendable {", 1)
        for step in steps {
            line("/// " + SwiftNames.comment(step.title ?? step.name.text) + " (\(step.kind.rawValue)).", 2)
            line("case \(stepCase(step)) = \(SwiftNames.literal(step.name.text))", 2)
        }
        line("}", 1)
        line()
        line("/// What `step` is: a screen, an action, a nested flow or a finish step.", 1)
        line("public static func kind(of step: Step) -> FlowKit.StepKind {", 1)
        line("switch step {", 2)
        for step in steps { line("case .\(stepCase(step)): return .\(step.kind.rawValue)", 2) }
        line("}", 2)
        line("}", 1)
        line()
        line("/// The title `step` declares, when it has one.", 1)
        line("public static func title(of step: Step) -> Swift.String? {", 1)
        line("switch step {", 2)
        for step in steps { line("case .\(stepCase(step)): return " + (step.title.map(SwiftNames.literal) ?? "nil"), 2) }
        line("}", 2)
        line("}", 1)
    }

    /// A `String` enum of names: `names` are (flow name, case name) pairs.
    private mutating func writeNameEnum(_ name: String, doc: String, names: [(String, String)]) {
        line()
        line("/// \(SwiftNames.comment(doc))", 1)
        guard !names.isEmpty else {
            // Swift gives no raw type to an enum without cases: the same interface, written out, with no value.
            line("public enum \(name): Swift.RawRepresentable, Swift.CaseIterable, Swift.Hashable, Swift.Sendable {", 1)
            line("/// Always nil: there is no such name.", 2)
            line("public init?(rawValue: Swift.String) { nil }", 2)
            line("/// The name (there is no value to have one).", 2)
            line("public var rawValue: Swift.String { switch self {} }", 2)
            line("}", 1)
            return
        }
        line("public enum \(name): Swift.String, Swift.CaseIterable, Swift.Hashable, Swift.Sendable {", 1)
        for (text, caseName) in names { line("case \(SwiftNames.code(caseName)) = \(SwiftNames.literal(text))", 2) }
        line("}", 1)
    }

    // MARK: Structs of fields

    /// The Swift type of a property: nested types by name, optional when the type is or `optionalAll` says.
    private func swiftType(_ property: StructShape.Property, optionalAll: Bool) -> String {
        let base: String
        switch property.type.base {
        case .int: base = "Swift.Int"
        case .number: base = "Swift.Double"
        case .string: base = "Swift.String"
        case .bool: base = "Swift.Bool"
        case .enumeration, .object: base = property.nestedType!
        }
        return base + (property.type.optional || optionalAll ? "?" : "")
    }

    private mutating func writeStruct(_ name: String, shape: StructShape, optionalAll: Bool, depth: Int, extra: [String] = []) {
        line("public struct \(name): Swift.Codable, Swift.Hashable, Swift.Sendable {", depth)
        for property in shape.properties {
            line("public var \(SwiftNames.code(property.name)): \(swiftType(property, optionalAll: optionalAll))", depth + 1)
        }
        // The memberwise initializer, public.
        line()
        let parameters = shape.properties.map { property -> String in
            let type = swiftType(property, optionalAll: optionalAll)
            return "\(SwiftNames.code(property.name)): \(type)" + (type.hasSuffix("?") ? " = nil" : "")
        }
        line("/// Creates a value of every field.", depth + 1)
        line("public init(\(parameters.joined(separator: ", "))) {", depth + 1)
        for property in shape.properties {
            line("self.\(SwiftNames.code(property.name)) = \(SwiftNames.code(property.name))", depth + 2)
        }
        line("}", depth + 1)
        if !extra.isEmpty {
            line()
            for text in extra { line(text, text.isEmpty ? 0 : depth + 1) }
        }
        if shape.needsCodingKeys {
            line()
            line("enum CodingKeys: Swift.String, Swift.CodingKey {", depth + 1)
            for property in shape.properties {
                line("case \(SwiftNames.code(property.name)) = \(SwiftNames.literal(property.key))", depth + 2)
            }
            line("}", depth + 1)
        }
        for property in shape.properties where !property.shared {
            guard let nested = property.nestedType else { continue }
            line()
            switch property.type.base {
            case .enumeration(let values):
                line("/// The values of '\(property.key)'.", depth + 1)
                line("public enum \(nested): Swift.String, Swift.Codable, Swift.CaseIterable, Swift.Hashable, Swift.Sendable {", depth + 1)
                var taken: Set<String> = []
                var seenValues: Set<String> = []
                for value in values where seenValues.insert(value).inserted {
                    line("case \(SwiftNames.code(SwiftNames.unique(SwiftNames.enumCase(value), in: &taken))) = \(SwiftNames.literal(value))", depth + 2)
                }
                line("}", depth + 1)
            case .object(let fields):
                line("/// The shape of '\(property.key)'.", depth + 1)
                writeStruct(nested, shape: self.shape(fields, sharing: false), optionalAll: false, depth: depth + 1)
            default:
                break
            }
        }
        line("}", depth)
    }

    private mutating func writeInputs() {
        let types = Dictionary(flow.state.map { ($0.name.text, $0.type) }, uniquingKeysWith: { first, _ in first })
        let required = Set(flow.requiredInputs)
        let fields = flow.inputs.compactMap { input -> Field? in
            guard var type = types[input.text] else { return nil }
            type.optional = !required.contains(input.text)
            return Field(name: input, type: type)
        }
        line()
        line("/// What a run that begins at `start` is given: the flow's `inputs`, the required ones not optional.", 1)
        writeStruct("Inputs", shape: shape(fields, sharing: true), optionalAll: false, depth: 1)
    }

    // MARK: Entries

    /// The type of an entry's path parameter: the state key it fills (the nested flow's, for a nested entry).
    private func parameterType(_ key: String, entry: Entry) -> (TypeRef, String) {
        var owner = flow
        var ownerFile = file
        if entry.nestedEntry != nil, let step = flow.step(named: entry.step.text), let (name, nested) = context.nested(step, in: file) {
            owner = nested
            ownerFile = name
        }
        let type = owner.state.first { $0.name.text == key }?.type ?? TypeRef(base: .string, optional: false, position: .start)
        // Enum parameters use the state's enum type, in the flow that declares it.
        let stateType = SwiftGenerator.flowTypeName(owner) + ".State." + (StructShape(fields: owner.state, flowType: SwiftGenerator.flowTypeName(owner)).properties.first { $0.key == key }?.nestedType ?? "")
        _ = ownerFile
        return (TypeRef(base: type.base, optional: false, position: type.position), stateType)
    }

    private mutating func writeEntries() {
        line()
        line("/// The flow's deep links, with their path parameters.", 1)
        line("public enum Entry: Swift.Hashable, Swift.Sendable {", 1)
        for entry in flow.entries {
            let parameters = EntryPath.parameters(entry.path)
            let caseName = SwiftNames.code(names.entries[entry.name.text]!)
            line("/// `\(SwiftNames.comment(entry.path))`", 2)
            if parameters.isEmpty {
                line("case \(caseName)", 2)
            } else {
                let labels = parameters.map { "\(SwiftNames.code(SwiftNames.member($0))): \(entryParameterType($0, entry: entry))" }
                line("case \(caseName)(\(labels.joined(separator: ", ")))", 2)
            }
        }
        line("}", 1)
        guard !flow.entries.isEmpty else { return }
        line()
        line("/// The link of `entry`: its path with the parameters filled in, percent-encoded.", 1)
        line("public static func link(to entry: Entry) -> Swift.String {", 1)
        line("let (_, pattern, params) = _parts(entry)", 2)
        line("return FlowKit.EntryPath.link(pattern, params: params)", 2)
        line("}", 1)
        line()
        line("static func _parts(_ entry: Entry) -> (name: Swift.String, pattern: Swift.String, params: [Swift.String: Swift.String]) {", 1)
        do {
            line("switch entry {", 2)
            for entry in flow.entries {
                let parameters = EntryPath.parameters(entry.path)
                let caseName = names.entries[entry.name.text]!
                let bindings = parameters.enumerated().map { "let p\($0.offset)" }
                let pattern = parameters.isEmpty ? ".\(SwiftNames.code(caseName))" : ".\(SwiftNames.code(caseName))(\(bindings.joined(separator: ", ")))"
                let params = parameters.enumerated().map { offset, key -> String in
                    let (type, _) = parameterType(key, entry: entry)
                    let text: String
                    switch type.base {
                    case .enumeration: text = "p\(offset).rawValue"
                    case .string: text = "p\(offset)"
                    default: text = "Swift.String(describing: p\(offset))"
                    }
                    return "\(SwiftNames.literal(key)): \(text)"
                }
                line("case \(pattern):", 2)
                line("return (\(SwiftNames.literal(entry.name.text)), \(SwiftNames.literal(entry.path)), [\(params.isEmpty ? ":" : params.joined(separator: ", "))])", 3)
            }
            line("}", 2)
        }
        line("}", 1)
    }

    private func entryParameterType(_ key: String, entry: Entry) -> String {
        let (type, stateType) = parameterType(key, entry: entry)
        switch type.base {
        case .int: return "Swift.Int"
        case .number: return "Swift.Double"
        case .bool: return "Swift.Bool"
        case .enumeration: return stateType
        case .string, .object: return "Swift.String"
        }
    }

    // MARK: Where a run is, and how it completes

    private mutating func writeCurrent() {
        line()
        line("/// Where a run is: the step it shows, inside nested flows the nested flow's step.", 1)
        line("public enum Current: Swift.Hashable, Swift.Sendable {", 1)
        for step in steps where step.kind != .finish {
            line("/// " + SwiftNames.comment(step.title ?? step.name.text) + ".", 2)
            if step.kind == .flow {
                guard let (name, nested) = context.nested(step, in: file), context.hasCurrent.contains(name) else { continue }
                line("indirect case \(stepCase(step))(\(SwiftGenerator.flowTypeName(nested)).Current)", 2)
            } else {
                line("case \(stepCase(step))", 2)
            }
        }
        line("}", 1)
        line()
        line("static func _current(_ steps: Swift.ArraySlice<Swift.String>) -> Current? {", 1)
        guard context.hasCurrent.contains(file) else {
            line("nil", 2)
            line("}", 1)
            return
        }
        line("guard let first = steps.first else { return nil }", 2)
        line("switch first {", 2)
        for step in steps where step.kind != .finish {
            if step.kind == .flow {
                guard let (name, _) = context.nested(step, in: file), context.hasCurrent.contains(name) else { continue }
            }
            line("case \(SwiftNames.literal(step.name.text)):", 2)
            if step.kind == .flow, let (_, nested) = context.nested(step, in: file) {
                line("return \(SwiftGenerator.flowTypeName(nested))._current(steps.dropFirst()).map { .\(stepCase(step))($0) }", 3)
            } else {
                line("return steps.count == 1 ? .\(stepCase(step)) : nil", 3)
            }
        }
        line("default: return nil", 2)
        line("}", 2)
        line("}", 1)
    }

    /// How a step completes in the generated `_move`: with its result, with nothing, with an event (and maybe its
    /// result), or inside its nested flow.
    private enum CompletionKind {
        case result, bare, event, nested
    }

    private mutating func writeCompletions() {
        // Completions without an event.
        line()
        line("/// How the step the run is at completes without an event: with its result, or with nothing.", 1)
        line("public enum Completion: Swift.Hashable, Swift.Sendable {", 1)
        var plain: [(Step, CompletionKind)] = []
        for step in steps {
            if let resultType = names.resultTypes[step.name.text] {
                line("/// " + SwiftNames.comment(step.title ?? step.name.text) + ": completes with its result.", 2)
                line("case \(stepCase(step))(\(resultType))", 2)
                plain.append((step, .result))
            } else if FlowInterface.completesBare(step, in: flow) {
                line("/// " + SwiftNames.comment(step.title ?? step.name.text) + ": moves on by its derived events or `next`.", 2)
                line("case \(stepCase(step))", 2)
                plain.append((step, .bare))
            } else if step.kind == .flow, let (name, nested) = context.nested(step, in: file), context.hasCompletion.contains(name) {
                line("/// Inside the nested flow " + SwiftNames.comment(nested.title ?? nested.name.text) + ".", 2)
                line("indirect case \(stepCase(step))(\(SwiftGenerator.flowTypeName(nested)).Completion)", 2)
                plain.append((step, .nested))
            }
        }
        line("}", 1)
        if !plain.isEmpty {
            line()
            line("static func _move(_ completion: Completion) -> (steps: [Swift.String], result: [Swift.String: FlowKit.Value]?) {", 1)
            line("switch completion {", 2)
            for (step, kind) in plain {
                let name = SwiftNames.literal(step.name.text)
                switch kind {
                case .result:
                    line("case .\(stepCase(step))(let result): return ([\(name)], _values(result))", 2)
                case .bare:
                    line("case .\(stepCase(step)): return ([\(name)], nil)", 2)
                default:
                    let nested = SwiftGenerator.flowTypeName(context.nested(step, in: file)!.flow)
                    line("case .\(stepCase(step))(let inner):", 2)
                    line("let move = \(nested)._move(inner)", 3)
                    line("return ([\(name)] + move.steps, move.result)", 3)
                }
            }
            line("}", 2)
            line("}", 1)
        }

        // Completions with an explicit event.
        line()
        line("/// How the step the run is at completes with an explicit event (and, at a step with a result, maybe its result).", 1)
        line("public enum EventCompletion: Swift.Hashable, Swift.Sendable {", 1)
        var withEvent: [(Step, CompletionKind)] = []
        for step in steps {
            if let eventType = names.eventTypes[step.name.text] {
                line("/// " + SwiftNames.comment(step.title ?? step.name.text) + ".", 2)
                if let resultType = names.resultTypes[step.name.text] {
                    line("case \(stepCase(step))(\(eventType), result: \(resultType)? = nil)", 2)
                    withEvent.append((step, .result))
                } else {
                    line("case \(stepCase(step))(\(eventType))", 2)
                    withEvent.append((step, .event))
                }
            } else if step.kind == .flow, let (name, nested) = context.nested(step, in: file), context.hasEventCompletion.contains(name) {
                line("/// Inside the nested flow " + SwiftNames.comment(nested.title ?? nested.name.text) + ".", 2)
                line("indirect case \(stepCase(step))(\(SwiftGenerator.flowTypeName(nested)).EventCompletion)", 2)
                withEvent.append((step, .nested))
            }
        }
        line("}", 1)
        if !withEvent.isEmpty {
            line()
            line("static func _move(_ completion: EventCompletion) -> (steps: [Swift.String], event: Swift.String, result: [Swift.String: FlowKit.Value]?) {", 1)
            line("switch completion {", 2)
            for (step, kind) in withEvent {
                let name = SwiftNames.literal(step.name.text)
                switch kind {
                case .result:
                    line("case .\(stepCase(step))(let event, let result): return ([\(name)], event.rawValue, result.map(_values))", 2)
                case .event:
                    line("case .\(stepCase(step))(let event): return ([\(name)], event.rawValue, nil)", 2)
                default:
                    let nested = SwiftGenerator.flowTypeName(context.nested(step, in: file)!.flow)
                    line("case .\(stepCase(step))(let inner):", 2)
                    line("let move = \(nested)._move(inner)", 3)
                    line("return ([\(name)] + move.steps, move.event, move.result)", 3)
                }
            }
            line("}", 2)
            line("}", 1)
        }
    }

    // MARK: The typed run

    private mutating func writeRun() {
        let lines = """
            /// A run of the flow, typed: where it is, how it completes, its outcome and state. It runs the embedded
            /// flow unless it is given a checked flow (from a server), which must have the same interface.
            public struct Run: Swift.Sendable {
                /// The run underneath.
                public private(set) var base: FlowKit.FlowRun

                /// Starts at `start` with `inputs`.
                public init(inputs: Inputs, flow: FlowKit.CheckedFlow? = nil, maxSteps: Swift.Int = 10_000) throws(FlowKit.RunError) {
                    let (compiled, resolver) = try TYPE._checkedFlow(flow)
                    base = try FlowKit.FlowRun(flow: compiled, start: .start(state: TYPE._values(inputs)), resolver: resolver, maxSteps: maxSteps)
                }

                @ENTRY@

                /// Starts at the entry whose path `link` matches (`RunStart.url`), with the state the host gives
                /// (its inputs; the path's parameters are set from the link).
                public init(link: Swift.String, state: State = State(), flow: FlowKit.CheckedFlow? = nil,
                            maxSteps: Swift.Int = 10_000) throws(FlowKit.RunError) {
                    let (compiled, resolver) = try TYPE._checkedFlow(flow)
                    base = try FlowKit.FlowRun(flow: compiled, start: .url(link, state: TYPE._values(state)), resolver: resolver, maxSteps: maxSteps)
                }

                /// Restores a run saved with `snapshot()`; a flow that changed since is an error.
                public init(restoring snapshot: FlowKit.RunSnapshot, flow: FlowKit.CheckedFlow? = nil, maxSteps: Swift.Int = 10_000) throws(FlowKit.RunError) {
                    let (compiled, resolver) = try TYPE._checkedFlow(flow)
                    base = try FlowKit.FlowRun(restoring: snapshot, flow: compiled, resolver: resolver, maxSteps: maxSteps)
                }

                /// The step the run is at; nil once it has finished.
                public var current: Current? { TYPE._current(base.currentSteps[...]) }

                /// The outcome, once the flow has finished.
                public var outcome: Outcome? { base.outcome.flatMap(Outcome.init(rawValue:)) }

                /// The flow's state.
                public var state: State { State(values: base.state) }

                /// Whether the flow has finished.
                public var isFinished: Swift.Bool { base.isFinished }

                /// Whether `back()` has somewhere to go.
                public var canGoBack: Swift.Bool { base.canGoBack }

                @COMPLETE@

                @SEND@

                /// The back button: leaves the step without completing it (`FlowRun.goBack()`).
                public mutating func back() throws(FlowKit.RunError) {
                    try base.goBack()
                }

                /// Everything the run knows, to save and restore it.
                public func snapshot() -> FlowKit.RunSnapshot { base.snapshot() }
            }

            /// The flow to run: `flow` after checking its interface, else the embedded one.
            static func _checkedFlow(_ flow: FlowKit.CheckedFlow?) throws(FlowKit.RunError) -> (FlowKit.CompiledFlow, any FlowKit.FlowResolver) {
                if let flow {
                    try verify(flow.flow, resolver: flow.resolver)
                    return (flow.flow, flow.resolver)
                }
                switch checked {
                case .success(let flow): return (flow.flow, flow.resolver)
                case .failure(let rejection): throw FlowKit.RunError("the embedded flow is refused: \\(rejection)", kind: .invalidFlow)
                }
            }
            """
        let blocks = [
            "@ENTRY@": flow.entries.isEmpty ? "" : """
                    /// Starts at `entry`, as its deep link would, with the state the host gives (its inputs; the
                    /// entry's parameters are set from it).
                    public init(entry: Entry, state: State = State(), flow: FlowKit.CheckedFlow? = nil,
                                maxSteps: Swift.Int = 10_000) throws(FlowKit.RunError) {
                        let (compiled, resolver) = try TYPE._checkedFlow(flow)
                        let parts = TYPE._parts(entry)
                        base = try FlowKit.FlowRun(flow: compiled, start: .entry(parts.name, params: parts.params, state: TYPE._values(state)),
                                                   resolver: resolver, maxSteps: maxSteps)
                    }
                """,
            "@COMPLETE@": context.hasCompletion.contains(file) ? """
                    /// Completes the step the run is at with its result, or with nothing; a completion for another step
                    /// is an error and changes nothing.
                    public mutating func complete(_ completion: Completion) throws(FlowKit.RunError) {
                        let move = TYPE._move(completion)
                        try base.complete(at: move.steps, result: move.result)
                    }
                """ : "",
            "@SEND@": context.hasEventCompletion.contains(file) ? """
                    /// Completes the step the run is at with an explicit event (and maybe its result).
                    public mutating func send(_ completion: EventCompletion) throws(FlowKit.RunError) {
                        let move = TYPE._move(completion)
                        try base.complete(at: move.steps, event: move.event, result: move.result)
                    }
                """ : "",
        ]
        line()
        var previousEmpty = false
        for text in lines.split(separator: "\n", omittingEmptySubsequences: false) {
            let expanded = blocks[text.trimmingCharacters(in: .whitespaces)] ?? String(text)
            for text in expanded.split(separator: "\n", omittingEmptySubsequences: false) {
                // A block left out leaves one blank line, not two.
                if text.isEmpty && previousEmpty { continue }
                previousEmpty = text.isEmpty
                line(text.replacingOccurrences(of: "TYPE", with: typeName), text.isEmpty ? 0 : 1)
            }
        }
    }

    // MARK: Values

    private mutating func writeHelpers() {
        // Results, nested shapes and inputs to values.
        // (path, fields, whether its enums may be the state's: results and inputs).
        var structs: [(String, [Field], Bool)] = []
        func collect(_ path: String, _ fields: [Field], sharing: Bool) {
            structs.append((path, fields, sharing))
            for property in shape(fields, sharing: sharing).properties {
                if case .object(let nested) = property.type.base { collect(path + "." + property.nestedType!, nested, sharing: false) }
            }
        }
        for step in steps {
            if let resultType = names.resultTypes[step.name.text], let result = step.result { collect(typeName + "." + resultType, result, sharing: true) }
        }
        let types = Dictionary(flow.state.map { ($0.name.text, $0.type) }, uniquingKeysWith: { first, _ in first })
        let required = Set(flow.requiredInputs)
        structs.append((typeName + ".Inputs", flow.inputs.compactMap { input in
            types[input.text].map { type in
                var type = type
                type.optional = !required.contains(input.text)
                return Field(name: input, type: type)
            }
        }, true))
        // The state a host gives a run begun at an entry or a link: every key optional, as in `State`.
        structs.append((typeName + ".State", flow.state.map { field in
            var type = field.type
            type.optional = true
            return Field(name: field.name, type: type)
        }, false))
        for (path, fields, sharing) in structs {
            line()
            line("static func _values(_ value: \(path)) -> [Swift.String: FlowKit.Value] {", 1)
            let shape = shape(fields, sharing: sharing)
            if shape.properties.isEmpty {
                line("return [:]", 2)
            } else {
                line("var values: [Swift.String: FlowKit.Value] = [:]", 2)
                for property in shape.properties {
                    let access = "value.\(SwiftNames.code(property.name))"
                    let key = SwiftNames.literal(property.key)
                    if property.type.optional {
                        line("if let field = \(access) { values[\(key)] = \(valueExpression("field", property: property, path: path)) }", 2)
                    } else {
                        line("values[\(key)] = \(valueExpression(access, property: property, path: path))", 2)
                    }
                }
                line("return values", 2)
            }
            line("}", 1)
        }
    }

    /// The shape of `fields` in this flow; `sharing`: its enums take the state's types where they are the same.
    private func shape(_ fields: [Field], sharing: Bool) -> StructShape {
        StructShape(fields: fields, flowType: typeName, state: sharing ? flow.state : nil)
    }

    /// The lines of `State.init(values:)`.
    private func stateInitializer() -> [String] {
        let shape = shape(flow.state, sharing: false)
        let arguments = shape.properties.map { property -> String in
            let read = "values[\(SwiftNames.literal(property.key))]"
            let value: String
            switch property.type.base {
            case .int: value = "\(read)?.intValue"
            case .number: value = "\(read)?.doubleValue"
            case .string: value = "\(read)?.stringValue"
            case .bool: value = "\(read)?.boolValue"
            case .enumeration: value = "\(read)?.stringValue.flatMap(\(property.nestedType!).init(rawValue:))"
            case .object: value = "nil"
            }
            return "\(SwiftNames.label(property.name)): \(value)"
        }
        return ["/// The state a run holds: each key that is set and has its declared type, the others nil.",
                "public init(values: [Swift.String: FlowKit.Value]) {",
                "    self.init(\(arguments.joined(separator: ", ")))",
                "}"]
    }

    private func valueExpression(_ access: String, property: StructShape.Property, path: String) -> String {
        switch property.type.base {
        case .int: return ".int(Swift.Int64(\(access)))"
        case .number: return ".number(\(access))"
        case .string: return ".string(\(access))"
        case .bool: return ".bool(\(access))"
        case .enumeration: return ".string(\(access).rawValue)"
        case .object: return ".object(_values(\(access)))"
        }
    }
}
